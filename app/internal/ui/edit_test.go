package ui_test

import (
	"context"
	"errors"
	"sync"
	"testing"
	"time"

	"github.com/airlockhq/airlock/app/internal/approval"
	"github.com/airlockhq/airlock/app/internal/level"
	"github.com/airlockhq/airlock/app/internal/ui"
	"github.com/airlockhq/airlock/bridge"
)

// script is a fake popup and editor: each shows its next answer and records
// what it was shown.
type script struct {
	mu      sync.Mutex
	answers []bridge.PopupAnswer
	edits   []editAnswer
	popups  []bridge.ApprovalPopup
	editors []bridge.EditPopup
}

type editAnswer struct {
	text string
	ok   bool
	err  error
}

func (s *script) show(_ context.Context, p bridge.ApprovalPopup) (bridge.PopupAnswer, error) {
	s.mu.Lock()
	defer s.mu.Unlock()
	s.popups = append(s.popups, p)
	if len(s.answers) == 0 {
		return bridge.PopupAnswer{}, errors.New("no more answers")
	}
	a := s.answers[0]
	s.answers = s.answers[1:]
	return a, nil
}

func (s *script) edit(_ context.Context, p bridge.EditPopup) (string, bool, error) {
	s.mu.Lock()
	defer s.mu.Unlock()
	s.editors = append(s.editors, p)
	if len(s.edits) == 0 {
		return "", false, errors.New("no more edits")
	}
	e := s.edits[0]
	s.edits = s.edits[1:]
	return e.text, e.ok, e.err
}

func editableRequest() approval.Request {
	r := request(level.Dangerous)
	r.Edit = &approval.Edit{Kind: "dsl", Text: "TEXT dangerous"}
	return r
}

func TestPopupEdit(t *testing.T) {
	editChoice := bridge.PopupAnswer{Edit: true, Items: []bool{false}}
	approve := bridge.PopupAnswer{Approve: true, Items: []bool{true}}
	for _, tc := range []struct {
		name    string
		req     approval.Request
		answers []bridge.PopupAnswer
		edits   []editAnswer
		want    approval.Answer
		wantErr bool
		popups  int
	}{
		{"edit and use it", editableRequest(), []bridge.PopupAnswer{editChoice}, []editAnswer{{"NOTIFY \"a\" \"b\"", true, nil}},
			approval.Answer{Outcome: approval.Edited, Text: "NOTIFY \"a\" \"b\"", By: "the person, in a test popup"}, false, 1},
		{"edit, cancel, then approve the request as it was", editableRequest(), []bridge.PopupAnswer{editChoice, approve}, []editAnswer{{"", false, nil}},
			approval.Answer{Outcome: approval.Approved, Items: []bool{true}}, false, 2},
		{"an editor that fails denies", editableRequest(), []bridge.PopupAnswer{editChoice}, []editAnswer{{"x", false, errors.New("zenity died")}},
			approval.Answer{Outcome: approval.Denied}, true, 1},
		{"an Edit from a popup that offered none is no answer", request(level.Dangerous), []bridge.PopupAnswer{editChoice}, nil,
			approval.Answer{Outcome: approval.Denied}, false, 1},
	} {
		t.Run(tc.name, func(t *testing.T) {
			s := &script{answers: tc.answers, edits: tc.edits}
			p := ui.NewPopupPrompter(ui.PopupOptions{Show: s.show, Edit: s.edit, EditedBy: "the person, in a test popup",
				Now: func() time.Time { return deadline.Add(-time.Minute) }})
			a, err := p.Prompt(context.Background(), tc.req, shownAt(tc.req.Deadline))
			if (err != nil) != tc.wantErr || a.Outcome != tc.want.Outcome || a.Text != tc.want.Text || a.By != tc.want.By {
				t.Fatalf("Prompt = %+v, %v; want %+v (error %v)", a, err, tc.want, tc.wantErr)
			}
			if len(s.popups) != tc.popups {
				t.Errorf("%d popups, want %d", len(s.popups), tc.popups)
			}
			if s.popups[0].AllowEdit != (tc.req.Edit != nil) {
				t.Errorf("popup offers Edit %v", s.popups[0].AllowEdit)
			}
			for _, e := range s.editors {
				if e.Text != "TEXT dangerous" || e.What != "plan" || e.Client != "mcp: claude" || !e.Deadline.Equal(deadline) {
					t.Errorf("editor shown %+v", e)
				}
			}
		})
	}
}

// A request that offers only an edit (the last one did not parse) opens the
// editor with the errors; cancelling denies.
func TestPopupEditAgain(t *testing.T) {
	r := approval.Request{ID: "c2", Client: "agent", Deadline: deadline,
		Edit: &approval.Edit{Kind: "applescript", Text: "tell", Errors: []string{"line 1: no"}}}
	s := &script{edits: []editAnswer{{"tell application \"Finder\" to activate", true, nil}}}
	p := ui.NewPopupPrompter(ui.PopupOptions{Show: s.show, Edit: s.edit})
	a, err := p.Prompt(context.Background(), r, shownAt(deadline))
	if err != nil || a.Outcome != approval.Edited || a.Text != "tell application \"Finder\" to activate" || a.By == "" {
		t.Fatalf("Prompt = %+v, %v", a, err)
	}
	if len(s.popups) != 0 || len(s.editors) != 1 || s.editors[0].What != "AppleScript" || len(s.editors[0].Errors) != 1 {
		t.Errorf("popups %+v, editors %+v", s.popups, s.editors)
	}
	s = &script{edits: []editAnswer{{"", false, nil}}}
	p = ui.NewPopupPrompter(ui.PopupOptions{Show: s.show, Edit: s.edit, Now: func() time.Time { return deadline.Add(-time.Minute) }})
	if a, err := p.Prompt(context.Background(), r, shownAt(deadline)); err != nil || a.Outcome != approval.Denied {
		t.Fatalf("cancelled: %+v, %v", a, err)
	}
	r.Edit.Errors = nil
	if a, err := p.Prompt(context.Background(), r, shownAt(deadline)); err == nil || a.Outcome != approval.Denied {
		t.Fatalf("a request offering nothing: %+v, %v", a, err)
	}
}

// The popup of an edited plan says so.
func TestPopupShowsWhoEdited(t *testing.T) {
	s := &script{answers: []bridge.PopupAnswer{{Items: []bool{false}}}}
	r := editableRequest()
	r.EditedBy = "the person, in the approval popup (zenity)"
	p := ui.NewPopupPrompter(ui.PopupOptions{Show: s.show, Edit: s.edit})
	p.Prompt(context.Background(), r, shownAt(deadline))
	if len(s.popups) != 1 || s.popups[0].EditedBy != r.EditedBy {
		t.Fatalf("popups %+v", s.popups)
	}
}
