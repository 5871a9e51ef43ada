package ipc_test

import (
	"encoding/json"
	"errors"
	"reflect"
	"slices"
	"strings"
	"testing"
	"unicode/utf8"

	"github.com/airlockhq/airlock/app/internal/ipc"
)

func TestDecodeRequestAccepts(t *testing.T) {
	tests := []struct {
		name  string
		frame string
		want  ipc.Request
	}{
		{"status", `{"jsonrpc":"2.0","id":1,"method":"status"}`,
			ipc.Request{ID: json.RawMessage(`1`), Method: "status"}},
		{"status with empty params", `{"jsonrpc":"2.0","id":"a","method":"status","params":{}}`,
			ipc.Request{ID: json.RawMessage(`"a"`), Method: "status"}},
		{"kill, members in any order and spaced", ` { "method" : "kill" , "id" : -7 , "jsonrpc" : "2.0" } `,
			ipc.Request{ID: json.RawMessage(`-7`), Method: "kill"}},
		{"history without params", `{"jsonrpc":"2.0","id":2,"method":"history"}`,
			ipc.Request{ID: json.RawMessage(`2`), Method: "history", Params: ipc.HistoryParams{}}},
		{"history with limit", `{"jsonrpc":"2.0","id":2,"method":"history","params":{"limit":1000}}`,
			ipc.Request{ID: json.RawMessage(`2`), Method: "history", Params: ipc.HistoryParams{Limit: 1000}}},
		{"submit", `{"jsonrpc":"2.0","id":"x-1","method":"submit","params":{"client":"airlock run","plan":"notify \"hi\"\n","dryRun":true}}`,
			ipc.Request{ID: json.RawMessage(`"x-1"`), Method: "submit", Params: ipc.SubmitParams{Client: "airlock run", Plan: "notify \"hi\"\n", DryRun: true}}},
		{"submit a command", `{"jsonrpc":"2.0","id":1,"method":"submit","params":{"client":"c","kind":"command","argv":["ls","-l","$(id)"]}}`,
			ipc.Request{ID: json.RawMessage(`1`), Method: "submit", Params: ipc.SubmitParams{Client: "c", Kind: "command", Argv: []string{"ls", "-l", "$(id)"}}}},
		{"submit a command with its folder and PATH", `{"jsonrpc":"2.0","id":1,"method":"submit","params":{"client":"c","kind":"command","argv":["ls"],"dir":"/home/u/proj","path":"/usr/bin:bin"}}`,
			ipc.Request{ID: json.RawMessage(`1`), Method: "submit", Params: ipc.SubmitParams{Client: "c", Kind: "command", Argv: []string{"ls"}, Dir: "/home/u/proj", Path: "/usr/bin:bin"}}},
		{"submit a script with arguments", `{"jsonrpc":"2.0","id":1,"method":"submit","params":{"client":"c","kind":"applescript","plan":"on run argv\nend run","argv":["a"]}}`,
			ipc.Request{ID: json.RawMessage(`1`), Method: "submit", Params: ipc.SubmitParams{Client: "c", Kind: "applescript", Plan: "on run argv\nend run", Argv: []string{"a"}}}},
		{"escaped member name is the same name", `{"jsonrpc":"2.0","id":1,"meth\u006fd":"status"}`,
			ipc.Request{ID: json.RawMessage(`1`), Method: "status"}},
		{"surrogate pair in plan", `{"jsonrpc":"2.0","id":1,"method":"submit","params":{"client":"c","plan":"say \ud83d\ude00"}}`,
			ipc.Request{ID: json.RawMessage(`1`), Method: "submit", Params: ipc.SubmitParams{Client: "c", Plan: "say 😀"}}},
		{"non-ASCII client name", `{"jsonrpc":"2.0","id":1,"method":"submit","params":{"client":"Café Agent","plan":"x"}}`,
			ipc.Request{ID: json.RawMessage(`1`), Method: "submit", Params: ipc.SubmitParams{Client: "Café Agent", Plan: "x"}}},
		{"ask", `{"jsonrpc":"2.0","id":3,"method":"ask","params":{"client":"airlock ask","request":"tidy my desktop","dryRun":true}}`,
			ipc.Request{ID: json.RawMessage(`3`), Method: "ask", Params: ipc.AskParams{Client: "airlock ask", Request: "tidy my desktop", DryRun: true}}},
		{"ask with everything", `{"jsonrpc":"2.0","id":3,"method":"ask","params":{"client":"c","request":"r","context":"ctx","model":"llama3.2:3b","endpoint":"https://m.example.com/v1"}}`,
			ipc.Request{ID: json.RawMessage(`3`), Method: "ask", Params: ipc.AskParams{Client: "c", Request: "r", Context: "ctx", Model: "llama3.2:3b", Endpoint: "https://m.example.com/v1"}}},
		{"largest integer id", `{"jsonrpc":"2.0","id":9223372036854775807,"method":"kill"}`,
			ipc.Request{ID: json.RawMessage(`9223372036854775807`), Method: "kill"}},
		{"automations list", `{"jsonrpc":"2.0","id":7,"method":"automations","params":{"op":"list"}}`,
			ipc.Request{ID: json.RawMessage(`7`), Method: "automations", Params: ipc.AutomationsParams{Op: "list"}}},
		{"automations add", `{"jsonrpc":"2.0","id":7,"method":"automations","params":{"op":"add","name":"morning","ask":"open my notes","schedule":"weekdays 09:00","cooldown":"1h"}}`,
			ipc.Request{ID: json.RawMessage(`7`), Method: "automations", Params: ipc.AutomationsParams{Op: "add", Name: "morning", Ask: "open my notes", Schedule: "weekdays 09:00", Cooldown: "1h"}}},
		{"automations run-now", `{"jsonrpc":"2.0","id":7,"method":"automations","params":{"op":"run-now","name":"morning"}}`,
			ipc.Request{ID: json.RawMessage(`7`), Method: "automations", Params: ipc.AutomationsParams{Op: "run-now", Name: "morning"}}},
		{"automations off", `{"jsonrpc":"2.0","id":7,"method":"automations","params":{"op":"off"}}`,
			ipc.Request{ID: json.RawMessage(`7`), Method: "automations", Params: ipc.AutomationsParams{Op: "off"}}},
		{"settings reload", `{"jsonrpc":"2.0","id":9,"method":"settings","params":{"op":"reload"}}`,
			ipc.Request{ID: json.RawMessage(`9`), Method: "settings", Params: ipc.SettingsParams{Op: "reload"}}},
		{"undo", `{"jsonrpc":"2.0","id":8,"method":"undo","params":{"request":"9f1c2a3b4d5e6f708192a3b4"}}`,
			ipc.Request{ID: json.RawMessage(`8`), Method: "undo", Params: ipc.UndoParams{Request: "9f1c2a3b4d5e6f708192a3b4"}}},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			got, err := ipc.DecodeRequest([]byte(tt.frame))
			if err != nil {
				t.Fatalf("DecodeRequest: %v", err)
			}
			if !reflect.DeepEqual(got, tt.want) {
				t.Errorf("got %#v\nwant %#v", got, tt.want)
			}
		})
	}
}

