package bridge_test

import (
	"bufio"
	"context"
	"errors"
	"fmt"
	"os"
	"os/exec"
	"path/filepath"
	"slices"
	"sort"
	"strconv"
	"strings"
	"syscall"
	"testing"
	"time"

	"github.com/airlockhq/airlock/bridge"
	"github.com/airlockhq/airlock/bridge/xtest"
)

// These tests run real zenity dialogs on a private Xvfb display and answer
// them the way a person would: keys and clicks through xdotool.

const (
	lastButtonDX     = xtest.LastButtonDX
	rememberButtonDX = xtest.RememberButtonDX
	buttonDY         = xtest.ButtonDY
)

// startX starts a display for zenity and points this process at it.
func startX(t *testing.T) *xtest.Display {
	t.Helper()
	if testing.Short() {
		t.Skip("runs zenity in Xvfb")
	}
	xtest.Need(t, "zenity")
	d := xtest.Start(t)
	t.Setenv("DISPLAY", d.Name)
	t.Setenv("WAYLAND_DISPLAY", "")
	return d
}

type shown struct {
	a   bridge.PopupAnswer
	err error
}

// showAsync shows p until it is answered, ctx ends or the test ends, so a
// failed test leaves no popup behind for the next one.
func showAsync(t testing.TB, ctx context.Context, p bridge.ApprovalPopup) <-chan shown {
	ctx, cancel := context.WithCancel(ctx)
	t.Cleanup(cancel)
	ch := make(chan shown, 1)
	go func() {
		a, err := bridge.ShowApproval(ctx, p)
		ch <- shown{a, err}
	}()
	return ch
}

func result(t *testing.T, ch <-chan shown) shown {
	t.Helper()
	select {
	case r := <-ch:
		return r
	case <-time.After(20 * time.Second):
		t.Fatal("ShowApproval did not return")
	}
	return shown{}
}

func onePopup(arm time.Duration) bridge.ApprovalPopup {
	return bridge.ApprovalPopup{
		Client:        "cli",
		Tool:          "airlock run",
		Deadline:      time.Now().Add(time.Minute),
		ArmDelay:      arm,
		AllowRemember: true,
		AllowEdit:     true,
		Items: []bridge.PopupItem{{
			Number: 1, Level: "dangerous", Preview: "Write a file: ~/Documents/a.txt",
			Text: `WRITE_FILE "~/Documents/a.txt" "hi"`, Reasons: []string{"writes or overwrites a file"},
		}},
	}
}

