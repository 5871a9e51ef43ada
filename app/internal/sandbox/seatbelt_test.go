package sandbox_test

import (
	"os"
	"path/filepath"
	"slices"
	"strconv"
	"strings"
	"testing"

	"github.com/airlockhq/airlock/app/internal/sandbox"
)

// macTemp is an action's temporary folder on a Mac: in the folder of the
// user's actions' folders (OtherTemps), in the user's temporary folder.
const macTemp = "/private/var/folders/xy/T/airlock-actions-501/airlock-action-1"

// macProfile is the profile of one action on a Mac.
func macProfile(t *testing.T, kind string, g sandbox.Grant) sandbox.Profile {
	t.Helper()
	s := sandbox.Settings{OS: "darwin", Home: "/Users/ann", Roots: []string{"/Users/ann/Documents"},
		Own:     []string{"/Users/ann/Library/Application Support/Airlock", "/Users/ann/Library/Logs/Airlock"},
		Program: "/Applications/Airlock.app", Env: []string{"PATH=/usr/bin:/bin", "HOME=/Users/ann"}}
	p, err := sandbox.Derive(s, kind, g, macTemp)
	if err != nil {
		t.Fatal(err)
	}
	if !slices.Equal(p.OtherTemps, []string{filepath.Dir(macTemp)}) {
		t.Fatalf("OtherTemps %q, want the folder of the actions' folders %s", p.OtherTemps, filepath.Dir(macTemp))
	}
	return p
}

// seatbelt returns the text and parameters of p's profile, checked as
// every profile must be (checkText).
func seatbelt(t *testing.T, p sandbox.Profile) (string, map[string]string) {
	t.Helper()
	text, params, err := sandbox.Seatbelt(p)
	if err != nil {
		t.Fatal(err)
	}
	checkText(t, p, text, params)
	return text, paramMap(t, params)
}

// paramMap reads sandbox-exec's -D parameters.
func paramMap(t *testing.T, params []string) map[string]string {
	t.Helper()
	m := map[string]string{}
	for _, kv := range params {
		k, v, ok := strings.Cut(kv, "=")
		if !ok || k == "" {
			t.Fatalf("parameter %q is not KEY=VALUE", kv)
		}
		if _, dup := m[k]; dup {
			t.Fatalf("parameter %s given twice", k)
		}
		m[k] = v
	}
	return m
}

// sbRule is one top-level rule of a profile: (allow|deny OP… FILTER…).
type sbRule struct {
	action  string
	ops     []string
	filters []string // each as written, "(subpath (param \"WRITE_0\"))"
	at      int      // its index in the text
}

// parseRules splits a profile into its top-level forms, skipping comments
// and reading strings ("…") and regular expressions (#"…") whole. It fails
// the test on unbalanced text.
func parseRules(t *testing.T, text string) []sbRule {
	t.Helper()
	var rules []sbRule
	depth, start := 0, 0
	for i := 0; i < len(text); i++ {
		switch c := text[i]; c {
		case ';':
			for i < len(text) && text[i] != '\n' {
				i++
			}
		case '"':
			raw := i > 0 && text[i-1] == '#' // #"…": a regular expression, no escapes
			for i++; i < len(text) && text[i] != '"'; i++ {
				if text[i] == '\\' && !raw {
					i++
				}
			}
			if i >= len(text) {
				t.Fatalf("an unterminated string in:\n%s", text)
			}
		case '(':
			if depth == 0 {
				start = i
			}
			depth++
		case ')':
			depth--
			if depth < 0 {
				t.Fatalf("unbalanced parentheses at %d:\n%s", i, text)
			}
			if depth == 0 {
				rules = append(rules, splitRule(text[start:i+1], start))
			}
		}
	}
	if depth != 0 {
		t.Fatalf("unbalanced text (depth %d):\n%s", depth, text)
	}
	return rules
}

