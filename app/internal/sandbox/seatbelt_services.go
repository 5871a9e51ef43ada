package sandbox

// The Mach services and Apple event destinations Seatbelt profiles name, one
// table per purpose, each entry with why it is there. Sources: Codex CLI's
// seatbelt_base_policy.sbpl and seatbelt_network_policy.sbpl, Chromium's
// common.sb and network.sb (which Codex cites), anthropic-experimental's
// sandbox-runtime, and Launch Services' own error text ("The sandbox profile
// of this process is missing (allow lsopen)"). A name that does not exist on
// some macOS release matches nothing: it never stops a profile loading.

// machService is a Mach service name a rule names, and why. A prefix entry
// names every service whose name starts with it (global-name-prefix).
type machService struct {
	name   string
	prefix bool
	why    string
}

// baseServices are what any program needs to start, learn who it runs as,
// log and read preferences. A command reaches them whatever it was granted.
var baseServices = []machService{
	{name: "com.apple.bsd.dirhelper", why: "the per-user temporary and cache folders (confstr, _CS_DARWIN_USER_TEMP_DIR)"},
	{name: "com.apple.logd", why: "os_log"},
	{name: "com.apple.system.logger", why: "syslog(3) and asl"},
	{name: "com.apple.system.notification_center", why: "notify(3): the time zone and other system notifications"},
	{name: "com.apple.system.opendirectoryd.libinfo", why: "user and group lookups (getpwuid, getgrgid)"},
	{name: "com.apple.system.opendirectoryd.membership", why: "group membership checks"},
	{name: "com.apple.cfprefsd.agent", why: "Core Foundation's preferences (defaults read, CFPreferences): reading only, since no rule allows user-preference-write"},
	{name: "com.apple.cfprefsd.daemon", why: "Core Foundation's system-wide preferences, read the same way"},
}

// resolverServices resolve names: reached only with a network grant. Name
// resolution is a way out (a query carries data to whoever serves the
// name), so an action without the network cannot resolve names either.
var resolverServices = []machService{
	{name: "com.apple.dnssd.service", why: "name resolution: getaddrinfo goes through mDNSResponder's service (macOS 11 and later) or its socket"},
}

// networkServices are what reading the network's configuration and
// checking certificates need: reached only with a network grant.
var networkServices = []machService{
	{name: "com.apple.SystemConfiguration.DNSConfiguration", why: "the resolver's configuration"},
	{name: "com.apple.SystemConfiguration.configd", why: "the network configuration and proxies"},
	{name: "com.apple.networkd", why: "Network.framework's path evaluation"},
	{name: "com.apple.trustd.agent", why: "certificate trust evaluation (TLS through the Security framework)"},
	{name: "com.apple.ocspd", why: "certificate revocation checks"},
}

// keychainServices read and write keychain items on the caller's behalf:
// the keychain files are hidden, but securityd reads them for whoever asks
// (`security find-generic-password -w`, a credential helper such as
// git-credential-osxkeychain). Codex grants the first with the network, for
// client certificates and trust settings kept in keychains; here only an
// action the person approved with the host's network reaches them. Trust
// evaluation itself needs trustd only (networkServices).
var keychainServices = []machService{
	{name: "com.apple.SecurityServer", why: "securityd: the login keychain and the file-based keychains"},
	{name: "com.apple.securityd.xpc", why: "the data protection keychain"},
}

// launchServices are what makes launchd or another process start code
// outside the sandbox on an action's behalf: open, NSWorkspace and
// AppleScript's launching of an app all go through Launch Services, whose
// server also checks the caller's lsopen; login items and background tasks
// are registered through their own agents. An action the person did not
// approve reaches none of them, whatever its kind.
var launchServices = []machService{
	{name: "com.apple.coreservices.launchservicesd", why: "Launch Services: opening files, URLs and apps"},
	{name: "com.apple.CoreServices.coreservicesd", why: "Launch Services' older server, which open uses on macOS 14 and 15"},
	{name: "com.apple.lsd.open", why: "Launch Services' open requests"},
	{name: "com.apple.lsd.modifydb", why: "registering apps and URL handlers in Launch Services' database"},
	{name: "com.apple.coreservices.quarantine-resolver", why: "the quarantine check open asks for before launching"},
	{name: "com.apple.coreservices.sharedfilelistd", prefix: true, why: "the login items list (LSSharedFileList)"},
	{name: "com.apple.backgroundtaskmanagement", prefix: true, why: "login items and launch agents registered through Background Task Management (SMAppService)"},
}

// uiServices are what drives the UI on macOS: the window server (and
// through it synthesised input), Apple events, the pasteboard, Launch
// Services' database (which app answers to a name) and the privacy
// database's daemon, which asks the person. A command reaches them only
// with the UI grant.
var uiServices = []machService{
	{name: "com.apple.windowserver.active", why: "the window server"},
	{name: "com.apple.CARenderServer", why: "Core Animation's render server"},
	{name: "com.apple.coreservices.appleevents", why: "Apple events (appleeventsd)"},
	{name: "com.apple.coreservices.launchservicesd", why: "which app answers to a name or bundle id"},
	{name: "com.apple.lsd.mapdb", why: "Launch Services' database, read only"},
	{name: "com.apple.pasteboard.1", why: "the pasteboard"},
	{name: "com.apple.tccd", why: "the privacy database's daemon, which asks the person for Automation and Accessibility"},
}

// forbiddenAppleEventTargets are the Apple event destinations an action's
// script may never send to, whatever it was granted: terminals and script
// runners run code outside the sandbox, and Airlock itself answers only the
// person.
var forbiddenAppleEventTargets = []string{
	"com.apple.Terminal",
	"com.googlecode.iterm2",
	"com.apple.ScriptEditor2",
	"com.apple.Automator",
	"com.apple.shortcuts",
	"dev.airlock.Airlock",
}