func TestDecodeRequestRefuses(t *testing.T) {
	tests := []struct {
		name   string
		frame  string
		code   int
		wantID string // the id the error response can carry; "" for none
	}{
		{"empty", ``, ipc.CodeParseError, ""},
		{"not JSON", `hello`, ipc.CodeParseError, ""},
		{"truncated", `{"jsonrpc":"2.0","id":1,"method":"status"`, ipc.CodeParseError, ""},
		{"invalid UTF-8", "{\"jsonrpc\":\"2.0\",\"id\":1,\"method\":\"submit\",\"params\":{\"client\":\"c\",\"plan\":\"\xff\"}}", ipc.CodeParseError, ""},
		{"two objects", `{"jsonrpc":"2.0","id":1,"method":"status"}{}`, ipc.CodeParseError, ""},
		{"batch", `[{"jsonrpc":"2.0","id":1,"method":"status"}]`, ipc.CodeInvalidRequest, ""},
		{"string", `"status"`, ipc.CodeInvalidRequest, ""},
		{"notification", `{"jsonrpc":"2.0","method":"kill"}`, ipc.CodeInvalidRequest, ""},
		{"null id", `{"jsonrpc":"2.0","id":null,"method":"kill"}`, ipc.CodeInvalidRequest, ""},
		{"fractional id", `{"jsonrpc":"2.0","id":1.5,"method":"kill"}`, ipc.CodeInvalidRequest, ""},
		{"exponent id", `{"jsonrpc":"2.0","id":1e3,"method":"kill"}`, ipc.CodeInvalidRequest, ""},
		{"id beyond 64 bits", `{"jsonrpc":"2.0","id":9223372036854775808,"method":"kill"}`, ipc.CodeInvalidRequest, ""},
		{"object id", `{"jsonrpc":"2.0","id":{},"method":"kill"}`, ipc.CodeInvalidRequest, ""},
		{"long string id", `{"jsonrpc":"2.0","id":"` + strings.Repeat("a", 300) + `","method":"kill"}`, ipc.CodeInvalidRequest, ""},
		{"lone surrogate in id", `{"jsonrpc":"2.0","id":"\ud800","method":"kill"}`, ipc.CodeInvalidRequest, ""},
		{"jsonrpc 1.0", `{"jsonrpc":"1.0","id":1,"method":"kill"}`, ipc.CodeInvalidRequest, "1"},
		{"jsonrpc number", `{"jsonrpc":2.0,"id":1,"method":"kill"}`, ipc.CodeInvalidRequest, "1"},
		{"jsonrpc missing", `{"id":1,"method":"kill"}`, ipc.CodeInvalidRequest, "1"},
		{"duplicate method", `{"jsonrpc":"2.0","id":1,"method":"status","method":"kill"}`, ipc.CodeInvalidRequest, ""},
		{"duplicate by escape", `{"jsonrpc":"2.0","id":1,"method":"status","metho\u0064":"kill"}`, ipc.CodeInvalidRequest, ""},
		{"unknown member", `{"jsonrpc":"2.0","id":1,"method":"status","approve":true}`, ipc.CodeInvalidRequest, "1"},
		{"member in other case", `{"jsonrpc":"2.0","id":1,"Method":"status"}`, ipc.CodeInvalidRequest, "1"},
		{"method missing", `{"jsonrpc":"2.0","id":1}`, ipc.CodeInvalidRequest, "1"},
		{"folder of a plan", `{"jsonrpc":"2.0","id":1,"method":"submit","params":{"client":"c","plan":"x","dir":"/home"}}`, ipc.CodeInvalidParams, "1"},
		{"PATH of a script", `{"jsonrpc":"2.0","id":1,"method":"submit","params":{"client":"c","kind":"jxa","plan":"1","path":"/bin"}}`, ipc.CodeInvalidParams, "1"},
		{"relative folder", `{"jsonrpc":"2.0","id":1,"method":"submit","params":{"client":"c","kind":"command","argv":["ls"],"dir":"proj"}}`, ipc.CodeInvalidParams, "1"},
		{"folder with a line break", `{"jsonrpc":"2.0","id":1,"method":"submit","params":{"client":"c","kind":"command","argv":["ls"],"dir":"/a\nb"}}`, ipc.CodeInvalidParams, "1"},
		{"long folder", `{"jsonrpc":"2.0","id":1,"method":"submit","params":{"client":"c","kind":"command","argv":["ls"],"dir":"/` + strings.Repeat("a", ipc.MaxDir) + `"}}`, ipc.CodeInvalidParams, "1"},
		{"PATH with a NUL", `{"jsonrpc":"2.0","id":1,"method":"submit","params":{"client":"c","kind":"command","argv":["ls"],"path":"/bin\u0000"}}`, ipc.CodeInvalidParams, "1"},
		{"undo without params", `{"jsonrpc":"2.0","id":1,"method":"undo"}`, ipc.CodeInvalidParams, "1"},
		{"settings without params", `{"jsonrpc":"2.0","id":1,"method":"settings"}`, ipc.CodeInvalidParams, "1"},
		{"settings of an unknown op", `{"jsonrpc":"2.0","id":1,"method":"settings","params":{"op":"save"}}`, ipc.CodeInvalidParams, "1"},
		{"settings that confirms itself", `{"jsonrpc":"2.0","id":1,"method":"settings","params":{"op":"reload","confirmed":true}}`, ipc.CodeInvalidParams, "1"},
		{"undo of no request", `{"jsonrpc":"2.0","id":1,"method":"undo","params":{"request":""}}`, ipc.CodeInvalidParams, "1"},
		{"undo of a long id", `{"jsonrpc":"2.0","id":1,"method":"undo","params":{"request":"` + strings.Repeat("a", 65) + `"}}`, ipc.CodeInvalidParams, "1"},
		{"undo of a control character", `{"jsonrpc":"2.0","id":1,"method":"undo","params":{"request":"a\u001bb"}}`, ipc.CodeInvalidParams, "1"},
		{"undo that confirms itself", `{"jsonrpc":"2.0","id":1,"method":"undo","params":{"request":"a","confirmed":true}}`, ipc.CodeInvalidParams, "1"},
		{"method not a string", `{"jsonrpc":"2.0","id":1,"method":["kill"]}`, ipc.CodeInvalidRequest, "1"},
		{"approve", `{"jsonrpc":"2.0","id":1,"method":"approve"}`, ipc.CodeMethodNotFound, "1"},
		{"method in other case", `{"jsonrpc":"2.0","id":1,"method":"Status"}`, ipc.CodeMethodNotFound, "1"},
		{"method with space", `{"jsonrpc":"2.0","id":1,"method":"kill "}`, ipc.CodeMethodNotFound, "1"},
		{"params array", `{"jsonrpc":"2.0","id":1,"method":"history","params":[10]}`, ipc.CodeInvalidParams, "1"},
		{"params null", `{"jsonrpc":"2.0","id":1,"method":"history","params":null}`, ipc.CodeInvalidParams, "1"},
		{"status with params", `{"jsonrpc":"2.0","id":1,"method":"status","params":{"verbose":true}}`, ipc.CodeInvalidParams, "1"},
		{"kill with resume", `{"jsonrpc":"2.0","id":1,"method":"kill","params":{"resume":true}}`, ipc.CodeInvalidParams, "1"},
		{"negative limit", `{"jsonrpc":"2.0","id":1,"method":"history","params":{"limit":-1}}`, ipc.CodeInvalidParams, "1"},
		{"limit too large", `{"jsonrpc":"2.0","id":1,"method":"history","params":{"limit":1001}}`, ipc.CodeInvalidParams, "1"},
		{"limit fractional", `{"jsonrpc":"2.0","id":1,"method":"history","params":{"limit":1.5}}`, ipc.CodeInvalidParams, "1"},
		{"limit string", `{"jsonrpc":"2.0","id":1,"method":"history","params":{"limit":"5"}}`, ipc.CodeInvalidParams, "1"},
		{"limit in other case", `{"jsonrpc":"2.0","id":1,"method":"history","params":{"LIMIT":5}}`, ipc.CodeInvalidParams, "1"},
		{"submit without params", `{"jsonrpc":"2.0","id":1,"method":"submit"}`, ipc.CodeInvalidParams, "1"},
		{"submit empty plan", `{"jsonrpc":"2.0","id":1,"method":"submit","params":{"client":"c","plan":" \n"}}`, ipc.CodeInvalidParams, "1"},
		{"submit no client", `{"jsonrpc":"2.0","id":1,"method":"submit","params":{"plan":"x"}}`, ipc.CodeInvalidParams, "1"},
		{"submit null plan", `{"jsonrpc":"2.0","id":1,"method":"submit","params":{"client":"c","plan":null}}`, ipc.CodeInvalidParams, "1"},
		{"submit null dryRun", `{"jsonrpc":"2.0","id":1,"method":"submit","params":{"client":"c","plan":"x","dryRun":null}}`, ipc.CodeInvalidParams, "1"},
		{"submit unknown kind", `{"jsonrpc":"2.0","id":1,"method":"submit","params":{"client":"c","kind":"perl","plan":"x"}}`, ipc.CodeInvalidParams, "1"},
		{"submit command as text", `{"jsonrpc":"2.0","id":1,"method":"submit","params":{"client":"c","kind":"command","plan":"rm -rf ~"}}`, ipc.CodeInvalidParams, "1"},
		{"submit command without argv", `{"jsonrpc":"2.0","id":1,"method":"submit","params":{"client":"c","kind":"command"}}`, ipc.CodeInvalidParams, "1"},
		{"submit argv not strings", `{"jsonrpc":"2.0","id":1,"method":"submit","params":{"client":"c","kind":"command","argv":["ls",1]}}`, ipc.CodeInvalidParams, "1"},
		{"submit argv too long", `{"jsonrpc":"2.0","id":1,"method":"submit","params":{"client":"c","kind":"command","argv":[` + strings.Repeat(`"a",`, 100) + `"a"]}}`, ipc.CodeInvalidParams, "1"},
		{"submit approves itself", `{"jsonrpc":"2.0","id":1,"method":"submit","params":{"client":"c","plan":"x","confirmedDangerous":true}}`, ipc.CodeInvalidParams, "1"},
		{"submit duplicate plan", `{"jsonrpc":"2.0","id":1,"method":"submit","params":{"client":"c","plan":"x","plan":"y"}}`, ipc.CodeInvalidParams, "1"},
		{"submit plan in other case", `{"jsonrpc":"2.0","id":1,"method":"submit","params":{"client":"c","Plan":"x"}}`, ipc.CodeInvalidParams, "1"},
		{"client with bidi override", `{"jsonrpc":"2.0","id":1,"method":"submit","params":{"client":"evil\u202eniur","plan":"x"}}`, ipc.CodeInvalidParams, "1"},
		{"client with newline", `{"jsonrpc":"2.0","id":1,"method":"submit","params":{"client":"a\nb","plan":"x"}}`, ipc.CodeInvalidParams, "1"},
		{"client too long", `{"jsonrpc":"2.0","id":1,"method":"submit","params":{"client":"` + strings.Repeat("c", 65) + `","plan":"x"}}`, ipc.CodeInvalidParams, "1"},
		{"client padded", `{"jsonrpc":"2.0","id":1,"method":"submit","params":{"client":" c","plan":"x"}}`, ipc.CodeInvalidParams, "1"},
		{"ask without params", `{"jsonrpc":"2.0","id":1,"method":"ask"}`, ipc.CodeInvalidParams, "1"},
		{"ask empty request", `{"jsonrpc":"2.0","id":1,"method":"ask","params":{"client":"c","request":"  "}}`, ipc.CodeInvalidParams, "1"},
		{"ask no client", `{"jsonrpc":"2.0","id":1,"method":"ask","params":{"request":"r"}}`, ipc.CodeInvalidParams, "1"},
		{"ask request too long", `{"jsonrpc":"2.0","id":1,"method":"ask","params":{"client":"c","request":"` + strings.Repeat("r", ipc.MaxAskRequest+1) + `"}}`, ipc.CodeInvalidParams, "1"},
		{"ask context too long", `{"jsonrpc":"2.0","id":1,"method":"ask","params":{"client":"c","request":"r","context":"` + strings.Repeat("c", ipc.MaxAskContext+1) + `"}}`, ipc.CodeInvalidParams, "1"},
		{"ask model with a space", `{"jsonrpc":"2.0","id":1,"method":"ask","params":{"client":"c","request":"r","model":"a b"}}`, ipc.CodeInvalidParams, "1"},
		{"ask endpoint in clear off this machine", `{"jsonrpc":"2.0","id":1,"method":"ask","params":{"client":"c","request":"r","endpoint":"http://127.0.0.1.evil.com"}}`, ipc.CodeInvalidParams, "1"},
		{"ask approves itself", `{"jsonrpc":"2.0","id":1,"method":"ask","params":{"client":"c","request":"r","confirmedDangerous":true}}`, ipc.CodeInvalidParams, "1"},
		{"ask sets the level", `{"jsonrpc":"2.0","id":1,"method":"ask","params":{"client":"c","request":"r","autonomy":2}}`, ipc.CodeInvalidParams, "1"},
		{"ask with a plan", `{"jsonrpc":"2.0","id":1,"method":"ask","params":{"client":"c","request":"r","plan":"x"}}`, ipc.CodeInvalidParams, "1"},
		{"automations without params", `{"jsonrpc":"2.0","id":1,"method":"automations"}`, ipc.CodeInvalidParams, "1"},
		{"automations unknown op", `{"jsonrpc":"2.0","id":1,"method":"automations","params":{"op":"confirm","name":"a"}}`, ipc.CodeInvalidParams, "1"},
		{"automations confirmed by the client", `{"jsonrpc":"2.0","id":1,"method":"automations","params":{"op":"add","name":"a","ask":"r","schedule":"daily 09:00","confirmed":true}}`, ipc.CodeInvalidParams, "1"},
		{"automations enable without a name", `{"jsonrpc":"2.0","id":1,"method":"automations","params":{"op":"enable"}}`, ipc.CodeInvalidParams, "1"},
		{"automations list with a name", `{"jsonrpc":"2.0","id":1,"method":"automations","params":{"op":"list","name":"a"}}`, ipc.CodeInvalidParams, "1"},
		{"automations enable with a plan", `{"jsonrpc":"2.0","id":1,"method":"automations","params":{"op":"enable","name":"a","run":"x"}}`, ipc.CodeInvalidParams, "1"},
		{"automations add both", `{"jsonrpc":"2.0","id":1,"method":"automations","params":{"op":"add","name":"a","ask":"r","run":"x","schedule":"daily 09:00"}}`, ipc.CodeInvalidParams, "1"},
		{"automations add neither", `{"jsonrpc":"2.0","id":1,"method":"automations","params":{"op":"add","name":"a","schedule":"daily 09:00"}}`, ipc.CodeInvalidParams, "1"},
		{"automations add without a schedule", `{"jsonrpc":"2.0","id":1,"method":"automations","params":{"op":"add","name":"a","ask":"r"}}`, ipc.CodeInvalidParams, "1"},
		{"automations name with a bidi override", `{"jsonrpc":"2.0","id":1,"method":"automations","params":{"op":"remove","name":"a\u202eb"}}`, ipc.CodeInvalidParams, "1"},
		{"automations name too long", `{"jsonrpc":"2.0","id":1,"method":"automations","params":{"op":"remove","name":"` + strings.Repeat("n", 65) + `"}}`, ipc.CodeInvalidParams, "1"},
		{"automations ask too long", `{"jsonrpc":"2.0","id":1,"method":"automations","params":{"op":"add","name":"a","schedule":"daily 09:00","ask":"` + strings.Repeat("r", ipc.MaxAskRequest+1) + `"}}`, ipc.CodeInvalidParams, "1"},
		{"lone high surrogate in plan", `{"jsonrpc":"2.0","id":1,"method":"submit","params":{"client":"c","plan":"\ud83d x"}}`, ipc.CodeInvalidParams, "1"},
		{"lone low surrogate in plan", `{"jsonrpc":"2.0","id":1,"method":"submit","params":{"client":"c","plan":"\ude00"}}`, ipc.CodeInvalidParams, "1"},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			got, err := ipc.DecodeRequest([]byte(tt.frame))
			var rerr *ipc.RPCError
			if !errors.As(err, &rerr) {
				t.Fatalf("DecodeRequest = %#v, %v; want an *RPCError", got, err)
			}
			if rerr.Code != tt.code {
				t.Errorf("code %d (%s), want %d", rerr.Code, rerr.Message, tt.code)
			}
			if got.Method != "" || got.Params != nil {
				t.Errorf("refused request carries %q %#v", got.Method, got.Params)
			}
			if string(got.ID) != tt.wantID {
				t.Errorf("id %q, want %q", got.ID, tt.wantID)
			}
			if len(rerr.Message) > 200 {
				t.Errorf("message of %d bytes: %.80q…", len(rerr.Message), rerr.Message)
			}
		})
	}
}

