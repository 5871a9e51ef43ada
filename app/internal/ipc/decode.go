package ipc

import (
	"bytes"
	"encoding/json"
	"errors"
	"fmt"
	"io"
	"reflect"
	"slices"
	"strconv"
	"strings"
	"unicode"
	"unicode/utf8"

	"github.com/airlockhq/airlock/app/internal/llm"
)

// maxIDLen bounds a string id, quotes and escapes included.
const maxIDLen = 256

// DecodeRequest decodes one frame, without its newline, as a request. It is
// strict: the frame must be valid UTF-8 holding one JSON object whose
// members are exactly jsonrpc ("2.0"), id (a string or an integer; requests
// without one are notifications and are refused), method (one of Methods)
// and, optionally, params (an object whose members are exactly the json
// names of the method's params type, none of them null). Duplicate member
// names, unknown members, escaped lone surrogates and trailing data are
// refused. Member names match exactly, never case-insensitively.
//
// On error it returns an *RPCError with a JSON-RPC code, and a Request whose
// ID is set when the id could be read, so the error response can carry it,
// and nothing else.
func DecodeRequest(frame []byte) (Request, error) {
	req, err := decodeRequest(frame)
	if err != nil {
		return Request{ID: req.ID}, err
	}
	return req, nil
}

func decodeRequest(frame []byte) (Request, error) {
	if !utf8.Valid(frame) {
		return Request{}, invalid(CodeParseError, "frame is not valid UTF-8")
	}
	if !json.Valid(frame) {
		return Request{}, invalid(CodeParseError, "frame is not valid JSON")
	}
	ms, err := members(frame)
	if err != nil {
		return Request{}, invalid(CodeInvalidRequest, "request: %v", err)
	}
	var req Request
	id, ok := lookup(ms, "id")
	if !ok {
		return req, invalid(CodeInvalidRequest, "a request needs an id: notifications are not accepted")
	}
	if !validID(id) {
		return req, invalid(CodeInvalidRequest, "id must be a string of at most %d bytes or an integer", maxIDLen)
	}
	req.ID = id
	if v, ok := lookup(ms, "jsonrpc"); !ok || !isString(v, "2.0") {
		return req, invalid(CodeInvalidRequest, `jsonrpc must be "2.0"`)
	}
	for _, m := range ms {
		switch m.name {
		case "jsonrpc", "id", "method", "params":
		default:
			return req, invalid(CodeInvalidRequest, "unknown member %s", quoteShort(m.name))
		}
	}
	raw, ok := lookup(ms, "method")
	if !ok {
		return req, invalid(CodeInvalidRequest, "a request needs a method")
	}
	method, err := stringValue(raw)
	if err != nil {
		return req, invalid(CodeInvalidRequest, "method: %v", err)
	}
	if !slices.Contains(Methods, method) {
		return req, invalid(CodeMethodNotFound, "method %s not found: clients may only call %s",
			quoteShort(method), strings.Join(Methods, ", "))
	}
	req.Method = method
	params, hasParams := lookup(ms, "params")
	switch method {
	case "submit":
		if !hasParams {
			return req, invalid(CodeInvalidParams, "submit needs params: client and plan")
		}
		var p SubmitParams
		if err := decodeParams(params, &p); err != nil {
			return req, err
		}
		if err := checkSubmit(p); err != nil {
			return req, err
		}
		req.Params = p
	case "ask":
		if !hasParams {
			return req, invalid(CodeInvalidParams, "ask needs params: client and request")
		}
		var p AskParams
		if err := decodeParams(params, &p); err != nil {
			return req, err
		}
		if err := checkAsk(p); err != nil {
			return req, err
		}
		req.Params = p
	case "automations":
		if !hasParams {
			return req, invalid(CodeInvalidParams, "automations needs params: op")
		}
		var p AutomationsParams
		if err := decodeParams(params, &p); err != nil {
			return req, err
		}
		if err := checkAutomations(p); err != nil {
			return req, err
		}
		req.Params = p
	case "history":
		var p HistoryParams
		if hasParams {
			if err := decodeParams(params, &p); err != nil {
				return req, err
			}
		}
		if p.Limit < 0 || p.Limit > MaxHistoryLimit {
			return req, invalid(CodeInvalidParams, "limit must be between 0 and %d", MaxHistoryLimit)
		}
		req.Params = p
	case "dashboard":
		var p DashboardParams
		if hasParams {
			if err := decodeParams(params, &p); err != nil {
				return req, err
			}
		}
		req.Params = p
	case "settings":
		if !hasParams {
			return req, invalid(CodeInvalidParams, "settings needs params: op")
		}
		var p SettingsParams
		if err := decodeParams(params, &p); err != nil {
			return req, err
		}
		if !slices.Contains(SettingsOps, p.Op) {
			return req, invalid(CodeInvalidParams, "op %s: want %s", quoteShort(p.Op), strings.Join(SettingsOps, " or "))
		}
		req.Params = p
	case "undo":
		if !hasParams {
			return req, invalid(CodeInvalidParams, "undo needs params: request")
		}
		var p UndoParams
		if err := decodeParams(params, &p); err != nil {
			return req, err
		}
		if !validName(p.Request, MaxRequestID) {
			return req, invalid(CodeInvalidParams, "request must be a request id: 1 to %d bytes of printable text without surrounding spaces", MaxRequestID)
		}
		req.Params = p
	default: // status, kill: no params, or an empty object
		if hasParams {
			if err := decodeParams(params, &struct{}{}); err != nil {
				return req, err
			}
		}
	}
	return req, nil
}

