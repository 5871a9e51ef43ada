package execute_test

import (
	"context"
	"errors"
	"fmt"
	"strings"
	"sync"
	"testing"
	"time"

	"github.com/airlockhq/airlock/app/internal/action"
	"github.com/airlockhq/airlock/app/internal/execute"
	"github.com/airlockhq/airlock/app/internal/sanitize"
	"github.com/airlockhq/airlock/bridge"
)

func TestUnavailable(t *testing.T) {
	d := execute.Unavailable()
	ctx := context.Background()
	now := time.Now()
	calls := map[string]func() error{
		"FileHandler":    func() error { _, err := d.FileHandler("/x", ""); return err },
		"Reveal":         func() error { return d.Reveal(ctx, "/x") },
		"URLHandler":     func() error { _, err := d.URLHandler("https://example.com"); return err },
		"SetClipboard":   func() error { return d.SetClipboard(ctx, "x") },
		"Launch":         func() error { _, err := d.Launch(ctx, bridge.Handler{}, "/x"); return err },
		"QuitApp":        func() error { return d.QuitApp(ctx, "Safari") },
		"ActivateApp":    func() error { return d.ActivateApp(ctx, "Safari") },
		"Notify":         func() error { return d.Notify(ctx, "t", "m", "") },
		"Speak":          func() error { return d.Speak(ctx, "x") },
		"RunAppleScript": func() error { _, err := d.RunAppleScript(ctx, "beep", nil, nil); return err },
		"RunJXA":         func() error { _, err := d.RunJXA(ctx, "1", nil, nil); return err },
		"SetVolume":      func() error { return d.SetVolume(ctx, 50) },
		"DoNotDisturb":   func() error { return d.DoNotDisturb(ctx, true) },
		"RunShortcut":    func() error { _, err := d.RunShortcut(ctx, "s", ""); return err },
		"CreateEvent":    func() error { return d.CreateEvent(ctx, "e", now, now) },
		"CreateReminder": func() error { return d.CreateReminder(ctx, "r", nil) },
		"SendEmail":      func() error { return d.SendEmail(ctx, []string{"a@example.com"}, "s", "b") },
		"Trash":          func() error { return d.Trash(ctx, "/x") },
	}
	seen := map[string]string{}
	for name, call := range calls {
		err := call()
		var ue *execute.UnavailableError
		if !errors.Is(err, execute.ErrUnavailable) || !errors.As(err, &ue) || ue.Action == "" {
			t.Errorf("%s: %v, want an *UnavailableError naming the action", name, err)
			continue
		}
		if !strings.HasSuffix(err.Error(), "not available on this platform") {
			t.Errorf("%s: %q", name, err)
		}
		if other, dup := seen[ue.Action]; dup {
			t.Errorf("%s and %s both say %q", name, other, ue.Action)
		}
		seen[ue.Action] = name
	}
}

// recorder is a Desktop that records its calls. It resolves every file to
// handlers (by app name; "" for the default app) and every URL to web;
// unknown names resolve to an app nobody knows.
type recorder struct {
	mu       sync.Mutex
	calls    []string
	handlers map[string]bridge.Handler // app name ("" default) → handler; nil: viewers
}

// viewers are the recorder's handlers by default: Linux viewers, as the
// executor's platform rates them (facts.Viewers), and a system app.
var viewers = map[string]bridge.Handler{
	"":         {ID: "org.gnome.Evince", Name: "Document Viewer", Program: "/usr/bin/evince"},
	"TextEdit": {ID: "org.gnome.gedit", Name: "Text Editor", Program: "/usr/bin/gedit"},
	"web":      {ID: "chromium", Name: "Chromium", Program: "/usr/bin/chromium"},
	"Terminal": {ID: "org.gnome.Terminal", Name: "Terminal", Program: "/usr/bin/gnome-terminal"},
}