// splitRule reads "(allow op op (filter …) (filter …))".
func splitRule(form string, at int) sbRule {
	r := sbRule{at: at}
	body := form[1 : len(form)-1]
	fields := strings.Fields(strings.SplitN(body, "(", 2)[0])
	if len(fields) > 0 {
		r.action, r.ops = fields[0], fields[1:]
	}
	depth, start := 0, 0
	inString := false
	for i := 0; i < len(body); i++ {
		switch c := body[i]; {
		case c == '"':
			inString = !inString
		case inString:
		case c == '(':
			if depth == 0 {
				start = i
			}
			depth++
		case c == ')':
			depth--
			if depth == 0 {
				r.filters = append(r.filters, body[start:i+1])
			}
		}
	}
	return r
}

// has reports whether r names operation op.
func (r sbRule) has(op string) bool { return slices.Contains(r.ops, op) }

// names reports whether one of r's filters is (KIND "name").
func (r sbRule) names(kind, name string) bool {
	return slices.Contains(r.filters, "("+kind+" "+strconv.Quote(name)+")")
}

// find returns the rules with the action that name op and a filter
// (kind "name").
func find(rules []sbRule, action, op, kind, name string) []sbRule {
	var out []sbRule
	for _, r := range rules {
		if r.action == action && r.has(op) && r.names(kind, name) {
			out = append(out, r)
		}
	}
	return out
}