func TestPopupOnX(t *testing.T) {
	d := startX(t)
	artifacts := xtest.ArtifactDir(t)
	const wait = 10 * time.Second

	t.Run("Return denies", func(t *testing.T) {
		ch := showAsync(t, context.Background(), onePopup(time.Millisecond))
		id := d.WaitWindow(t, bridge.ApprovalTitle, wait)
		d.Key(t, id, "Return")
		if r := result(t, ch); r.err != nil || r.a.Approve {
			t.Fatalf("Return: %+v, %v; want a denial", r.a, r.err)
		}
	})

	t.Run("Escape denies", func(t *testing.T) {
		ch := showAsync(t, context.Background(), onePopup(time.Millisecond))
		id := d.WaitWindow(t, bridge.ApprovalTitle, wait)
		d.Key(t, id, "Escape")
		if r := result(t, ch); r.err != nil || r.a.Approve {
			t.Fatalf("Escape: %+v, %v; want a denial", r.a, r.err)
		}
	})

	t.Run("an Approve before the arm delay does not count", func(t *testing.T) {
		p := onePopup(bridge.DefaultArmDelay)
		ch := showAsync(t, context.Background(), p)
		first := d.WaitWindow(t, bridge.ApprovalTitle, wait)
		d.Click(t, first, lastButtonDX, buttonDY)
		second := d.WaitWindow(t, bridge.ApprovalTitle, wait, first)
		d.WaitGone(t, bridge.ApprovalTitle, first, wait)
		select {
		case r := <-ch:
			t.Fatalf("an early Approve answered the popup: %+v, %v", r.a, r.err)
		default:
		}
		d.Screenshot(t, filepath.Join(artifacts, "popup-shown-again.png"))
		time.Sleep(p.ArmDelay + 100*time.Millisecond)
		d.Click(t, second, lastButtonDX, buttonDY)
		r := result(t, ch)
		if r.err != nil || !r.a.Approve || !slices.Equal(r.a.Items, []bool{true}) || r.a.Remember {
			t.Fatalf("Approve after the arm delay: %+v, %v", r.a, r.err)
		}
	})

	t.Run("approve and allow again", func(t *testing.T) {
		ch := showAsync(t, context.Background(), onePopup(time.Millisecond))
		id := d.WaitWindow(t, bridge.ApprovalTitle, wait)
		d.Screenshot(t, filepath.Join(artifacts, "popup-approval.png"))
		d.Click(t, id, rememberButtonDX, buttonDY)
		if r := result(t, ch); r.err != nil || !r.a.Approve || !r.a.Remember {
			t.Fatalf("remember: %+v, %v", r.a, r.err)
		}
	})

	t.Run("a destructive item needs its own yes", func(t *testing.T) {
		for _, tc := range []struct {
			name string
			yes  bool
		}{{"skipped with Return", false}, {"confirmed with a click", true}} {
			t.Run(tc.name, func(t *testing.T) {
				p := onePopup(time.Millisecond)
				p.Items = append(p.Items, bridge.PopupItem{
					Number: 2, Level: "destructive", Preview: "Empty the Trash",
					Text: "tell application \"Finder\" to empty trash", Reasons: []string{"cannot be undone"}, Confirm: true,
				})
				ch := showAsync(t, context.Background(), p)
				id := d.WaitWindow(t, bridge.ApprovalTitle, wait)
				d.Click(t, id, lastButtonDX, buttonDY)
				q := d.WaitWindow(t, bridge.ConfirmTitle, wait)
				if tc.yes {
					d.Click(t, q, lastButtonDX, buttonDY)
				} else {
					d.Screenshot(t, filepath.Join(artifacts, "popup-confirm-destructive.png"))
					d.Key(t, q, "Return")
				}
				r := result(t, ch)
				if r.err != nil || !r.a.Approve || !slices.Equal(r.a.Items, []bool{true, tc.yes}) || r.a.Remember {
					t.Fatalf("got %+v, %v; want items [true %v], no remember", r.a, r.err, tc.yes)
				}
			})
		}
	})

	t.Run("a destructive item needs the owner's authentication after its yes", func(t *testing.T) {
		for _, tc := range []struct {
			name string
			auth error
			want bool
			err  bool
		}{
			{"authenticated", nil, true, false},
			{"cancelled", &bridge.OwnerAuthError{Code: -2}, false, false},
			{"failed", &bridge.OwnerAuthError{Code: -1, Message: "wrong password"}, false, false},
			{"impossible here", bridge.ErrNoOwnerAuth, false, true},
		} {
			t.Run(tc.name, func(t *testing.T) {
				var reasons []string
				t.Cleanup(bridge.SetAuthenticateOwner(func(_ context.Context, reason string) error {
					reasons = append(reasons, reason)
					return tc.auth
				}))
				p := onePopup(time.Millisecond)
				p.Items = append(p.Items, bridge.PopupItem{
					Number: 2, Level: "destructive", Preview: "Empty the Trash",
					Text: "tell application \"Finder\" to empty trash", Confirm: true, Authenticate: true,
				})
				ch := showAsync(t, context.Background(), p)
				id := d.WaitWindow(t, bridge.ApprovalTitle, wait)
				d.Click(t, id, lastButtonDX, buttonDY)
				q := d.WaitWindow(t, bridge.ConfirmTitle, wait)
				d.Click(t, q, lastButtonDX, buttonDY)
				r := result(t, ch)
				if tc.err {
					if r.err == nil || r.a.Approve {
						t.Fatalf("got %+v, %v; want a denial with an error", r.a, r.err)
					}
					return
				}
				if r.err != nil || !r.a.Approve || !slices.Equal(r.a.Items, []bool{true, tc.want}) {
					t.Fatalf("got %+v, %v; want items [true %v]", r.a, r.err, tc.want)
				}
				if len(reasons) != 1 || !strings.Contains(reasons[0], "action 2") {
					t.Errorf("authentication asked with %q", reasons)
				}
			})
		}
	})

	t.Run("Edit answers nothing but that the person wants to edit", func(t *testing.T) {
		for _, tc := range []struct {
			name     string
			remember bool
			dx       int
		}{{"beside remember", true, xtest.EditButtonDX}, {"without remember", false, xtest.EditAloneButtonDX}} {
			t.Run(tc.name, func(t *testing.T) {
				p := onePopup(bridge.DefaultArmDelay) // Edit needs no arm delay: it approves nothing
				p.AllowRemember = tc.remember
				ch := showAsync(t, context.Background(), p)
				id := d.WaitWindow(t, bridge.ApprovalTitle, wait)
				if tc.remember {
					d.Screenshot(t, filepath.Join(artifacts, "popup-with-edit.png"))
				}
				d.Click(t, id, tc.dx, buttonDY)
				r := result(t, ch)
				if r.err != nil || !r.a.Edit || r.a.Approve || r.a.Remember || !slices.Equal(r.a.Items, []bool{false}) {
					t.Fatalf("Edit: %+v, %v; want Edit and nothing approved", r.a, r.err)
				}
				d.WaitGone(t, bridge.ApprovalTitle, id, wait)
			})
		}
	})

	t.Run("the editor returns the person's edit", func(t *testing.T) {
		type edited struct {
			text string
			ok   bool
			err  error
		}
		edit := func(p bridge.EditPopup) <-chan edited {
			ctx, cancel := context.WithCancel(context.Background())
			t.Cleanup(cancel)
			ch := make(chan edited, 1)
			go func() {
				text, ok, err := bridge.EditText(ctx, p)
				ch <- edited{text, ok, err}
			}()
			return ch
		}
		get := func(ch <-chan edited) edited {
			t.Helper()
			select {
			case e := <-ch:
				return e
			case <-time.After(20 * time.Second):
				t.Fatal("EditText did not return")
			}
			return edited{}
		}
		plan := "NOTIFY \"a\" \"b\"\n"
		p := bridge.EditPopup{Client: "cli", What: "plan", Text: plan, Deadline: time.Now().Add(time.Minute)}

		ch := edit(p)
		id := d.WaitWindow(t, bridge.EditTitle, wait)
		d.Key(t, id, "ctrl+End")
		d.Type(t, id, "SPEAK \"mine\"")
		d.Screenshot(t, filepath.Join(artifacts, "popup-editor.png"))
		d.Click(t, id, lastButtonDX, buttonDY)
		if e := get(ch); e.err != nil || !e.ok || e.text != plan+"SPEAK \"mine\"" {
			t.Fatalf("Use my edit: %+v", e)
		}
		d.WaitGone(t, bridge.EditTitle, id, wait)

		ch = edit(p)
		id = d.WaitWindow(t, bridge.EditTitle, wait)
		d.Type(t, id, "x")
		d.Key(t, id, "Escape")
		if e := get(ch); e.err != nil || e.ok || e.text != "" {
			t.Fatalf("Escape: %+v; want no edit", e)
		}
		d.WaitGone(t, bridge.EditTitle, id, wait)

		// A hidden character reaches the editor as the person sees it; a
		// CRLF line end as a line end.
		hidden := p
		hidden.Text = "NOTIFY \"a\u202e\" \"b\"\r\nSPEAK \"c\r\""
		ch = edit(hidden)
		id = d.WaitWindow(t, bridge.EditTitle, wait)
		d.Click(t, id, lastButtonDX, buttonDY)
		if e := get(ch); !e.ok || e.text != "NOTIFY \"a⟨U+202E⟩\" \"b\"\nSPEAK \"c⟨U+000D⟩\"" {
			t.Fatalf("a hidden character: %+v", e)
		}
		d.WaitGone(t, bridge.EditTitle, id, wait)

		// An edit that did not parse: its errors first; Return cancels,
		// Edit again opens it.
		bad := p
		bad.Text, bad.Errors = "FOO\n", []string{"line 1: unknown command \"FOO\""}
		ch = edit(bad)
		q := d.WaitWindow(t, bridge.EditErrorsTitle, wait)
		d.Screenshot(t, filepath.Join(artifacts, "popup-edit-errors.png"))
		d.Key(t, q, "Return")
		if e := get(ch); e.err != nil || e.ok {
			t.Fatalf("Return at the errors: %+v; want no edit", e)
		}
		d.WaitGone(t, bridge.EditErrorsTitle, q, wait)
		ch = edit(bad)
		q = d.WaitWindow(t, bridge.EditErrorsTitle, wait)
		d.Click(t, q, lastButtonDX, buttonDY)
		id = d.WaitWindow(t, bridge.EditTitle, wait)
		d.Key(t, id, "ctrl+a")
		d.Type(t, id, "SPEAK \"fixed\"")
		d.Click(t, id, lastButtonDX, buttonDY)
		if e := get(ch); e.err != nil || !e.ok || e.text != "SPEAK \"fixed\"" {
			t.Fatalf("Edit again: %+v", e)
		}
		d.WaitGone(t, bridge.EditTitle, id, wait)

		// The end of ctx closes the editor at once.
		ctx, cancel := context.WithCancel(context.Background())
		done := make(chan error, 1)
		go func() { _, _, err := bridge.EditText(ctx, p); done <- err }()
		id = d.WaitWindow(t, bridge.EditTitle, wait)
		cancel()
		if err := <-done; !errors.Is(err, context.Canceled) {
			t.Fatalf("cancelled: %v", err)
		}
		d.WaitGone(t, bridge.EditTitle, id, 2*time.Second)
	})

	t.Run("ctx ending closes the popup at once", func(t *testing.T) {
		ctx, cancel := context.WithCancel(context.Background())
		ch := showAsync(t, ctx, onePopup(time.Millisecond))
		id := d.WaitWindow(t, bridge.ApprovalTitle, wait)
		cancel()
		r := result(t, ch)
		if !errors.Is(r.err, context.Canceled) || r.a.Approve {
			t.Fatalf("cancelled: %+v, %v; want a denial with context.Canceled", r.a, r.err)
		}
		d.WaitGone(t, bridge.ApprovalTitle, id, 2*time.Second)
	})

	t.Run("the deadline denies and closes it", func(t *testing.T) {
		p := onePopup(time.Millisecond)
		p.Deadline = time.Now().Add(1500 * time.Millisecond)
		ch := showAsync(t, context.Background(), p)
		id := d.WaitWindow(t, bridge.ApprovalTitle, wait)
		r := result(t, ch)
		if r.err != nil || r.a.Approve {
			t.Fatalf("deadline: %+v, %v; want a plain denial", r.a, r.err)
		}
		if time.Now().Before(p.Deadline) {
			t.Fatal("the popup denied before its deadline")
		}
		d.WaitGone(t, bridge.ApprovalTitle, id, 2*time.Second)
	})

	t.Run("Confirm says no by default", func(t *testing.T) {
		for _, key := range []string{"Return", "Escape"} {
			ch := make(chan error, 1)
			var yes bool
			go func() {
				var err error
				yes, err = bridge.Confirm(context.Background(), "Airlock — switch to Level 2?", "Full auto runs dangerous actions without asking.", "Switch")
				ch <- err
			}()
			id := d.WaitWindow(t, "Airlock — switch to Level 2?", wait)
			d.Key(t, id, key)
			if err := <-ch; err != nil || yes {
				t.Fatalf("%s: %v, %v; want no", key, yes, err)
			}
		}
	})

	t.Run("ShowText until closed", func(t *testing.T) {
		for _, end := range []string{"Escape", "cancel"} {
			ctx, cancel := context.WithCancel(context.Background())
			done := make(chan error, 1)
			go func() { done <- bridge.ShowText(ctx, "Airlock — history", "line 1\nline 2 \u202e") }()
			id := d.WaitWindow(t, "Airlock — history", wait)
			select {
			case err := <-done:
				t.Fatalf("ShowText returned while its window was open: %v", err)
			default:
			}
			if end == "Escape" {
				d.Key(t, id, "Escape")
			} else {
				cancel()
			}
			if err := <-done; err != nil {
				t.Errorf("%s: %v", end, err)
			}
			d.WaitGone(t, "Airlock — history", id, wait)
			cancel()
		}
	})

	t.Run("AskText", func(t *testing.T) {
		type reply struct {
			text string
			ok   bool
			err  error
		}
		for _, tc := range []struct {
			keys []string
			want reply
		}{
			{[]string{"t", "i", "d", "y", "Return"}, reply{"tidy", true, nil}},
			{[]string{"t", "Escape"}, reply{"", false, nil}},
		} {
			ch := make(chan reply, 1)
			go func() {
				text, ok, err := bridge.AskText(context.Background(), "Airlock — automate", "What should happen?")
				ch <- reply{text, ok, err}
			}()
			id := d.WaitWindow(t, "Airlock — automate", wait)
			for _, k := range tc.keys {
				d.Key(t, id, k)
			}
			if got := <-ch; got != tc.want {
				t.Fatalf("keys %q: got %+v, want %+v", tc.keys, got, tc.want)
			}
		}
	})
}