func (r *recorder) FileHandler(p, app string) (bridge.Handler, error) {
	hs := r.handlers
	if hs == nil {
		hs = viewers
	}
	if h, ok := hs[app]; ok {
		return h, nil
	}
	return bridge.Handler{ID: strings.ToLower(app), Name: app, Program: "/usr/bin/" + strings.ToLower(app)}, nil
}

func (r *recorder) URLHandler(u string) (bridge.Handler, error) { return r.FileHandler("", "web") }

func (r *recorder) Launch(_ context.Context, h bridge.Handler, target string) (bridge.Launched, error) {
	return bridge.Launched{Program: h.Program, PID: 42}, r.rec("Launch %s %s", h.ID, target)
}

func (r *recorder) rec(format string, a ...any) error {
	r.mu.Lock()
	defer r.mu.Unlock()
	r.calls = append(r.calls, fmt.Sprintf(format, a...))
	return nil
}

func (r *recorder) Reveal(_ context.Context, p string) error { return r.rec("Reveal %s", p) }
func (r *recorder) SetClipboard(_ context.Context, s string) error {
	return r.rec("SetClipboard %q", s)
}
func (r *recorder) QuitApp(_ context.Context, a string) error     { return r.rec("QuitApp %s", a) }
func (r *recorder) ActivateApp(_ context.Context, a string) error { return r.rec("ActivateApp %s", a) }
func (r *recorder) Notify(_ context.Context, t, m, s string) error {
	return r.rec("Notify %q %q %q", t, m, s)
}
func (r *recorder) Speak(_ context.Context, s string) error      { return r.rec("Speak %q", s) }
func (r *recorder) SetVolume(_ context.Context, n int) error     { return r.rec("SetVolume %d", n) }
func (r *recorder) DoNotDisturb(_ context.Context, b bool) error { return r.rec("DoNotDisturb %v", b) }
func (r *recorder) RunShortcut(_ context.Context, n, in string) (string, error) {
	return "output of " + n, r.rec("RunShortcut %q %q", n, in)
}
func (r *recorder) CreateEvent(_ context.Context, title string, s, e time.Time) error {
	return r.rec("CreateEvent %q %s %s", title, s.Format(time.DateTime), e.Format(time.DateTime))
}
func (r *recorder) CreateReminder(_ context.Context, title string, due *time.Time) error {
	if due == nil {
		return r.rec("CreateReminder %q none", title)
	}
	return r.rec("CreateReminder %q %s", title, due.Format(time.DateTime))
}
func (r *recorder) SendEmail(_ context.Context, to []string, s, b string) error {
	return r.rec("SendEmail %q %q %q", to, s, b)
}
func (r *recorder) Trash(_ context.Context, p string) error { return r.rec("Trash %s", p) }
func (r *recorder) RunAppleScript(_ context.Context, src string, argv []string, _ execute.Confine) (string, error) {
	return "", r.rec("RunAppleScript %q %q", src, argv)
}
func (r *recorder) RunJXA(_ context.Context, src string, argv []string, _ execute.Confine) (string, error) {
	return "", r.rec("RunJXA %q %q", src, argv)
}