// checkText checks what every profile text must hold: (version 1) first,
// balanced forms, each parameter used once and each use given, no path of
// the profile spliced into the text; no allow of a specific file
// operation on anything but a fixed device path (a specific rule would win
// over the later wildcard denies); the terminal refused and the hidden
// paths denied (reading, writing, connecting) after every allow; and an
// unasked action's rules after every allow.
func checkText(t *testing.T, p sandbox.Profile, text string, params []string) {
	t.Helper()
	if !strings.HasPrefix(text, "(version 1)\n") {
		t.Errorf("the text does not start with (version 1):\n%s", text)
	}
	rules := parseRules(t, text)
	m := paramMap(t, params)
	for k := range m {
		if n := strings.Count(text, `(param "`+k+`")`); n != 1 {
			t.Errorf("parameter %s is used %d times", k, n)
		}
	}
	if uses := strings.Count(text, "(param "); uses != len(m) {
		t.Errorf("%d parameters used, %d given", uses, len(m))
	}
	for prefix, paths := range map[string][]string{"READ": p.Read, "WRITE": p.Write, "HIDE": p.Hide, "OTHERTEMPS": p.OtherTemps} {
		var got []string
		for i := 0; ; i++ {
			v, ok := m[prefix+"_"+strconv.Itoa(i)]
			if !ok {
				break
			}
			got = append(got, v)
		}
		if prefix == "READ" && p.Kind != sandbox.KindCommand {
			paths = nil // scripts read by default
		}
		if !slices.Equal(got, paths) {
			t.Errorf("%s parameters %q, want %q", prefix, got, paths)
		}
		for _, path := range paths {
			if len(path) > 1 && strings.Contains(text, `"`+path+`"`) {
				t.Errorf("the path %s is spliced into the text", path)
			}
		}
	}
	lastAllow := -1
	for _, r := range rules {
		if r.action != "allow" {
			continue
		}
		lastAllow = r.at
		for _, op := range r.ops {
			if !strings.HasPrefix(op, "file-") || strings.HasSuffix(op, "*") {
				continue
			}
			for _, f := range r.filters {
				if !strings.HasPrefix(f, `(literal "/dev/`) && f != `(subpath "/dev/fd")` {
					t.Errorf("(allow %s …) names %s: a specific allow beats later wildcard denies", op, f)
				}
			}
		}
	}
	tty := slices.IndexFunc(rules, func(r sbRule) bool {
		return r.action == "deny" && slices.Equal(r.ops, []string{"file-read*", "file-write*", "file-ioctl"}) &&
			slices.Equal(r.filters, []string{`(regex #"^/dev/(tty|pty|ptmx)")`})
	})
	if tty < 0 || rules[tty].at < lastAllow {
		t.Errorf("the terminal is not refused after every allow")
	}
	hide := slices.IndexFunc(rules, func(r sbRule) bool {
		return r.action == "deny" && len(r.filters) > 0 && r.filters[0] == `(subpath (param "HIDE_0"))`
	})
	if hide < 0 {
		t.Fatalf("the hidden paths are not denied:\n%s", text)
	}
	if !slices.Equal(rules[hide].ops, []string{"file-read*", "file-write*", "network-outbound"}) {
		t.Errorf("the hidden paths are denied only %v", rules[hide].ops)
	}
	if rules[hide].at < lastAllow {
		t.Errorf("an allow rule follows the hidden paths' deny (later rules win)")
	}
	others := slices.IndexFunc(rules, func(r sbRule) bool {
		return r.action == "deny" && len(r.filters) == 1 && strings.Contains(r.filters[0], `(param "OTHERTEMPS_0")`)
	})
	var wantOthers strings.Builder
	wantOthers.WriteString(`(require-all (require-any (subpath (param "OTHERTEMPS_0"))`)
	if m["OTHERTEMPS_1"] != "" {
		wantOthers.WriteString(` (subpath (param "OTHERTEMPS_1"))`)
	}
	wantOthers.WriteString(`) (require-not (subpath (param "TEMP_0")))`)
	if m["TEMP_1"] != "" {
		wantOthers.WriteString(` (require-not (subpath (param "TEMP_1")))`)
	}
	wantOthers.WriteString(")")
	switch {
	case len(p.OtherTemps) == 0:
		if others >= 0 {
			t.Errorf("a profile without OtherTemps refuses them")
		}
	case others < 0:
		t.Errorf("the other actions' temporary folders are not refused:\n%s", text)
	case !slices.Equal(rules[others].ops, []string{"file-read*", "file-write*", "network-outbound"}):
		t.Errorf("the other actions' temporary folders are denied only %v", rules[others].ops)
	case strings.Join(strings.Fields(rules[others].filters[0]), " ") != wantOthers.String():
		t.Errorf("the other actions' temporary folders are denied as %s, want %s", rules[others].filters[0], wantOthers.String())
	case m["TEMP_0"] != p.TempDir || !slices.Contains(p.OtherTemps, m["OTHERTEMPS_0"]):
		t.Errorf("its own folder is left out as %q, the others' refused as %q", m["TEMP_0"], m["OTHERTEMPS_0"])
	case rules[others].at < lastAllow:
		t.Errorf("an allow rule follows the other actions' temporary folders' deny (later rules win)")
	}
	if p.Unasked {
		for _, want := range []string{"lsopen", "job-creation"} {
			i := slices.IndexFunc(rules, func(r sbRule) bool { return r.action == "deny" && slices.Equal(r.ops, []string{want}) })
			if i < 0 || rules[i].at < lastAllow {
				t.Errorf("unasked: (deny %s) missing or before an allow", want)
			}
		}
	}
}

// allKinds are the kinds of action a Mac runs confined.
var allKinds = []string{sandbox.KindCommand, sandbox.KindAppleScript, sandbox.KindJXA}

// everyProfile calls f with the profile of every kind, network grant, UI
// grant and approval.
func everyProfile(t *testing.T, f func(name string, p sandbox.Profile)) {
	for _, kind := range allKinds {
		for _, n := range []sandbox.Network{sandbox.NetNone, sandbox.NetInternet, sandbox.NetHost} {
			for _, approved := range []bool{false, true} {
				if n == sandbox.NetHost && !approved {
					continue
				}
				for _, ui := range []bool{false, true} {
					p := macProfile(t, kind, sandbox.Grant{Approved: approved, UI: ui, Network: n})
					f(kind+"/"+n.String()+"/approved="+strconv.FormatBool(approved)+"/ui="+strconv.FormatBool(ui), p)
				}
			}
		}
	}
}