// waitSpareReady waits until the spare approval popup has started and
// waits for its text, and returns its pid.
func waitSpareReady(t testing.TB) int {
	t.Helper()
	deadline := time.Now().Add(20 * time.Second)
	for time.Now().Before(deadline) {
		if pid, ready := bridge.SparePopup(); ready {
			return pid
		}
		time.Sleep(5 * time.Millisecond)
	}
	t.Fatal("no spare approval popup got ready")
	return 0
}

// TestSparePopup: the approval popup is started before its request and
// waits unseen; the request's popup is that process, shown within
// milliseconds; a spare that died, or was started for another display, is
// never shown, and a new one is started in its place.
func TestSparePopup(t *testing.T) {
	d := startX(t)
	const wait = 10 * time.Second

	bridge.PrepareApprovalPopup()
	pid := waitSpareReady(t)
	time.Sleep(300 * time.Millisecond) // were it going to show, it would by now
	if ws := d.Windows(t, bridge.ApprovalTitle); len(ws) != 0 {
		t.Fatalf("the spare popup is shown before any request: %+v", ws)
	}
	start := time.Now()
	ch := showAsync(t, context.Background(), onePopup(time.Millisecond))
	w := d.WaitWindow(t, bridge.ApprovalTitle, wait)
	t.Logf("a ready spare was shown %v after ShowApproval", time.Since(start).Round(time.Millisecond))
	if w.PID != pid {
		t.Errorf("the popup is pid %d, not the spare %d", w.PID, pid)
	}
	next := waitSpareReady(t)
	if next == pid {
		t.Fatalf("the spare %d is still the spare while it is shown", pid)
	}
	d.Key(t, w, "Return")
	if r := result(t, ch); r.err != nil || r.a.Approve {
		t.Fatalf("Return: %+v, %v; want a denial", r.a, r.err)
	}

	// Each spoils the ready spare (pid old) its way and returns the display
	// the request's popup must appear on, shown by a fresh zenity.
	for _, tc := range []struct {
		name  string
		spoil func(t *testing.T, old int) *xtest.Display
	}{
		{"a spare killed while it waits is replaced", func(t *testing.T, old int) *xtest.Display {
			if err := syscall.Kill(old, syscall.SIGKILL); err != nil {
				t.Fatal(err)
			}
			return d
		}},
		{"a spare that lost its display connection is replaced", func(t *testing.T, old int) *xtest.Display {
			// Blocked on its pipe, it cannot notice; shown, it would exit
			// at once as if closed, a denial nobody saw.
			d.Disconnect(t, old)
			return d
		}},
		{"a spare whose display server restarted is not used", func(t *testing.T, old int) *xtest.Display {
			d.Restart(t)
			return d
		}},
		{"a spare for another display is not used", func(t *testing.T, old int) *xtest.Display {
			other := xtest.Start(t)
			t.Setenv("DISPLAY", other.Name)
			return other
		}},
	} {
		t.Run(tc.name, func(t *testing.T) {
			old := waitSpareReady(t)
			on := tc.spoil(t, old)
			ch := showAsync(t, context.Background(), onePopup(time.Millisecond))
			w := on.WaitWindow(t, bridge.ApprovalTitle, wait)
			if w.PID == old {
				t.Fatalf("shown by the spoilt spare %d", old)
			}
			if on != d {
				if ws := d.Windows(t, bridge.ApprovalTitle); len(ws) != 0 {
					t.Fatalf("a popup on the display no longer in use: %+v", ws)
				}
				waitGone(t, old, []int{old})
			}
			on.Key(t, w, "Escape")
			if r := result(t, ch); r.err != nil || r.a.Approve {
				t.Fatalf("Escape: %+v, %v; want a plain denial", r.a, r.err)
			}
			on.WaitGone(t, bridge.ApprovalTitle, w, wait)
		})
	}
}