// TestMethodsAreClosed pins the protocol's surface: exactly nine methods,
// and a Handler (with its optional DashboardHandler, UndoHandler and
// SettingsHandler) with exactly the matching methods, so nothing a client
// can call approves, denies or resumes (automations, undo and a settings
// reload that raises trust may only propose: the person
// says yes in a popup; dashboard opens the browser itself or hands out a
// link that can only read), and the operations automations takes.
func TestMethodsAreClosed(t *testing.T) {
	want := []string{"ask", "automations", "dashboard", "history", "kill", "settings", "status", "submit", "undo"}
	got := slices.Sorted(slices.Values(ipc.Methods))
	if !slices.Equal(got, want) {
		t.Fatalf("Methods = %q, want exactly %q", got, want)
	}
	var names []string
	for _, h := range []reflect.Type{reflect.TypeFor[ipc.Handler](), reflect.TypeFor[ipc.DashboardHandler](), reflect.TypeFor[ipc.UndoHandler](), reflect.TypeFor[ipc.SettingsHandler]()} {
		for i := range h.NumMethod() {
			names = append(names, strings.ToLower(h.Method(i).Name))
		}
	}
	slices.Sort(names)
	if !slices.Equal(names, want) {
		t.Errorf("Handler, DashboardHandler, UndoHandler and SettingsHandler methods %q, want exactly %q", names, want)
	}
	if !slices.Equal(ipc.SettingsOps, []string{"reload"}) {
		t.Errorf("SettingsOps = %q, want exactly reload", ipc.SettingsOps)
	}
	ops := []string{"add", "disable", "enable", "list", "off", "on", "remove", "run-now"}
	if got := slices.Sorted(slices.Values(ipc.AutomationOps)); !slices.Equal(got, ops) {
		t.Errorf("AutomationOps = %q, want exactly %q", got, ops)
	}
}

