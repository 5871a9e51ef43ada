// Data for TestBrowserCSPBlocksScript: a same-origin script file, which the
// dashboard's policy (default-src 'none', no script-src) must block too.
document.body.setAttribute('data-ran-file', 'yes');