// TestPopupThatCannotReadItsText: a zenity that cannot open its pipe (as a
// confined one might) shows an empty box. Whatever is pressed there never
// approves, and later popups get their text on standard input instead.
func TestPopupThatCannotReadItsText(t *testing.T) {
	d := startX(t)
	t.Cleanup(bridge.ResetSparePopups)
	real, err := exec.LookPath("zenity")
	if err != nil {
		t.Fatal(err)
	}
	// A zenity that is given a file it cannot open instead of the pipe.
	bin := t.TempDir()
	shim := "#!/bin/sh\nfor a; do shift; case $a in --filename=*) a=--filename=/nonexistent/text;; esac; set -- \"$@\" \"$a\"; done\nexec " + real + " \"$@\"\n"
	if err := os.WriteFile(filepath.Join(bin, "zenity"), []byte(shim), 0o755); err != nil {
		t.Fatal(err)
	}
	t.Setenv("PATH", bin+string(os.PathListSeparator)+os.Getenv("PATH"))
	bridge.ResetSparePopups()
	const wait = 10 * time.Second

	// The first popup is started for its request, cannot read it, and
	// shows an empty box: an Approve there, after the arm delay, denies.
	p := onePopup(time.Millisecond)
	ch := showAsync(t, context.Background(), p)
	w := d.WaitWindow(t, bridge.ApprovalTitle, wait)
	d.Click(t, w, lastButtonDX, buttonDY)
	if r := result(t, ch); r.err == nil || r.a.Approve {
		t.Fatalf("Approve in a popup that could not read its request: %+v, %v; want a denial with an error", r.a, r.err)
	} else {
		t.Logf("denied: %v", r.err)
	}
	d.WaitGone(t, bridge.ApprovalTitle, w, wait)
	if pid, _ := bridge.SparePopup(); pid != 0 {
		t.Fatalf("a spare (pid %d) is kept after zenity could not read its pipe", pid)
	}

	// The next popup gets its text on standard input, and approves.
	ch = showAsync(t, context.Background(), p)
	w = d.WaitWindow(t, bridge.ApprovalTitle, wait)
	d.Click(t, w, lastButtonDX, buttonDY)
	if r := result(t, ch); r.err != nil || !r.a.Approve {
		t.Fatalf("Approve with the text on standard input: %+v, %v", r.a, r.err)
	}
}

