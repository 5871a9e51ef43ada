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

// macProfile is the profile of one action on a Mac.
func macProfile(t *testing.T, kind string, g sandbox.Grant) sandbox.Profile {
	t.Helper()
	s := sandbox.Settings{OS: "darwin", Home: "/Users/ann", Roots: []string{"/Users/ann/Documents"},
		Own:     []string{"/Users/ann/Library/Application Support/Airlock", "/Users/ann/Library/Logs/Airlock"},
		Program: "/Applications/Airlock.app", Env: []string{"PATH=/usr/bin:/bin", "HOME=/Users/ann"}}
	p, err := sandbox.Derive(s, kind, g, "/private/var/folders/xy/T/airlock-action-1")
	if err != nil {
		t.Fatal(err)
	}
	return p
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

// checkText checks what every profile text must hold: balanced
// parentheses, each parameter used once and each use given, no path of
// the profile spliced into the text, the hidden paths denied after every
// allow, and the terminal refused.
func checkText(t *testing.T, p sandbox.Profile, text string, params []string) {
	t.Helper()
	if !strings.HasPrefix(text, "(version 1)\n") {
		t.Errorf("the text does not start with (version 1):\n%s", text)
	}
	depth := 0
	inString := false
	for _, line := range strings.Split(text, "\n") {
		if strings.HasPrefix(strings.TrimSpace(line), ";") {
			continue
		}
		for i := 0; i < len(line); i++ {
			switch c := line[i]; {
			case c == '"':
				inString = !inString
			case inString:
			case c == '(':
				depth++
			case c == ')':
				depth--
				if depth < 0 {
					t.Fatalf("unbalanced parentheses at %q", line)
				}
			}
		}
	}
	if depth != 0 || inString {
		t.Fatalf("unbalanced text (depth %d, in a string %v):\n%s", depth, inString, text)
	}
	m := paramMap(t, params)
	for k := range m {
		if n := strings.Count(text, `(param "`+k+`")`); n != 1 {
			t.Errorf("parameter %s is used %d times", k, n)
		}
	}
	if uses := strings.Count(text, "(param "); uses != len(m) {
		t.Errorf("%d parameters used, %d given", uses, len(m))
	}
	for prefix, paths := range map[string][]string{"READ": p.Read, "WRITE": p.Write, "HIDE": p.Hide} {
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
	hide := strings.LastIndex(text, "(deny file-read* file-write*\n  (subpath (param \"HIDE_0\"))")
	if hide < 0 {
		t.Fatalf("the hidden paths are not denied:\n%s", text)
	}
	if last := strings.LastIndex(text, "(allow"); last > hide {
		t.Errorf("an allow rule follows the hidden paths' deny (later rules win):\n%s", text[last:])
	}
	if !strings.Contains(text, `(deny file-read* file-write* file-ioctl (regex #"^/dev/(tty|pty|ptmx)"))`) {
		t.Errorf("the terminal is not refused")
	}
}

func TestSeatbeltCommand(t *testing.T) {
	for _, ui := range []bool{false, true} {
		p := macProfile(t, sandbox.KindCommand, sandbox.Grant{Approved: ui, UI: ui})
		text, params, err := sandbox.Seatbelt(p)
		if err != nil {
			t.Fatal(err)
		}
		checkText(t, p, text, params)
		for _, want := range []string{"(deny default)", "(allow process-exec process-fork)",
			"(allow signal (target same-sandbox))"} {
			if !strings.Contains(text, want) {
				t.Errorf("UI %v: the text lacks %s", ui, want)
			}
		}
		if strings.Contains(text, "(allow default)") {
			t.Errorf("a command's profile allows by default")
		}
		windowServer := strings.Contains(text, `(global-name "com.apple.windowserver.active")`)
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

func TestSeatbeltScripts(t *testing.T) {
	for _, kind := range []string{sandbox.KindAppleScript, sandbox.KindJXA} {
		for _, ui := range []bool{false, true} {
			p := macProfile(t, kind, sandbox.Grant{Approved: ui, UI: ui})
			text, params, err := sandbox.Seatbelt(p)
			if err != nil {
				t.Fatal(err)
			}
			checkText(t, p, text, params)
			order := []string{"(allow default)", "(deny signal)", "(allow signal (target same-sandbox))",
				"(deny file-write*)", "(allow file-write*\n  (subpath (param \"WRITE_0\"))", `(appleevent-destination "com.apple.Terminal")`}
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
// the name resolver; the internet allows TCP to ports 80 and 443 and the
// resolver and then refuses localhost (later rules win); the host's
// network allows everything.
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
	)
	for _, tc := range []struct {
		kind    string
		net     sandbox.Network
		inOrder []string // each after the one before
		never   []string
	}{
		{sandbox.KindCommand, sandbox.NetNone, nil, []string{"(allow network", "(remote ip", "(remote tcp", "mDNSResponder"}},
		{sandbox.KindCommand, sandbox.NetInternet, []string{web, resolver, noLocal}, []string{anywhere, inbound, "(allow network-bind", "(allow network-inbound"}},
		{sandbox.KindCommand, sandbox.NetHost, []string{anywhere, inbound, resolver}, []string{noLocal}},
		{sandbox.KindAppleScript, sandbox.NetNone, []string{"(allow default)", noNetwork, denyBind}, []string{"(allow network"}},
		{sandbox.KindJXA, sandbox.NetNone, []string{"(allow default)", noNetwork, denyBind}, []string{"(allow network"}},
		{sandbox.KindJXA, sandbox.NetInternet, []string{"(allow default)", denyIP, denyBind, web, resolver, noLocal}, []string{anywhere, inbound}},
		{sandbox.KindAppleScript, sandbox.NetHost, []string{"(allow default)"}, []string{denyIP, denyBind, "(deny network"}},
	} {
		name := tc.kind + "/" + tc.net.String()
		p := macProfile(t, tc.kind, sandbox.Grant{Approved: tc.net == sandbox.NetHost, Network: tc.net})
		text, params, err := sandbox.Seatbelt(p)
		if err != nil {
			t.Fatal(err)
		}
		checkText(t, p, text, params)
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
	text, params, err := sandbox.Seatbelt(p)
	if err != nil {
		t.Fatal(err)
	}
	checkText(t, p, text, params)
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
