package approval_test

import (
	"context"
	"errors"
	"testing"

	"github.com/airlockhq/airlock/app/internal/approval"
	"github.com/airlockhq/airlock/app/internal/level"
)

func editable(text string) approval.Request {
	r := request(item(1, level.Dangerous, text))
	r.Edit = &approval.Edit{Kind: "dsl", Text: text}
	return r
}

// An edit resolves the request once, as "edited", with the person's text and
// who edited it; nothing of the request may run.
func TestEditedAnswer(t *testing.T) {
	p := approval.Scripted(approval.Answer{Outcome: approval.Edited, Text: "NOTIFY \"a\" \"b\"\n", By: "the person, in a test popup",
		Items: []bool{true}, Remember: true})
	b := approval.NewBroker(p, approval.Options{Now: fixedNow})
	events, stop := b.Subscribe(8)
	defer stop()
	a, err := b.Ask(context.Background(), editable(`WRITE_FILE "~/Documents/a.txt" "hi"`))
	if err != nil || a.Outcome != approval.Edited || a.Text != "NOTIFY \"a\" \"b\"\n" || a.By != "the person, in a test popup" {
		t.Fatalf("Ask = %+v, %v", a, err)
	}
	if len(a.Items) != 1 || a.Items[0] || a.Remember {
		t.Errorf("an edited request lets items run: %+v", a)
	}
	awaiting(t, events)
	if e := <-events; e.Type != approval.EventEdited {
		t.Errorf("event %+v, want %s", e, approval.EventEdited)
	}
}

// An edit counts only for a request that offered one, from a prompter that
// showed it; and nothing but the prompter can give one (Resolve cannot).
func TestEditedRefused(t *testing.T) {
	edit := approval.Answer{Outcome: approval.Edited, Text: "NOTIFY \"a\" \"b\"", By: "x"}
	for _, tc := range []struct {
		name string
		r    approval.Request
		p    approval.Prompter
	}{
		{"a request that offered no edit", request(), approval.Scripted(edit)},
		{"a request never shown", editable("x"), prompterFunc(func(context.Context, approval.Request, approval.ShownFunc) (approval.Answer, error) {
			return edit, nil
		})},
		{"an edit that comes with an error", editable("x"), approval.ScriptedFunc(func(context.Context, approval.Request) (approval.Answer, error) {
			return edit, errors.New("the editor failed")
		})},
	} {
		t.Run(tc.name, func(t *testing.T) {
			b := approval.NewBroker(tc.p, approval.Options{})
			a, err := b.Ask(context.Background(), tc.r)
			if a.Outcome != approval.Denied || a.Text != "" || !errors.Is(err, approval.ErrDenied) {
				t.Fatalf("Ask = %+v, %v; want a denial without the text", a, err)
			}
		})
	}

	held := make(chan struct{})
	b := approval.NewBroker(prompterFunc(func(ctx context.Context, _ approval.Request, shown approval.ShownFunc) (approval.Answer, error) {
		shown()
		close(held)
		<-ctx.Done()
		return approval.Answer{}, ctx.Err()
	}), approval.Options{})
	r := editable("x")
	r.ID = "held"
	done := make(chan approval.Answer, 1)
	go func() { a, _ := b.Ask(context.Background(), r); done <- a }()
	<-held
	if err := b.Resolve("held", edit); err == nil {
		t.Error("Resolve took an edit")
	}
	if err := b.Resolve("held", approval.Answer{Outcome: approval.Denied}); err != nil {
		t.Fatal(err)
	}
	if a := <-done; a.Outcome != approval.Denied {
		t.Fatalf("resolved as %+v", a)
	}
}

// A request may offer only an edit when the person's last edit was refused:
// the prompter shows why and the person may edit again or cancel. With
// nothing to offer, it is refused; an approval of it runs nothing.
func TestEditOnlyRequest(t *testing.T) {
	b := approval.NewBroker(approval.Scripted(approval.Answer{Outcome: approval.Approved}), approval.Options{})
	if _, err := b.Ask(context.Background(), approval.Request{Client: "c", Edit: &approval.Edit{Kind: "dsl", Text: "x"}}); err == nil {
		t.Error("a request with no items and no errors was asked")
	}
	again := approval.Request{Client: "c", Edit: &approval.Edit{Kind: "dsl", Text: "FOO", Errors: []string{"line 1: unknown command FOO"}}}
	a, err := b.Ask(context.Background(), again)
	if a.Outcome != approval.Denied || err == nil {
		t.Errorf("an approval of an edit-only request: %+v, %v; want a denial", a, err)
	}
	b = approval.NewBroker(approval.Scripted(approval.Answer{Outcome: approval.Edited, Text: "NOTIFY \"a\" \"b\"", By: "p"}), approval.Options{})
	a, err = b.Ask(context.Background(), again)
	if err != nil || a.Outcome != approval.Edited || a.Text != "NOTIFY \"a\" \"b\"" {
		t.Errorf("edited again: %+v, %v", a, err)
	}
}

func TestTerminalCannotEdit(t *testing.T) {
	_, term := newScreen(t)
	a, err := term.Prompt(context.Background(), approval.Request{Client: "c", Edit: &approval.Edit{Text: "x", Errors: []string{"line 1: no"}}}, shownAt(t0))
	if a.Outcome != approval.Denied || err == nil {
		t.Fatalf("Prompt = %+v, %v; want a denial", a, err)
	}
}
