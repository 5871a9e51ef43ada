package dashboard

// SecurityHeaders are the headers every response carries, for the browser
// test that checks what they block.
var SecurityHeaders = securityHeaders