func TestEncodeRoundTrip(t *testing.T) {
	reqs := []ipc.Request{
		{ID: json.RawMessage(`3`), Method: "status"},
		{ID: json.RawMessage(`"s"`), Method: "kill"},
		{ID: json.RawMessage(`4`), Method: "history", Params: ipc.HistoryParams{Limit: 20}},
		{ID: json.RawMessage(`5`), Method: "submit", Params: ipc.SubmitParams{Client: "mcp", Plan: "open \"/tmp\"\nnotify \"é\"", DryRun: true}},
		{ID: json.RawMessage(`6`), Method: "ask", Params: ipc.AskParams{Client: "airlock ask", Request: "tidy \"it\"", Context: "x\ny", Model: "m:1b", DryRun: true}},
		{ID: json.RawMessage(`7`), Method: "automations", Params: ipc.AutomationsParams{Op: "add", Name: "inbox", Run: "CREATE_FOLDER \"~/Documents/Inbox\"\n", Schedule: "every 2h"}},
		{ID: json.RawMessage(`8`), Method: "dashboard", Params: ipc.DashboardParams{Print: true}},
		{ID: json.RawMessage(`9`), Method: "dashboard", Params: ipc.DashboardParams{}},
		{ID: json.RawMessage(`10`), Method: "undo", Params: ipc.UndoParams{Request: "3f2a9c"}},
		{ID: json.RawMessage(`11`), Method: "settings", Params: ipc.SettingsParams{Op: "reload"}},
	}
	for _, r := range reqs {
		b, err := r.Encode()
		if err != nil {
			t.Fatalf("Encode(%v): %v", r, err)
		}
		if !strings.HasSuffix(string(b), "\n") || strings.Count(string(b), "\n") != 1 {
			t.Errorf("Encode(%v) = %q: want one line", r, b)
		}
		got, err := ipc.DecodeRequest(b[:len(b)-1])
		if err != nil {
			t.Fatalf("DecodeRequest(%q): %v", b, err)
		}
		if !reflect.DeepEqual(got, r) {
			t.Errorf("round trip: got %#v, want %#v", got, r)
		}
	}
	big := ipc.Request{ID: json.RawMessage(`1`), Method: "submit", Params: ipc.SubmitParams{Client: "c", Plan: strings.Repeat("x", ipc.MaxFrame)}}
	if _, err := big.Encode(); err == nil {
		t.Error("Encode of a request larger than MaxFrame succeeded")
	}
}