// With BRIDGE_STANDIN=spare the test binary stands in for Airlock in
// TestSparePopupDiesWithAirlock: it starts a spare popup, prints its pid
// once it is ready, and waits to be killed.
func init() {
	if os.Getenv("BRIDGE_STANDIN") != "spare" {
		return
	}
	bridge.PrepareApprovalPopup()
	for {
		if pid, ready := bridge.SparePopup(); ready {
			fmt.Println(pid)
			break
		}
		time.Sleep(5 * time.Millisecond)
	}
	for {
		time.Sleep(time.Hour)
	}
}

// TestSparePopupDiesWithAirlock: a spare popup never outlives the process
// that started it, however that process ends (here: SIGKILL, which leaves
// no chance to clean up).
func TestSparePopupDiesWithAirlock(t *testing.T) {
	startX(t)
	cmd := exec.Command(osArgs0(), "-test.run=^$")
	cmd.Env = append(os.Environ(), "BRIDGE_STANDIN=spare")
	out, err := cmd.StdoutPipe()
	if err != nil {
		t.Fatal(err)
	}
	if err := cmd.Start(); err != nil {
		t.Fatal(err)
	}
	line, err := bufio.NewReader(out).ReadString('\n')
	pid, perr := strconv.Atoi(strings.TrimSpace(line))
	if err != nil || perr != nil || pid <= 0 {
		cmd.Process.Kill()
		cmd.Wait()
		t.Fatalf("the stand-in did not report its spare: %q, %v", line, err)
	}
	if syscall.Kill(pid, 0) != nil {
		t.Fatalf("spare %d is not running", pid)
	}
	cmd.Process.Kill()
	cmd.Wait()
	waitGone(t, pid, []int{pid})
}

