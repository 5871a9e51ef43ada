package gate_test

import (
	"context"
	"errors"
	"reflect"
	"strings"
	"testing"

	"github.com/airlockhq/airlock/app/internal/gate"
	"github.com/airlockhq/airlock/app/internal/policy"
	ossandbox "github.com/airlockhq/airlock/app/internal/sandbox"
)

// fakeSandbox is an OS sandbox that is there or not.
type fakeSandbox struct{ err error }

func (f fakeSandbox) Available() error { return f.err }
func (f fakeSandbox) String() string {
	if f.err != nil {
		return "unavailable: " + f.err.Error()
	}
	return "confined"
}

// TestSandboxGrant: the executor hears whether the person approved the
// script, and the UI is granted only to an approved one that types or
// clicks, never to one that ran unasked (Level 2); the network only to one
// whose verdict says it uses it: the web's ports unasked, the host's
// network approved.
func TestSandboxGrant(t *testing.T) {
	typing := []string{"xdotool", "type", "hello"}
	fetching := []string{"curl", "-fsS", "https://example.com/"}
	for _, tc := range []struct {
		name     string
		autonomy policy.Autonomy
		argv     []string
		want     ossandbox.Grant
	}{
		{"auto-run, no UI", 1, []string{"ls", "-l"}, ossandbox.Grant{}},
		{"approved, no UI", 1, []string{"rm", "/tmp/x"}, ossandbox.Grant{Approved: true}},
		{"approved, types", 1, typing, ossandbox.Grant{Approved: true, UI: true}},
		{"types, auto-run at Level 2", 2, typing, ossandbox.Grant{}},
		{"fetches, auto-run", 1, fetching, ossandbox.Grant{Network: ossandbox.NetInternet}},
		{"fetches, approved at Level 0", 0, fetching, ossandbox.Grant{Approved: true, Network: ossandbox.NetHost}},
		{"connects, approved", 1, []string{"ssh", "build.example.com", "uptime"}, ossandbox.Grant{Approved: true, Network: ossandbox.NetHost}},
		{"connects, auto-run at Level 2", 2, []string{"ssh", "build.example.com", "uptime"}, ossandbox.Grant{Network: ossandbox.NetInternet}},
	} {
		t.Run(tc.name, func(t *testing.T) {
			r := newRig(t, tc.autonomy, approveAll, func(c *gate.Config) { c.Sandbox = fakeSandbox{} })
			if _, err := r.g.Submit(context.Background(), gate.Submission{Client: "t", Kind: gate.KindCommand, Argv: tc.argv}, nil); err != nil {
				t.Fatal(err)
			}
			if len(r.exec.grants) != 1 || !reflect.DeepEqual(r.exec.grants[0], tc.want) {
				t.Fatalf("grants %+v, want %+v", r.exec.grants, tc.want)
			}
		})
	}
}

// TestSandboxReveal: an approved command sees the hidden files it names
// (issue 22); one that runs unasked, even at Level 2, sees none.
func TestSandboxReveal(t *testing.T) {
	for _, tc := range []struct {
		name     string
		autonomy policy.Autonomy
		reveal   bool
	}{
		{"approved", 1, true},
		{"auto-run at Level 2", 2, false},
	} {
		t.Run(tc.name, func(t *testing.T) {
			r := newRig(t, tc.autonomy, approveAll, func(c *gate.Config) { c.Sandbox = fakeSandbox{} })
			secret := r.home + "/.config/stripe/config.toml"
			if _, err := r.g.Submit(context.Background(), gate.Submission{Client: "t", Kind: gate.KindCommand, Argv: []string{"cat", secret}}, nil); err != nil {
				t.Fatal(err)
			}
			if len(r.exec.grants) != 1 {
				t.Fatalf("grants %+v", r.exec.grants)
			}
			var want []string
			if tc.reveal {
				want = []string{secret}
			}
			if got := r.exec.grants[0]; !reflect.DeepEqual(got.Reveal, want) || got.Approved != tc.reveal {
				t.Errorf("grant %+v, want Reveal %q", got, want)
			}
		})
	}
}

// TestUnconfinedNeverRunsUnasked: where the OS sandbox is not available,
// commands and scripts that would run unasked are asked about, saying why;
// with nobody to ask they are refused. Plans of the Action DSL, which run
// in Airlock's own code, are decided as before.
func TestUnconfinedNeverRunsUnasked(t *testing.T) {
	missing := fakeSandbox{errors.New("the kernel has no Landlock")}
	r := newRig(t, 1, approveAll, func(c *gate.Config) { c.Sandbox = missing })
	rep, err := r.g.Submit(context.Background(), gate.Submission{Client: "t", Kind: gate.KindCommand, Argv: []string{"ls", "-l"}}, nil)
	if err != nil {
		t.Fatal(err)
	}
	if r.ask.count() != 1 || rep.Actions[0].Decision != policy.Ask.String() {
		t.Fatalf("a safe command ran unasked without the sandbox: %+v", rep)
	}
	if reasons := strings.Join(r.ask.asked[0].Items[0].Reasons, "; "); !strings.Contains(reasons, "without the OS sandbox (the kernel has no Landlock)") {
		t.Errorf("the prompt does not say why it asks: %q", reasons)
	}
	if len(r.exec.grants) != 1 || !r.exec.grants[0].Approved {
		t.Errorf("the executor was not told it was approved: %+v", r.exec.grants)
	}

	alone := newRig(t, 2, nil, func(c *gate.Config) { c.Sandbox = missing })
	_, err = alone.g.Submit(context.Background(), gate.Submission{Client: "t", Kind: gate.KindJXA, Plan: "1"}, nil)
	if !errors.Is(err, gate.ErrApprovalRequired) || len(alone.exec.names()) != 0 {
		t.Fatalf("with nobody to ask: %v, ran %v", err, alone.exec.names())
	}

	plan := newRig(t, 1, approveAll, func(c *gate.Config) { c.Sandbox = missing })
	if _, err := plan.g.Submit(context.Background(), gate.Submission{Client: "t", Plan: `NOTIFY "a" "b"`}, nil); err != nil || plan.ask.count() != 0 {
		t.Fatalf("a DSL plan: %v, asked %d times", err, plan.ask.count())
	}

	there := newRig(t, 1, approveAll, func(c *gate.Config) { c.Sandbox = fakeSandbox{} })
	if _, err := there.g.Submit(context.Background(), gate.Submission{Client: "t", Kind: gate.KindCommand, Argv: []string{"ls", "-l"}}, nil); err != nil || there.ask.count() != 0 {
		t.Fatalf("with the sandbox: %v, asked %d times", err, there.ask.count())
	}
	if got := there.g.Status().Sandbox; got != "confined" {
		t.Errorf("Status().Sandbox = %q", got)
	}
}