// Encode returns r as a frame, newline included. It does not check r: the
// server does.
func (r Request) Encode() ([]byte, error) {
	b, err := json.Marshal(struct {
		JSONRPC string          `json:"jsonrpc"`
		ID      json.RawMessage `json:"id"`
		Method  string          `json:"method"`
		Params  any             `json:"params,omitempty"`
	}{"2.0", r.ID, r.Method, r.Params})
	if err != nil {
		return nil, fmt.Errorf("encoding %s request: %w", r.Method, err)
	}
	if len(b)+1 > MaxFrame {
		return nil, fmt.Errorf("encoding %s request: %d bytes is more than the %d a frame may hold", r.Method, len(b)+1, MaxFrame)
	}
	return append(b, '\n'), nil
}

func checkSubmit(p SubmitParams) error {
	if !validClient(p.Client) {
		return invalid(CodeInvalidParams, "client must be 1 to %d bytes of printable text without surrounding spaces", MaxClientName)
	}
	if p.Kind != "" && !slices.Contains(SubmitKinds, p.Kind) {
		return invalid(CodeInvalidParams, "kind %s: want one of %s", quoteShort(p.Kind), strings.Join(SubmitKinds, ", "))
	}
	if len(p.Argv) > MaxArgv {
		return invalid(CodeInvalidParams, "argv has %d items: at most %d", len(p.Argv), MaxArgv)
	}
	if err := checkPlace(p); err != nil {
		return err
	}
	if p.Kind == "command" {
		if p.Plan != "" {
			return invalid(CodeInvalidParams, "a command is given as argv, and plan must be empty")
		}
		if len(p.Argv) == 0 || p.Argv[0] == "" {
			return invalid(CodeInvalidParams, "argv is empty: a command needs a program")
		}
		return nil
	}
	if strings.TrimSpace(p.Plan) == "" {
		return invalid(CodeInvalidParams, "plan is empty")
	}
	return nil
}

// checkPlace checks a submission's working folder and PATH: given only
// with a command, the folder absolute, neither longer than its bound nor
// holding a NUL or a line break.
func checkPlace(p SubmitParams) error {
	if p.Dir == "" && p.Path == "" {
		return nil
	}
	if p.Kind != "command" {
		return invalid(CodeInvalidParams, "dir and path are given only with a command (kind command)")
	}
	switch {
	case len(p.Dir) > MaxDir:
		return invalid(CodeInvalidParams, "dir has %d bytes: at most %d", len(p.Dir), MaxDir)
	case p.Dir != "" && !strings.HasPrefix(p.Dir, "/"):
		return invalid(CodeInvalidParams, "dir %s is not an absolute path", quoteShort(p.Dir))
	case strings.ContainsAny(p.Dir, "\x00\n\r"):
		return invalid(CodeInvalidParams, "dir holds a NUL or a line break")
	case len(p.Path) > MaxPathList:
		return invalid(CodeInvalidParams, "path has %d bytes: at most %d", len(p.Path), MaxPathList)
	case strings.ContainsAny(p.Path, "\x00\n\r"):
		return invalid(CodeInvalidParams, "path holds a NUL or a line break")
	}
	return nil
}