// TestSeatbeltEveryProfile: every combination reads as a profile must.
func TestSeatbeltEveryProfile(t *testing.T) {
	everyProfile(t, func(name string, p sandbox.Profile) {
		t.Run(name, func(t *testing.T) { seatbelt(t, p) })
	})
}

func TestSeatbeltCommand(t *testing.T) {
	for _, ui := range []bool{false, true} {
		p := macProfile(t, sandbox.KindCommand, sandbox.Grant{Approved: ui, UI: ui})
		text, _ := seatbelt(t, p)
		rules := parseRules(t, text)
		for _, want := range []string{"(deny default)", "(allow process-exec process-fork)",
			"(allow signal (target same-sandbox))", "(allow process-info* (target same-sandbox))",
			// Core Foundation and libuv: cfprefsd, host_processor_info, the power-management client.
			"(allow mach-host*)", `(allow iokit-open (iokit-registry-entry-class "RootDomainUserClient"))`,
			`(allow mach-lookup (local-name "com.apple.cfprefsd.agent"))`} {
			if !strings.Contains(text, want) {
				t.Errorf("UI %v: the text lacks %s", ui, want)
			}
		}
		for _, svc := range []string{"com.apple.cfprefsd.agent", "com.apple.cfprefsd.daemon", "com.apple.system.opendirectoryd.libinfo"} {
			if len(find(rules, "allow", "mach-lookup", "global-name", svc)) == 0 {
				t.Errorf("UI %v: %s is not reachable", ui, svc)
			}
		}
		if strings.Contains(text, "(allow default)") || strings.Contains(text, "user-preference-write") {
			t.Errorf("a command's profile allows by default, or writes preferences")
		}
		windowServer := len(find(rules, "allow", "mach-lookup", "global-name", "com.apple.windowserver.active")) > 0
		appleEvents := strings.Contains(text, "(allow appleevent-send)")
		if windowServer != ui || appleEvents != ui {
			t.Errorf("UI %v: window server %v, Apple events %v", ui, windowServer, appleEvents)
		}
		if ui {
			allow := strings.Index(text, "(allow appleevent-send)")
			deny := strings.Index(text, `(appleevent-destination "com.apple.Terminal")`)
			if deny < allow {
				t.Errorf("Apple events to Terminal are not refused after Apple events are allowed")
			}
		}
	}
}

// TestSeatbeltDevices: the standard streams and the program's own
// descriptors are writable in every kind (they reopen what it holds); the
// terminal is not (checkText).
func TestSeatbeltDevices(t *testing.T) {
	everyProfile(t, func(name string, p sandbox.Profile) {
		rules := parseRules(t, mustSeatbelt(t, p))
		for _, dev := range []string{`(literal "/dev/stdout")`, `(literal "/dev/stderr")`, `(subpath "/dev/fd")`, `(literal "/dev/null")`} {
			ok := slices.ContainsFunc(rules, func(r sbRule) bool {
				return r.action == "allow" && r.has("file-write-data") && slices.Contains(r.filters, dev)
			})
			if !ok {
				t.Errorf("%s: %s is not writable", name, dev)
			}
		}
	})
}

func mustSeatbelt(t *testing.T, p sandbox.Profile) string {
	t.Helper()
	text, _ := seatbelt(t, p)
	return text
}