func FuzzDecode(f *testing.F) {
	for _, s := range []string{
		`{"jsonrpc":"2.0","id":1,"method":"status"}`,
		`{"jsonrpc":"2.0","id":"a","method":"kill","params":{}}`,
		`{"jsonrpc":"2.0","id":2,"method":"history","params":{"limit":5}}`,
		`{"jsonrpc":"2.0","id":3,"method":"submit","params":{"client":"c","plan":"notify \"\ud83d\ude00\"","dryRun":false}}`,
		`{"jsonrpc":"2.0","id":1,"method":"approve"}`,
		`{"jsonrpc":"2.0","id":6,"method":"ask","params":{"client":"c","request":"tidy","model":"m:1b","endpoint":"http://[::1]:8080/v1"}}`,
		`{"jsonrpc":"2.0","id":1,"method":"status","method":"kill"}`,
		`[1,{"a":"\udc00"}]`,
		`{"jsonrpc":"2.0","id":4,"method":"submit","params":{"client":"c\u202e","plan":"x"}}`,
		`{"jsonrpc":"2.0","id":5,"method":"history","params":{"limit":-1}}`,
		`{"jsonrpc":"2.0","id":7,"method":"automations","params":{"op":"add","name":"a","run":"NOTIFY \"x\" \"y\"","schedule":"every 2h","cooldown":"1h"}}`,
		`{"jsonrpc":"2.0","id":8,"method":"automations","params":{"op":"enable","name":"a"}}`,
		`{"jsonrpc":"2.0","id":9,"method":"undo","params":{"request":"9f1c2a3b4d5e6f708192a3b4"}}`,
		`{"jsonrpc":"2.0","id":10,"method":"settings","params":{"op":"reload"}}`,
		"{\"jsonrpc\":\"2.0\",\"id\":1,\"method\":\"st\xffatus\"}",
	} {
		f.Add([]byte(s))
	}
	f.Fuzz(func(t *testing.T, frame []byte) {
		req, err := ipc.DecodeRequest(frame)
		if err != nil {
			var rerr *ipc.RPCError
			if !errors.As(err, &rerr) {
				t.Fatalf("error %v is not an *RPCError", err)
			}
			if req.Method != "" || req.Params != nil {
				t.Fatalf("refused request carries %q %v", req.Method, req.Params)
			}
			if req.ID != nil && !json.Valid(req.ID) {
				t.Fatalf("refused request carries invalid id %q", req.ID)
			}
			return
		}
		// Accepted: it must be a valid request by an independent reading.
		if !utf8.Valid(frame) {
			t.Fatal("accepted invalid UTF-8")
		}
		var generic map[string]any
		if err := json.Unmarshal(frame, &generic); err != nil {
			t.Fatalf("accepted what encoding/json refuses: %v", err)
		}
		if generic["jsonrpc"] != "2.0" || generic["method"] != req.Method {
			t.Fatalf("accepted %q as %#v", frame, req)
		}
		if !slices.Contains(ipc.Methods, req.Method) {
			t.Fatalf("accepted method %q", req.Method)
		}
		switch p := req.Params.(type) {
		case ipc.SubmitParams:
			if req.Method != "submit" || p.Plan == "" || p.Client == "" {
				t.Fatalf("accepted %#v", req)
			}
		case ipc.AskParams:
			if req.Method != "ask" || strings.TrimSpace(p.Request) == "" || p.Client == "" || len(p.Request) > ipc.MaxAskRequest {
				t.Fatalf("accepted %#v", req)
			}
		case ipc.HistoryParams:
			if req.Method != "history" || p.Limit < 0 || p.Limit > ipc.MaxHistoryLimit {
				t.Fatalf("accepted %#v", req)
			}
		case ipc.AutomationsParams:
			if req.Method != "automations" || !slices.Contains(ipc.AutomationOps, p.Op) || (p.Op != "add" && (p.Ask != "" || p.Run != "")) {
				t.Fatalf("accepted %#v", req)
			}
		case ipc.DashboardParams:
			if req.Method != "dashboard" {
				t.Fatalf("accepted %#v", req)
			}
		case ipc.UndoParams:
			if req.Method != "undo" || p.Request == "" || len(p.Request) > ipc.MaxRequestID || strings.TrimSpace(p.Request) != p.Request {
				t.Fatalf("accepted %#v", req)
			}
		case ipc.SettingsParams:
			if req.Method != "settings" || p.Op != "reload" {
				t.Fatalf("accepted %#v", req)
			}
		case nil:
			if req.Method != "status" && req.Method != "kill" {
				t.Fatalf("accepted %#v", req)
			}
		default:
			t.Fatalf("params of type %T", p)
		}
		// And it round-trips.
		b, err := req.Encode()
		if err != nil {
			t.Fatalf("Encode: %v", err)
		}
		again, err := ipc.DecodeRequest(b[:len(b)-1])
		if err != nil {
			t.Fatalf("re-decoding %q: %v", b, err)
		}
		if !reflect.DeepEqual(again, req) {
			t.Fatalf("round trip: %#v became %#v", req, again)
		}
	})
}