func checkAsk(p AskParams) error {
	switch {
	case !validClient(p.Client):
		return invalid(CodeInvalidParams, "client must be 1 to %d bytes of printable text without surrounding spaces", MaxClientName)
	case strings.TrimSpace(p.Request) == "":
		return invalid(CodeInvalidParams, "request is empty")
	case len(p.Request) > MaxAskRequest:
		return invalid(CodeInvalidParams, "request has %d bytes: at most %d", len(p.Request), MaxAskRequest)
	case len(p.Context) > MaxAskContext:
		return invalid(CodeInvalidParams, "context has %d bytes: at most %d", len(p.Context), MaxAskContext)
	case p.Model != "" && !llm.ValidModelName(p.Model):
		return invalid(CodeInvalidParams, "model %s: use letters, digits and . _ : / - @ +", quoteShort(p.Model))
	}
	if p.Endpoint != "" {
		if _, err := llm.ParseEndpoint(p.Endpoint); err != nil {
			return invalid(CodeInvalidParams, "endpoint %s: must be https (http only to localhost, 127.0.0.0/8 or ::1), without a user, query or fragment", quoteShort(p.Endpoint))
		}
	}
	return nil
}

func checkAutomations(p AutomationsParams) error {
	if !slices.Contains(AutomationOps, p.Op) {
		return invalid(CodeInvalidParams, "op %s: want one of %s", quoteShort(p.Op), strings.Join(AutomationOps, ", "))
	}
	named := p.Op != "list" && p.Op != "on" && p.Op != "off"
	switch {
	case named && !validName(p.Name, MaxAutomationName):
		return invalid(CodeInvalidParams, "%s needs a name: 1 to %d bytes of printable text without surrounding spaces", p.Op, MaxAutomationName)
	case !named && p.Name != "":
		return invalid(CodeInvalidParams, "%s takes no name", p.Op)
	case p.Op != "add" && (p.Ask != "" || p.Run != "" || p.Schedule != "" || p.Cooldown != ""):
		return invalid(CodeInvalidParams, "only add takes ask, run, schedule and cooldown")
	case p.Op != "add":
		return nil
	case (p.Ask == "") == (p.Run == ""):
		return invalid(CodeInvalidParams, "add needs exactly one of ask (a request in words) and run (a plan)")
	case len(p.Ask) > MaxAskRequest:
		return invalid(CodeInvalidParams, "ask has %d bytes: at most %d", len(p.Ask), MaxAskRequest)
	case p.Schedule == "" || len(p.Schedule) > MaxAutomationSchedule:
		return invalid(CodeInvalidParams, "add needs a schedule of at most %d bytes", MaxAutomationSchedule)
	case len(p.Cooldown) > MaxAutomationCooldown:
		return invalid(CodeInvalidParams, "cooldown has %d bytes: at most %d", len(p.Cooldown), MaxAutomationCooldown)
	}
	return nil
}

// validName is validClient with a bound of n bytes.
func validName(s string, n int) bool {
	return len(s) <= n && validClientText(s)
}

// validClient accepts names an approval popup can show as they are: no
// control, format (bidi overrides, zero-width) or non-ASCII space
// characters, which could make one client look like another.
func validClient(s string) bool {
	return len(s) <= MaxClientName && validClientText(s)
}

func validClientText(s string) bool {
	if s == "" || strings.TrimSpace(s) != s {
		return false
	}
	for _, r := range s {
		if !unicode.IsPrint(r) {
			return false
		}
	}
	return true
}

type member struct {
	name  string
	value json.RawMessage
}

// members splits raw, valid JSON, into the members of the object it must
// be, refusing duplicate names and trailing data.
func members(raw []byte) ([]member, error) {
	dec := json.NewDecoder(bytes.NewReader(raw))
	tok, err := dec.Token()
	if err != nil {
		return nil, err
	}
	if tok != json.Delim('{') {
		return nil, errors.New("not a JSON object (batches are not accepted)")
	}
	var ms []member
	seen := make(map[string]bool)
	for dec.More() {
		tok, err := dec.Token()
		if err != nil {
			return nil, err
		}
		name, _ := tok.(string)
		if seen[name] {
			return nil, fmt.Errorf("duplicate member %s", quoteShort(name))
		}
		seen[name] = true
		var v json.RawMessage
		if err := dec.Decode(&v); err != nil {
			return nil, err
		}
		ms = append(ms, member{name, v})
	}
	if _, err := dec.Token(); err != nil { // the closing brace
		return nil, err
	}
	if _, err := dec.Token(); err != io.EOF {
		return nil, errors.New("data after the object")
	}
	return ms, nil
}