func TestSeatbeltScripts(t *testing.T) {
	for _, kind := range []string{sandbox.KindAppleScript, sandbox.KindJXA} {
		for _, ui := range []bool{false, true} {
			p := macProfile(t, kind, sandbox.Grant{Approved: ui, UI: ui})
			text, _ := seatbelt(t, p)
			order := []string{"(allow default)", "(deny signal)", "(allow signal (target same-sandbox))",
				"(deny file-write*)", "(deny user-preference-write)", "(allow file-write*\n  (subpath (param \"WRITE_0\"))",
				`(appleevent-destination "com.apple.Terminal")`}
			at := -1
			for _, want := range order {
				i := strings.Index(text, want)
				if i <= at {
					t.Fatalf("%s UI %v: %q missing or out of order:\n%s", kind, ui, want, text)
				}
				at = i
			}
			systemEvents := strings.Contains(text, `(appleevent-destination "com.apple.systemevents")`)
			if systemEvents == ui {
				t.Errorf("%s UI %v: System Events refused: %v", kind, ui, systemEvents)
			}
			if kind == sandbox.KindAppleScript && slices.Contains(p.Hide, "/Applications/Airlock.app") {
				t.Errorf("the AppleScript helper's own bundle is hidden from it")
			}
		}
	}
}

// TestSeatbeltNetwork: each network grant's rules, for commands (deny by
// default) and scripts (allow by default): none allows nothing, not even
// names (the resolver's socket or its service); the internet allows TCP to
// ports 80 and 443 and names and then refuses localhost (later rules win);
// the host's network allows everything.
func TestSeatbeltNetwork(t *testing.T) {
	const (
		web       = `(allow network-outbound (remote tcp "*:80") (remote tcp "*:443"))`
		resolver  = `(allow network-outbound (literal "/private/var/run/mDNSResponder"))`
		noLocal   = `(deny network-outbound (remote ip "localhost:*"))`
		anywhere  = `(allow network-outbound (remote ip "*:*"))`
		inbound   = `(allow network-inbound network-bind (local ip "*:*"))`
		denyIP    = `(deny network-outbound (remote ip "*:*")`
		denyBind  = `(deny network-inbound network-bind (local ip "*:*"))`
		noNetwork = `(deny network-outbound (remote ip "*:*") (literal "/private/var/run/mDNSResponder"))`
		dnssd     = `(global-name "com.apple.dnssd.service")`
	)
	for _, tc := range []struct {
		kind    string
		net     sandbox.Network
		inOrder []string // each after the one before
		never   []string
	}{
		{sandbox.KindCommand, sandbox.NetNone, nil, []string{"(allow network", "(remote ip", "(remote tcp", "mDNSResponder", dnssd, "configd"}},
		{sandbox.KindCommand, sandbox.NetInternet, []string{web, resolver, noLocal, dnssd}, []string{anywhere, inbound, "(allow network-bind", "(allow network-inbound"}},
		{sandbox.KindCommand, sandbox.NetHost, []string{anywhere, inbound, resolver, dnssd}, []string{noLocal}},
		{sandbox.KindAppleScript, sandbox.NetNone, []string{"(allow default)", noNetwork, denyBind, "(deny mach-lookup\n  " + dnssd}, []string{"(allow network"}},
		{sandbox.KindJXA, sandbox.NetNone, []string{"(allow default)", noNetwork, denyBind, "(deny mach-lookup\n  " + dnssd}, []string{"(allow network"}},
		{sandbox.KindJXA, sandbox.NetInternet, []string{"(allow default)", denyIP, denyBind, web, resolver, noLocal}, []string{anywhere, inbound, dnssd}},
		{sandbox.KindAppleScript, sandbox.NetHost, []string{"(allow default)"}, []string{denyIP, denyBind, "(deny network", dnssd}},
	} {
		name := tc.kind + "/" + tc.net.String()
		p := macProfile(t, tc.kind, sandbox.Grant{Approved: tc.net == sandbox.NetHost, Network: tc.net})
		text, _ := seatbelt(t, p)
		at := -1
		for _, want := range tc.inOrder {
			i := strings.Index(text[at+1:], want)
			if i < 0 {
				t.Errorf("%s: %q missing or out of order:\n%s", name, want, text)
				break
			}
			at += 1 + i
		}
		for _, never := range tc.never {
			if strings.Contains(text, never) {
				t.Errorf("%s: the text holds %q:\n%s", name, never, text)
			}
		}
		// The UI grant changes nothing of the network.
		p.UI = true
		withUI, _, _ := sandbox.Seatbelt(p)
		if netRules(withUI) != netRules(text) {
			t.Errorf("%s: the UI grant changes the network rules", name)
		}
	}
}

