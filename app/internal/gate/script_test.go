package gate_test

import (
	"context"
	"errors"
	"reflect"
	"strings"
	"testing"
	"time"

	"github.com/airlockhq/airlock/app/internal/approval"
	"github.com/airlockhq/airlock/app/internal/gate"
	"github.com/airlockhq/airlock/app/internal/policy"
)

func TestScriptsPassTheSameGate(t *testing.T) {
	for _, tc := range []struct {
		name  string
		sub   gate.Submission
		risk  string
		asked bool
		err   error
	}{
		{"read-only AppleScript runs", gate.Submission{Kind: gate.KindAppleScript, Plan: `tell application "Finder" to get name of every window`}, "safe", false, nil},
		{"do shell script is asked", gate.Submission{Kind: gate.KindAppleScript, Plan: `do shell script "ls ~"`}, "dangerous", true, nil},
		{"computed shell is destructive", gate.Submission{Kind: gate.KindAppleScript, Plan: `do shell script (item 1 of argv)`, Argv: []string{"rm -rf ~"}}, "destructive", true, nil},
		{"JXA doShellScript is asked", gate.Submission{Kind: gate.KindJXA, Plan: `var app = Application.currentApplication(); app.includeStandardAdditions = true; app.doShellScript("ls")`}, "dangerous", true, nil},
		{"a harmless command runs", gate.Submission{Kind: gate.KindCommand, Argv: []string{"ls", "-l"}}, "safe", false, nil},
		{"rm -rf is asked", gate.Submission{Kind: gate.KindCommand, Argv: []string{"rm", "-rf", "/tmp/x"}}, "destructive", true, nil},
		{"a command as text is refused", gate.Submission{Kind: gate.KindCommand, Plan: "rm -rf ~"}, "blocked", false, gate.ErrBlocked},
		{"an unknown kind is refused", gate.Submission{Kind: "perl", Plan: "print 1"}, "blocked", false, gate.ErrBlocked},
	} {
		t.Run(tc.name, func(t *testing.T) {
			r := newRig(t, 1, approveAll)
			tc.sub.Client = "t"
			rep, err := r.g.Submit(context.Background(), tc.sub, nil)
			if !errors.Is(err, tc.err) {
				t.Fatalf("err = %v, want %v", err, tc.err)
			}
			if rep.Risk != tc.risk || (r.ask.count() > 0) != tc.asked {
				t.Fatalf("risk %s, asked %v; want %s, %v (%+v)", rep.Risk, r.ask.count() > 0, tc.risk, tc.asked, rep)
			}
			if tc.err == nil && !reflect.DeepEqual(r.exec.names(), []string{tc.sub.Kind}) {
				t.Fatalf("ran %v", r.exec.names())
			}
			if tc.asked && len(tc.sub.Argv) > 0 && !strings.Contains(r.ask.asked[0].Items[0].Text, tc.sub.Argv[0]) {
				t.Errorf("the prompt does not show the arguments: %q", r.ask.asked[0].Items[0].Text)
			}
		})
	}
}

// frontmost returns the apps in turn, then the last one forever.
type frontmost struct{ apps []policy.App }

func (f *frontmost) Frontmost(context.Context) (policy.App, error) {
	a := f.apps[0]
	if len(f.apps) > 1 {
		f.apps = f.apps[1:]
	}
	return a, nil
}

// Seed 003's context lock: input synthesised for one app is refused when
// another has come to the front since the work began.
func TestContextLockGuardsSynthesisedInput(t *testing.T) {
	notes := policy.App{BundleID: "com.apple.Notes", PID: 10}
	term := policy.App{BundleID: "com.apple.Terminal", PID: 20}
	typing := gate.Submission{Client: "t", Kind: gate.KindAppleScript, Plan: `tell application "System Events" to keystroke "hello"`}
	for _, tc := range []struct {
		name string
		apps []policy.App
		want error
	}{
		{"same app", []policy.App{notes, notes}, nil},
		{"another app came to the front", []policy.App{notes, term}, policy.ErrContextChanged},
	} {
		t.Run(tc.name, func(t *testing.T) {
			env, _ := sandbox(t)
			ex := &fakeExec{}
			g := gate.New(gate.Config{Env: env, Exec: ex, History: &memHistory{}, Autonomy: 1,
				Approver: &answerer{answer: approveAll}, Frontmost: &frontmost{apps: tc.apps}})
			_, err := g.Submit(context.Background(), typing, nil)
			if !errors.Is(err, tc.want) {
				t.Fatalf("err = %v, want %v", err, tc.want)
			}
			if ran := len(ex.names()) > 0; ran != (tc.want == nil) {
				t.Fatalf("ran = %v", ran)
			}
		})
	}
}

// An approval is never on screen while an action that types or clicks runs,
// so no script can click Approve on the gate's own popup: such an action is
// refused while an approval is pending, and an approval waits until such an
// action has finished.
func TestSynthesisedInputNeverMeetsAnApproval(t *testing.T) {
	// (A click aimed at Airlock's own process is blocked outright by the
	// analyzers; this one aims at the Linux popup's.)
	click := gate.Submission{Client: "agent", Kind: gate.KindAppleScript,
		Plan: `tell application "System Events" to tell process "zenity" to click button "Approve" of window 1`}

	// An approval is pending: the click is refused, not run.
	release := make(chan struct{})
	asked := make(chan struct{}, 1)
	r := newRig(t, 1, func(ctx context.Context, req approval.Request) (approval.Answer, error) {
		asked <- struct{}{}
		<-release
		return denyAll(ctx, req)
	})
	done := make(chan error, 1)
	go func() {
		_, err := r.g.Submit(context.Background(), gate.Submission{Client: "agent", Plan: dangerousPlan}, nil)
		done <- err
	}()
	<-asked
	if _, err := r.g.Submit(context.Background(), click, nil); !errors.Is(err, gate.ErrApprovalOnScreen) {
		t.Fatalf("a click while an approval is pending: %v, want ErrApprovalOnScreen", err)
	}
	if ran := r.exec.names(); len(ran) != 0 {
		t.Fatalf("ran %v", ran)
	}
	close(release)
	<-done

	// A click is running: the next approval waits until it has finished.
	r = newRig(t, 1, func(ctx context.Context, req approval.Request) (approval.Answer, error) {
		asked <- struct{}{}
		return denyAll(ctx, req)
	})
	clicking, finish := make(chan struct{}), make(chan struct{})
	r.exec.script = func(ctx context.Context) {
		close(clicking)
		<-finish
	}
	go r.g.Submit(context.Background(), click, nil)
	<-clicking
	go r.g.Submit(context.Background(), gate.Submission{Client: "agent", Plan: dangerousPlan}, nil)
	select {
	case <-asked:
		t.Fatal("an approval was asked while a click was running")
	case <-time.After(50 * time.Millisecond):
	}
	close(finish)
	select {
	case <-asked:
	case <-time.After(5 * time.Second):
		t.Fatal("the approval was never asked after the click finished")
	}
}