// BenchmarkShowApprovalVisible measures the time from calling ShowApproval
// to its window being mapped on the display (heard from the X server). The
// popup is then cancelled and the spare popup left to get ready, outside the
// timer, as it would while a person reads the popup.
func BenchmarkShowApprovalVisible(b *testing.B) {
	xtest.Need(b, "zenity")
	d := xtest.Start(b)
	b.Setenv("DISPLAY", d.Name)
	b.Setenv("WAYLAND_DISPLAY", "")
	bridge.PrepareApprovalPopup()
	var lat []time.Duration
	for b.Loop() {
		b.StopTimer()
		waitSpareReady(b)
		b.StartTimer()
		ctx, cancel := context.WithCancel(context.Background())
		start := time.Now()
		ch := showAsync(b, ctx, onePopup(time.Millisecond))
		id := d.WaitWindow(b, bridge.ApprovalTitle, 10*time.Second)
		lat = append(lat, time.Since(start))
		b.StopTimer()
		cancel()
		<-ch
		d.WaitGone(b, bridge.ApprovalTitle, id, 5*time.Second)
		b.StartTimer()
	}
	sort.Slice(lat, func(i, j int) bool { return lat[i] < lat[j] })
	b.ReportMetric(float64(lat[len(lat)/2].Microseconds())/1000, "median-ms-to-visible")
}