func TestDesktopActions(t *testing.T) {
	tests := []struct {
		src     string
		want    string // the call; HOME stands for the fake home
		wantOut string
	}{
		{`OPEN_FILE "~/Documents/a.txt"`, `Launch org.gnome.Evince HOME/Documents/a.txt`, "opened ~/Documents/a.txt with Document Viewer: /usr/bin/evince (pid 42)"},
		{`OPEN_FILE "~/Documents/a.txt" "TextEdit"`, `Launch org.gnome.gedit HOME/Documents/a.txt`, "opened ~/Documents/a.txt with Text Editor: /usr/bin/gedit (pid 42)"},
		{`REVEAL_IN_FINDER "~/Documents/a.txt"`, `Reveal HOME/Documents/a.txt`, ""},
		{`OPEN_URL "https://example.com/?q=$(id)"`, `Launch chromium https://example.com/?q=$(id)`, "opened https://example.com/?q=$(id) with Chromium: /usr/bin/chromium (pid 42)"},
		{`COPY_TO_CLIPBOARD "line\nnext"`, `SetClipboard "line\nnext"`, ""},
		{`OPEN_APP "Safari"`, `Launch safari `, "opened Safari: /usr/bin/safari (pid 42)"},
		{`QUIT_APP "Safari"`, `QuitApp Safari`, ""},
		{`ACTIVATE_APP "Safari"`, `ActivateApp Safari`, ""},
		{`NOTIFY "Airlock" "Done"`, `Notify "Airlock" "Done" ""`, ""},
		{`NOTIFY "Airlock" "Done" "Glass"`, `Notify "Airlock" "Done" "Glass"`, ""},
		{`SPEAK "hello"`, `Speak "hello"`, ""},
		{`SET_VOLUME 40`, `SetVolume 40`, ""},
		{`DO_NOT_DISTURB on`, `DoNotDisturb true`, ""},
		{`DO_NOT_DISTURB OFF`, `DoNotDisturb false`, ""},
		{`RUN_SHORTCUT "Tidy" "input"`, `RunShortcut "Tidy" "input"`, "output of Tidy"},
		{`RUN_SHORTCUT "Tidy"`, `RunShortcut "Tidy" ""`, "output of Tidy"},
		{`CREATE_EVENT "Standup" "2030-01-28 09:00" "2030-01-28T09:15:30"`, `CreateEvent "Standup" 2030-01-28 09:00:00 2030-01-28 09:15:30`, ""},
		{`CREATE_REMINDER "Call"`, `CreateReminder "Call" none`, ""},
		{`CREATE_REMINDER "Call" "2030-02-01 17:00"`, `CreateReminder "Call" 2030-02-01 17:00:00`, ""},
		{`SEND_EMAIL "a@example.com,b@example.org" "Hi" "Body"`, `SendEmail ["a@example.com" "b@example.org"] "Hi" "Body"`, ""},
	}
	for _, tt := range tests {
		t.Run(tt.src, func(t *testing.T) {
			s := newSandbox(t)
			s.write(t, "Documents/a.txt", "a")
			r := &recorder{}
			s.ex.Desktop = r
			res, err := s.run(t, tt.src)
			if err != nil {
				t.Fatal(err)
			}
			want := strings.ReplaceAll(tt.want, "HOME", s.home)
			if len(r.calls) != 1 || r.calls[0] != want {
				t.Fatalf("calls %q, want [%q]", r.calls, want)
			}
			if res.Output != tt.wantOut || res.Trashed != nil {
				t.Fatalf("result %+v, want output %q", res, tt.wantOut)
			}
		})
	}
}

// Text is sanitised again before it reaches the Desktop: control characters
// are stripped.
func TestDesktopTextSanitised(t *testing.T) {
	s := newSandbox(t)
	r := &recorder{}
	s.ex.Desktop = r
	if _, err := s.ex.Run(context.Background(), act(t, "SPEAK", "a\x07b\x1bc\u0085")); err != nil {
		t.Fatal(err)
	}
	if len(r.calls) != 1 || r.calls[0] != `Speak "abc"` {
		t.Fatalf("calls %q", r.calls)
	}
}