// TestSeatbeltKeychain: the keychain daemons, which read keychain items
// for whoever asks, are reached only with the host's network (which only
// the person grants): a command is allowed them then only; a script is
// refused them otherwise.
func TestSeatbeltKeychain(t *testing.T) {
	everyProfile(t, func(name string, p sandbox.Profile) {
		rules := parseRules(t, mustSeatbelt(t, p))
		for _, svc := range []string{"com.apple.SecurityServer", "com.apple.securityd.xpc"} {
			allowed := len(find(rules, "allow", "mach-lookup", "global-name", svc)) > 0
			denied := len(find(rules, "deny", "mach-lookup", "global-name", svc)) > 0
			host := p.Network == sandbox.NetHost
			switch {
			case p.Kind == sandbox.KindCommand && allowed != host:
				t.Errorf("%s: a command reaches %s: %v", name, svc, allowed)
			case p.Kind != sandbox.KindCommand && denied == host:
				t.Errorf("%s: a script is refused %s: %v", name, svc, denied)
			case allowed && denied:
				t.Errorf("%s: %s both allowed and denied", name, svc)
			}
		}
	})
}

// TestSeatbeltLaunches: an action the person did not approve, of every
// kind, cannot have Launch Services, launchd or the login items start code
// outside the sandbox, and these rules come after every allow (the UI
// grant's Launch Services included); an approved one is not refused them.
func TestSeatbeltLaunches(t *testing.T) {
	everyProfile(t, func(name string, p sandbox.Profile) {
		text := mustSeatbelt(t, p)
		rules := parseRules(t, text)
		for _, svc := range []string{"com.apple.coreservices.launchservicesd", "com.apple.CoreServices.coreservicesd", "com.apple.lsd.modifydb"} {
			deny := find(rules, "deny", "mach-lookup", "global-name", svc)
			if (len(deny) > 0) != p.Unasked {
				t.Errorf("%s: %s refused: %v", name, svc, len(deny) > 0)
			}
			for _, allow := range find(rules, "allow", "mach-lookup", "global-name", svc) {
				if len(deny) > 0 && allow.at > deny[0].at {
					t.Errorf("%s: %s allowed after it is refused", name, svc)
				}
			}
		}
		for _, prefix := range []string{"com.apple.coreservices.sharedfilelistd", "com.apple.backgroundtaskmanagement"} {
			if got := len(find(rules, "deny", "mach-lookup", "global-name-prefix", prefix)) > 0; got != p.Unasked {
				t.Errorf("%s: %s* refused: %v", name, prefix, got)
			}
		}
		if got := strings.Contains(text, "(deny lsopen)"); got != p.Unasked {
			t.Errorf("%s: (deny lsopen): %v", name, got)
		}
	})
}

// netRules returns the lines of a text that speak of the network.
func netRules(text string) string {
	var out []string
	for _, l := range strings.Split(text, "\n") {
		if strings.Contains(l, "network") {
			out = append(out, l)
		}
	}
	return strings.Join(out, "\n")
}

// TestSeatbeltPathsStayData: a path holding quotes and parentheses changes
// nothing in the text: paths are parameters.
func TestSeatbeltPathsStayData(t *testing.T) {
	p := macProfile(t, sandbox.KindCommand, sandbox.Grant{})
	base, _, err := sandbox.Seatbelt(p)
	if err != nil {
		t.Fatal(err)
	}
	p.Write = append(p.Write, `/Users/ann/x") (allow default) ("`)
	text, _ := seatbelt(t, p)
	if strings.Contains(text, "(allow default)") {
		t.Fatalf("a path became a rule:\n%s", text)
	}
	if len(text) <= len(base) || !strings.Contains(text, `(param "WRITE_2")`) {
		t.Fatalf("the extra root is not a parameter:\n%s", text)
	}
}