func lookup(ms []member, name string) (json.RawMessage, bool) {
	for _, m := range ms {
		if m.name == name {
			return m.value, true
		}
	}
	return nil, false
}

// decodeParams fills the struct p points to from raw. raw must be an object
// whose member names are exactly json names of p's fields; members left out
// keep their zero values.
func decodeParams(raw json.RawMessage, p any) error {
	if len(raw) == 0 || raw[0] != '{' {
		return invalid(CodeInvalidParams, "params must be an object")
	}
	ms, err := members(raw)
	if err != nil {
		return invalid(CodeInvalidParams, "params: %v", err)
	}
	v := reflect.ValueOf(p).Elem()
	for _, m := range ms {
		i := fieldIndex(v.Type(), m.name)
		if i < 0 {
			return invalid(CodeInvalidParams, "unknown param %s", quoteShort(m.name))
		}
		f := v.Field(i)
		var err error
		switch f.Kind() {
		case reflect.String:
			var s string
			if s, err = stringValue(m.value); err == nil {
				f.SetString(s)
			}
		default:
			if string(m.value) == "null" {
				err = errors.New("must not be null")
			} else if json.Unmarshal(m.value, f.Addr().Interface()) != nil {
				err = fmt.Errorf("must be a %s", kindName(f.Kind()))
			}
		}
		if err != nil {
			return invalid(CodeInvalidParams, "param %s: %v", m.name, err)
		}
	}
	return nil
}

// fieldIndex finds the field of struct type t whose json name is name.
func fieldIndex(t reflect.Type, name string) int {
	for i := range t.NumField() {
		tag, _, _ := strings.Cut(t.Field(i).Tag.Get("json"), ",")
		if tag == name && t.Field(i).IsExported() {
			return i
		}
	}
	return -1
}

func kindName(k reflect.Kind) string {
	switch k {
	case reflect.Bool:
		return "boolean"
	case reflect.Int, reflect.Int64, reflect.Int32:
		return "integer"
	}
	return k.String()
}

// stringValue decodes raw, which must be a JSON string without escaped lone
// surrogates (which encoding/json would silently turn into U+FFFD).
func stringValue(raw json.RawMessage) (string, error) {
	if len(raw) == 0 || raw[0] != '"' {
		return "", errors.New("must be a string")
	}
	if err := checkSurrogates(raw); err != nil {
		return "", err
	}
	var s string
	if err := json.Unmarshal(raw, &s); err != nil {
		return "", errors.New("must be a string")
	}
	return s, nil
}

func isString(raw json.RawMessage, want string) bool {
	s, err := stringValue(raw)
	return err == nil && s == want
}

// checkSurrogates refuses \u escapes of UTF-16 surrogates that are not a
// high one followed by a low one. raw is a valid JSON string.
func checkSurrogates(raw []byte) error {
	for i := 0; i < len(raw); i++ {
		if raw[i] != '\\' {
			continue
		}
		i++
		if raw[i] != 'u' {
			continue
		}
		r := hex4(raw[i+1 : i+5])
		i += 4
		switch {
		case r >= 0xdc00 && r <= 0xdfff:
			return errors.New("escaped lone low surrogate")
		case r >= 0xd800 && r <= 0xdbff:
			if i+6 >= len(raw) || raw[i+1] != '\\' || raw[i+2] != 'u' {
				return errors.New("escaped lone high surrogate")
			}
			if lo := hex4(raw[i+3 : i+7]); lo < 0xdc00 || lo > 0xdfff {
				return errors.New("escaped lone high surrogate")
			}
			i += 6
		}
	}
	return nil
}

func hex4(b []byte) rune {
	n, _ := strconv.ParseUint(string(b), 16, 16)
	return rune(n)
}

// validID accepts a JSON string of at most maxIDLen bytes or an integer
// that fits in 64 bits.
func validID(raw json.RawMessage) bool {
	if len(raw) > 0 && raw[0] == '"' {
		_, err := stringValue(raw)
		return err == nil && len(raw) <= maxIDLen
	}
	_, err := strconv.ParseInt(string(raw), 10, 64)
	return err == nil
}

// quoteShort quotes s for an error message, cut to a few dozen bytes so a
// client cannot make the server echo a megabyte back.
func quoteShort(s string) string {
	const max = 40
	if len(s) <= max {
		return strconv.Quote(s)
	}
	cut := max
	for cut > 0 && !utf8.RuneStart(s[cut]) {
		cut--
	}
	return strconv.Quote(s[:cut]) + "…"
}