// With no Desktop, and for refused arguments, nothing reaches the Desktop.
func TestDesktopRefusals(t *testing.T) {
	tests := []struct {
		name    string
		a       func(t *testing.T, s *sandbox) action.Action
		nilDesk bool
		wantIs  error // nil: any error
	}{
		{"no desktop", parsed(`NOTIFY "Airlock" "Done"`), true, execute.ErrUnavailable},
		{"no desktop for a shortcut", parsed(`RUN_SHORTCUT "Tidy"`), true, execute.ErrUnavailable},
		{"open outside the sandbox", parsed(`OPEN_FILE "/etc/passwd"`), false, sanitize.ErrBlocked},
		{"reveal a credential", parsed(`REVEAL_IN_FINDER "~/.ssh"`), false, sanitize.ErrBlocked},
		{"file URL outside the sandbox", parsed(`OPEN_URL "file:///etc/passwd"`), false, sanitize.ErrBlocked},
		{"URL without a scheme", unparsed("OPEN_URL", "example.com"), false, sanitize.ErrBlocked},
		{"app with an invisible character", unparsed("OPEN_APP", "Saf\u200bari"), false, sanitize.ErrBlocked},
		{"recipient with a newline", unparsed("SEND_EMAIL", "a@example.com,b\n@example.com", "s", "b"), false, sanitize.ErrBlocked},
		{"recipient with a display name", unparsed("SEND_EMAIL", "Bob <b@example.com>", "s", "b"), false, nil},
		{"no recipient", unparsed("SEND_EMAIL", " , ", "s", "b"), false, nil},
		{"volume out of range", unparsed("SET_VOLUME", "101"), false, nil},
		{"bad state", unparsed("DO_NOT_DISTURB", "MAYBE"), false, nil},
		{"bad date", unparsed("CREATE_REMINDER", "r", "tomorrow"), false, nil},
		{"event ends before it starts", unparsed("CREATE_EVENT", "e", "2030-01-02 10:00", "2030-01-02 09:00"), false, nil},
		{"missing argument", unparsed("SPEAK"), false, nil},
		{"unknown command", func(t *testing.T, s *sandbox) action.Action {
			return action.Action{Cmd: &action.Command{Name: "FORMAT_DISK"}}
		}, false, nil},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			s := newSandbox(t)
			r := &recorder{}
			if !tt.nilDesk {
				s.ex.Desktop = r
			}
			_, err := s.ex.Run(context.Background(), tt.a(t, s))
			if err == nil || (tt.wantIs != nil && !errors.Is(err, tt.wantIs)) {
				t.Fatalf("Run: %v, want an error (wrapping %v)", err, tt.wantIs)
			}
			if len(r.calls) != 0 {
				t.Fatalf("the Desktop was called: %q", r.calls)
			}
		})
	}
}

// unparsed makes an action without the parser, for values it would refuse.
func unparsed(name string, args ...string) func(t *testing.T, s *sandbox) action.Action {
	return func(t *testing.T, s *sandbox) action.Action { return act(t, name, args...) }
}

// act makes an action without the parser, for values it would refuse.
func act(t *testing.T, name string, args ...string) action.Action {
	t.Helper()
	cmd, ok := action.Lookup(name)
	if !ok {
		t.Fatalf("no command %s", name)
	}
	return action.Action{Cmd: cmd, Args: args}
}

// The allowed apps are checked again here: an app they do not list never
// reaches the Desktop, whatever the gate decided.
func TestDesktopAllowedApps(t *testing.T) {
	for _, tc := range []struct {
		src     string
		allowed bool
	}{
		{`OPEN_APP "Safari"`, true},
		{`OPEN_APP "safari.app"`, true},
		{`OPEN_APP "Terminal"`, false},
		{`QUIT_APP "Terminal"`, false},
		{`ACTIVATE_APP "Terminal.app"`, false},
		{`OPEN_FILE "~/Documents/a.txt" "Terminal"`, false},
		{`OPEN_FILE "~/Documents/a.txt"`, true},
	} {
		t.Run(tc.src, func(t *testing.T) {
			s := newSandbox(t)
			s.write(t, "Documents/a.txt", "a")
			paths, err := s.ex.Paths.WithApps([]string{"Safari"})
			if err != nil {
				t.Fatal(err)
			}
			s.ex.Paths = paths
			r := &recorder{}
			s.ex.Desktop = r
			_, err = s.run(t, tc.src)
			if tc.allowed {
				if err != nil || len(r.calls) != 1 {
					t.Fatalf("Run: %v, calls %q; want one call", err, r.calls)
				}
				return
			}
			if !errors.Is(err, sanitize.ErrBlocked) || !strings.Contains(err.Error(), "allowedApps") || len(r.calls) != 0 {
				t.Fatalf("Run: %v, calls %q; want it blocked by allowedApps, no call", err, r.calls)
			}
		})
	}
}