func TestSeatbeltRefuses(t *testing.T) {
	p := macProfile(t, sandbox.KindCommand, sandbox.Grant{})
	p.Hide = append(p.Hide, "relative/path")
	if _, _, err := sandbox.Seatbelt(p); err == nil || !strings.Contains(err.Error(), "not an absolute path") {
		t.Errorf("relative path: %v", err)
	}
	p = macProfile(t, sandbox.KindCommand, sandbox.Grant{})
	p.Kind = "perl"
	if _, _, err := sandbox.Seatbelt(p); err == nil || !strings.Contains(err.Error(), "unknown kind") {
		t.Errorf("unknown kind: %v", err)
	}
	p = macProfile(t, sandbox.KindCommand, sandbox.Grant{})
	p.Network = 7
	if _, _, err := sandbox.Seatbelt(p); err == nil || !strings.Contains(err.Error(), "network grant") {
		t.Errorf("unknown network grant: %v", err)
	}
}

func TestSandboxExecArgv(t *testing.T) {
	got := sandbox.SandboxExecArgv("(version 1)", []string{"READ_0=/", "HIDE_0=/a b"}, []string{"ls", "-l", "--", "-x"})
	want := []string{"/usr/bin/sandbox-exec", "-p", "(version 1)", "-D", "READ_0=/", "-D", "HIDE_0=/a b", "--", "ls", "-l", "--", "-x"}
	if !slices.Equal(got, want) {
		t.Fatalf("%q\nwant %q", got, want)
	}
}

// TestResolve: a store that is a link elsewhere is hidden where it leads
// too; what does not exist stays as it is.
func TestResolve(t *testing.T) {
	dir := t.TempDir()
	real := filepath.Join(dir, "real-ssh")
	if err := os.Mkdir(real, 0o700); err != nil {
		t.Fatal(err)
	}
	link := filepath.Join(dir, ".ssh")
	if err := os.Symlink(real, link); err != nil {
		t.Fatal(err)
	}
	missing := filepath.Join(dir, "missing")
	p := sandbox.Resolve(sandbox.Profile{Hide: []string{link, missing}, Write: []string{real}})
	realResolved, err := filepath.EvalSymlinks(real)
	if err != nil {
		t.Fatal(err)
	}
	if !slices.Contains(p.Hide, link) || !slices.Contains(p.Hide, realResolved) || !slices.Contains(p.Hide, missing) {
		t.Fatalf("Hide = %q", p.Hide)
	}
}

// TestSeatbeltSecretFiles: the secret files of the roots an unasked
// action's grant names are refused to it, reading and writing, by the last
// rule of its profile, after the roots' allows, for every kind of action.
func TestSeatbeltSecretFiles(t *testing.T) {
	secrets := []string{"/Users/ann/Documents/proj/.env", "/Users/ann/Documents/proj/server.key"}
	for _, kind := range []string{sandbox.KindCommand, sandbox.KindAppleScript, sandbox.KindJXA} {
		p := macProfile(t, kind, sandbox.Grant{Secrets: secrets})
		text, params := seatbelt(t, p)
		rules := parseRules(t, text)
		last := rules[len(rules)-1]
		if last.action != "deny" || !last.has("file-read*") || !last.has("file-write*") {
			t.Fatalf("%s: the last rule is %s %q, want the hidden paths' deny", kind, last.action, last.ops)
		}
		for _, s := range secrets {
			var key string
			for k, v := range params {
				if v == s {
					key = k
				}
			}
			if !strings.HasPrefix(key, "HIDE_") || !slices.Contains(last.filters, `(subpath (param "`+key+`"))`) {
				t.Errorf("%s: %s is not refused by the last rule (parameter %q)", kind, s, key)
			}
		}
	}
}
