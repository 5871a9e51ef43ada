package policy

import (
	"bytes"
	"encoding/json"
	"errors"
	"fmt"
	"io"
	"io/fs"
	"os"
	"path/filepath"
	"strings"
	"time"

	"github.com/airlockhq/airlock/app/internal/automation"
	"github.com/airlockhq/airlock/app/internal/llm"
	"github.com/airlockhq/airlock/app/internal/sanitize"
)

// SettingsFile is the settings file's name in the data directory.
const SettingsFile = "settings.json"

// The range an approval timeout may take: long enough to read a script, short
// enough that a forgotten prompt does not hold a plan for hours.
const (
	MinApprovalTimeout     = 10 * time.Second
	MaxApprovalTimeout     = time.Hour
	DefaultApprovalTimeout = 5 * time.Minute // seed 002
)

const maxSettingsBytes = 64 << 10

// Settings are the person's choices, kept in SettingsFile. Only the native UI
// changes them; clients of the gate can never.
type Settings struct {
	// Roots are the sandbox roots file operations must stay inside; ~ is
	// allowed. Empty means none: every file operation is refused.
	Roots []string
	// AllowedApps names the applications an action may open, quit or
	// bring to the front (OPEN_APP, QUIT_APP, ACTIVATE_APP, OPEN_FILE's
	// app): any other is blocked. Empty means none; sanitize.AnyApp ("*")
	// alone means any. Names compare as sanitize.Config.App says.
	AllowedApps []string
	// ApprovalTimeout is how long a prompt waits before it denies, recorded
	// as a timeout.
	ApprovalTimeout time.Duration
	// Autonomy is the level the gate decides by.
	Autonomy Autonomy
	// KillHotkey trips the kill switch from anywhere (macOS; on Linux the
	// desktop's shortcut settings run `airlock kill`). The zero value is
	// none.
	KillHotkey Hotkey
	// LLMEndpoint is the model server `airlock ask` and "Automate…" use;
	// "" means Ollama on this machine. One that is not on this machine
	// must be https.
	LLMEndpoint string
	// LLMAPI is its protocol: "ollama", "openai", or "" to find out.
	LLMAPI string
	// LLMModel is the model to use; "" means the only one the server has.
	LLMModel string
	// LLMKeyName names the API key in the key store (`airlock key set
	// NAME`), sent to LLMEndpoint only; "" for none.
	LLMKeyName string
	// AutomationEnabled is the global switch of the automations (seed
	// 004's "automation on/off"): off, none runs on its schedule.
	AutomationEnabled bool
	// Automations are the person's scheduled requests (nil for none). Each
	// runs through the gate as the person's own request would, under the
	// client name "automation: NAME".
	Automations []automation.Automation
	// Rules are the person's lasting rules for commands (nil for none):
	// the strictest that matches a command denies it, asks about it or
	// lets it run unasked (see Rule).
	Rules Rules
}

// DefaultSettings are seed 004's sandbox (~/Documents, ~/Downloads,
// ~/Desktop), every app allowed (the person narrows allowedApps), seed
// 002's five-minute timeout
// and Level 1.
func DefaultSettings() Settings {
	return Settings{
		Roots:           []string{"~/Documents", "~/Downloads", "~/Desktop"},
		AllowedApps:     []string{sanitize.AnyApp},
		ApprovalTimeout: DefaultApprovalTimeout,
		Autonomy:        SmartDefault,
		KillHotkey:      DefaultKillHotkey,
		LLMEndpoint:     llm.DefaultEndpoint,

		AutomationEnabled: true,
	}
}

// SettingsError is the error of a settings file that cannot be used. Its
// text names the file, the line when known, the field and the value.
type SettingsError struct {
	File   string
	Line   int    // 0 when unknown
	Field  string // "" for the file as a whole
	Value  string // the value as written, escaped for display
	Reason string
}

func (e *SettingsError) Error() string {
	var b strings.Builder
	b.WriteString("settings")
	if e.File != "" {
		fmt.Fprintf(&b, " %s", e.File)
	}
	if e.Line > 0 {
		fmt.Fprintf(&b, " line %d", e.Line)
	}
	b.WriteString(": ")
	if e.Field != "" {
		fmt.Fprintf(&b, "%q", e.Field)
		if e.Value != "" {
			fmt.Fprintf(&b, " is %s", e.Value)
		}
		b.WriteString(": ")
	}
	b.WriteString(e.Reason)
	return b.String()
}

// settingsField is one field of the file: its JSON name, how to read it into
// Settings, and how to write it out.
type settingsField struct {
	name  string
	read  func(s *Settings, raw json.RawMessage) error
	write func(s Settings) any
}

var settingsFields = []settingsField{
	{"roots", func(s *Settings, raw json.RawMessage) error {
		return readStrings(raw, &s.Roots)
	}, func(s Settings) any { return nonNil(s.Roots) }},
	{"allowedApps", func(s *Settings, raw json.RawMessage) error {
		return readStrings(raw, &s.AllowedApps)
	}, func(s Settings) any { return nonNil(s.AllowedApps) }},
	{"approvalTimeout", func(s *Settings, raw json.RawMessage) error {
		var v string
		if err := json.Unmarshal(raw, &v); err != nil {
			return errors.New(`must be a duration in quotes, like "5m" or "90s"`)
		}
		d, err := time.ParseDuration(v)
		if err != nil {
			return errors.New(`is not a duration (write it like "5m" or "90s")`)
		}
		s.ApprovalTimeout = d
		return nil
	}, func(s Settings) any { return s.ApprovalTimeout.String() }},
	{"autonomy", func(s *Settings, raw json.RawMessage) error {
		var n int
		if err := json.Unmarshal(raw, &n); err != nil {
			return errors.New("must be 0, 1 or 2")
		}
		s.Autonomy = Autonomy(n)
		return nil
	}, func(s Settings) any { return int(s.Autonomy) }},
	{"killHotkey", func(s *Settings, raw json.RawMessage) error {
		var v string
		if err := json.Unmarshal(raw, &v); err != nil {
			return errors.New(`must be a key combination in quotes, like "ctrl+option+cmd+k", or "none"`)
		}
		h, err := ParseHotkey(v)
		if err != nil {
			return errors.New(strings.TrimPrefix(err.Error(), ErrBadHotkey.Error()+": "))
		}
		s.KillHotkey = h
		return nil
	}, func(s Settings) any { return s.KillHotkey.String() }},
	{"llmEndpoint", func(s *Settings, raw json.RawMessage) error {
		return readString(raw, &s.LLMEndpoint)
	}, func(s Settings) any { return s.LLMEndpoint }},
	{"llmApi", func(s *Settings, raw json.RawMessage) error {
		return readString(raw, &s.LLMAPI)
	}, func(s Settings) any { return s.LLMAPI }},
	{"llmModel", func(s *Settings, raw json.RawMessage) error {
		return readString(raw, &s.LLMModel)
	}, func(s Settings) any { return s.LLMModel }},
	{"llmApiKey", func(s *Settings, raw json.RawMessage) error {
		return readString(raw, &s.LLMKeyName)
	}, func(s Settings) any { return s.LLMKeyName }},
	{"automationEnabled", func(s *Settings, raw json.RawMessage) error {
		if bytes.Equal(bytes.TrimSpace(raw), []byte("null")) || json.Unmarshal(raw, &s.AutomationEnabled) != nil {
			return errors.New("must be true (automations run on their schedules) or false (none does)")
		}
		return nil
	}, func(s Settings) any { return s.AutomationEnabled }},
	{"automations", func(s *Settings, raw json.RawMessage) error {
		list, err := automation.DecodeList(raw)
		if err != nil {
			return err
		}
		s.Automations = nil // none is nil, as in DefaultSettings
		if len(list) > 0 {
			s.Automations = list
		}
		return nil
	}, func(s Settings) any {
		b, err := automation.EncodeList(s.Automations, "  ")
		if err != nil {
			return err
		}
		return written{raw: b}
	}},
	{"rules", func(s *Settings, raw json.RawMessage) error {
		rs, err := DecodeRules(raw)
		if err != nil {
			return err
		}
		s.Rules = rs // nil for none, as in DefaultSettings
		return nil
	}, func(s Settings) any {
		b, err := EncodeRules(s.Rules, "  ")
		if err != nil {
			return err
		}
		return written{raw: b}
	}},
}

func readString(raw json.RawMessage, dst *string) error {
	if len(bytes.TrimSpace(raw)) == 0 || bytes.TrimSpace(raw)[0] != '"' || json.Unmarshal(raw, dst) != nil {
		return errors.New(`must be a string in quotes ("" for the default)`)
	}
	return nil
}

func readStrings(raw json.RawMessage, dst *[]string) error {
	var v []string
	if bytes.Equal(bytes.TrimSpace(raw), []byte("null")) || json.Unmarshal(raw, &v) != nil {
		return errors.New("must be a list of strings")
	}
	*dst = nonNil(v)
	return nil
}

func nonNil(v []string) []string {
	if v == nil {
		return []string{}
	}
	return v
}

// Validate checks every field and returns a *SettingsError for the first bad
// one. Roots are checked as the sandbox will use them, against the current
// user's home: each must be absolute or start with ~, and none may be or lie
// in a system folder, a credential store or a persistence location.
func (s Settings) Validate() error {
	home, err := os.UserHomeDir()
	if err != nil {
		return fmt.Errorf("checking the sandbox roots: %w", err)
	}
	return s.validate(filepath.Clean(home))
}

func (s Settings) validate(home string) error {
	bad := func(field string, value any, reason string) error {
		b, _ := json.Marshal(value)
		return &SettingsError{Field: field, Value: sanitize.Display(string(b)), Reason: reason}
	}
	if err := sanitize.List("roots", s.Roots); err != nil {
		return bad("roots", len(s.Roots), "has more than 100 entries")
	}
	for i, r := range s.Roots {
		field := fmt.Sprintf("roots[%d]", i)
		if r == "" {
			return bad(field, r, "is empty")
		}
		if err := sanitize.Strict("path", r); err != nil {
			return bad(field, r, refusalDetail(err))
		}
		if _, err := sanitize.NewConfig(home, []string{r}); err != nil {
			return bad(field, r, refusalDetail(err))
		}
	}
	if err := sanitize.List("allowedApps", s.AllowedApps); err != nil {
		return bad("allowedApps", len(s.AllowedApps), "has more than 100 entries")
	}
	for i, a := range s.AllowedApps {
		field := fmt.Sprintf("allowedApps[%d]", i)
		switch {
		case strings.TrimSpace(a) == "":
			return bad(field, a, "is empty")
		case a == sanitize.AnyApp && len(s.AllowedApps) > 1:
			return bad(field, a, `means any app, so it must be the only entry (["*"]); remove it or the others`)
		case a == sanitize.AnyApp:
			continue
		}
		if err := sanitize.AppName(a); err != nil {
			return bad(field, a, refusalDetail(err))
		}
		for j, b := range s.AllowedApps[:i] {
			if sanitize.SameApp(a, b) {
				return bad(field, a, fmt.Sprintf("repeats allowedApps[%d] (%s)", j, sanitize.Display(b)))
			}
		}
	}
	if t := s.ApprovalTimeout; t < MinApprovalTimeout || t > MaxApprovalTimeout {
		return bad("approvalTimeout", t.String(), fmt.Sprintf("must be between %v and %v", MinApprovalTimeout, MaxApprovalTimeout))
	}
	if !s.Autonomy.Valid() {
		return bad("autonomy", int(s.Autonomy), "must be 0 (ask all), 1 (smart default) or 2 (full auto)")
	}
	if !s.KillHotkey.Valid() {
		return bad("killHotkey", s.KillHotkey.String(), "is not a combination of two or more modifiers (one of them ctrl, option or cmd) and a letter, digit or f1 to f20")
	}
	if s.LLMEndpoint != "" {
		if _, err := llm.ParseEndpoint(s.LLMEndpoint); err != nil {
			reason := "must be an https:// URL (http:// only to localhost, 127.0.0.0/8 or ::1) without a user, query or fragment"
			if errors.Is(err, llm.ErrInsecureEndpoint) {
				reason = "must use https: only a server on this machine (localhost, 127.0.0.0/8, ::1) may use http"
			}
			return bad("llmEndpoint", s.LLMEndpoint, reason)
		}
	}
	if _, err := llm.ParseAPI(s.LLMAPI); err != nil {
		return bad("llmApi", s.LLMAPI, `must be "ollama", "openai" or "" (find out)`)
	}
	if s.LLMModel != "" && !llm.ValidModelName(s.LLMModel) {
		return bad("llmModel", s.LLMModel, "must be up to 200 letters, digits and . _ : / - @ +")
	}
	if s.LLMKeyName != "" && !llm.ValidKeyName(s.LLMKeyName) {
		return bad("llmApiKey", s.LLMKeyName, "must name a key: up to 64 letters, digits and . _ -")
	}
	if err := automation.ValidateList(s.Automations); err != nil {
		var fe *automation.FieldError
		if errors.As(err, &fe) {
			return &SettingsError{Field: "automations" + fe.Field, Value: fe.Value, Reason: fe.Reason}
		}
		return err
	}
	if err := ValidateRules(s.Rules); err != nil {
		var fe *automation.FieldError
		if errors.As(err, &fe) {
			return &SettingsError{Field: "rules" + fe.Field, Value: fe.Value, Reason: fe.Reason}
		}
		return err
	}
	return nil
}

// refusalDetail is a sanitize refusal's reason without the argument, which
// the settings error already shows.
func refusalDetail(err error) string {
	var r *sanitize.Refusal
	if errors.As(err, &r) && r.Detail != "" {
		return r.Detail
	}
	return err.Error()
}

// LoadSettings reads and validates the settings file. A missing file gives
// DefaultSettings; a field the file leaves out keeps its default. Anything
// else that is wrong — a file others may write, bad JSON, an unknown or
// repeated field, a value of the wrong type or out of range — is an error
// (a *SettingsError for the file's content) naming the file, the field, the
// value and, where it can, the line. It never falls back to the defaults for
// a file it cannot use.
func LoadSettings(path string) (Settings, error) {
	f, err := os.Open(path)
	if errors.Is(err, fs.ErrNotExist) {
		return DefaultSettings(), nil
	}
	if err != nil {
		return Settings{}, fmt.Errorf("reading settings: %w", err)
	}
	defer f.Close()
	fi, err := f.Stat()
	if err != nil {
		return Settings{}, fmt.Errorf("reading settings: %w", err)
	}
	if !fi.Mode().IsRegular() {
		return Settings{}, &SettingsError{File: path, Reason: "is not a regular file"}
	}
	if fi.Mode().Perm()&0o022 != 0 {
		return Settings{}, &SettingsError{File: path, Reason: fmt.Sprintf("may be changed by other users (mode %v); make it 0600", fi.Mode().Perm())}
	}
	data, err := io.ReadAll(io.LimitReader(f, maxSettingsBytes+1))
	if err != nil {
		return Settings{}, fmt.Errorf("reading settings: %w", err)
	}
	if len(data) > maxSettingsBytes {
		return Settings{}, &SettingsError{File: path, Reason: fmt.Sprintf("is larger than %d bytes", maxSettingsBytes)}
	}
	s, err := ParseSettings(data)
	if err != nil {
		var se *SettingsError
		if errors.As(err, &se) {
			se.File = path
		}
		return Settings{}, err
	}
	return s, nil
}

// ParseSettings decodes and validates the content of a settings file; see
// LoadSettings.
func ParseSettings(data []byte) (Settings, error) {
	s := DefaultSettings()
	fields := map[string]written{}
	if err := decodeSettings(data, &s, fields); err != nil {
		return Settings{}, err
	}
	if err := s.Validate(); err != nil {
		var se *SettingsError
		if errors.As(err, &se) {
			name, _, indexed := strings.Cut(se.Field, "[")
			w := fields[name]
			se.Line = w.line
			if !indexed && w.value != "" {
				se.Value = w.value // as the file spells it: "2h", not "2h0m0s"
			}
		}
		return Settings{}, err
	}
	return s, nil
}

// written is where and how the file wrote a field; as a field's write
// value, raw is its JSON as it is to be written (indented).
type written struct {
	line  int
	value string // escaped for display
	raw   []byte
}

// decodeSettings reads the top-level object field by field, so that an error
// can name the line, and a repeated field is refused rather than silently
// taking its last value.
func decodeSettings(data []byte, s *Settings, fields map[string]written) error {
	dec := json.NewDecoder(bytes.NewReader(data))
	lineAt := func(off int64) int { return 1 + bytes.Count(data[:min(int(off), len(data))], []byte("\n")) }
	syntax := func(err error) error {
		se := &SettingsError{Reason: "is not valid JSON: " + err.Error()}
		var sx *json.SyntaxError
		if errors.As(err, &sx) {
			se.Line = lineAt(sx.Offset)
		} else {
			se.Line = lineAt(dec.InputOffset())
		}
		return se
	}
	tok, err := dec.Token()
	if err == io.EOF {
		return &SettingsError{Line: 1, Reason: "is empty; write {} for the defaults"}
	}
	if err != nil {
		return syntax(err)
	}
	if d, ok := tok.(json.Delim); !ok || d != '{' {
		return &SettingsError{Line: lineAt(dec.InputOffset()), Reason: "must hold one JSON object"}
	}
	for dec.More() {
		tok, err := dec.Token()
		if err != nil {
			return syntax(err)
		}
		name, _ := tok.(string)
		line := lineAt(dec.InputOffset())
		var raw json.RawMessage
		if err := dec.Decode(&raw); err != nil {
			return syntax(err)
		}
		value := sanitize.Display(string(raw))
		if first, dup := fields[name]; dup {
			return &SettingsError{Line: line, Field: name, Value: value, Reason: fmt.Sprintf("repeats the field of line %d", first.line)}
		}
		fields[name] = written{line: line, value: value}
		var field *settingsField
		for i := range settingsFields {
			if settingsFields[i].name == name {
				field = &settingsFields[i]
			}
		}
		if field == nil {
			known := make([]string, len(settingsFields))
			for i, f := range settingsFields {
				known[i] = f.name
			}
			return &SettingsError{Line: line, Field: name, Value: value, Reason: "is not a setting (known: " + strings.Join(known, ", ") + ")"}
		}
		if err := field.read(s, raw); err != nil {
			var fe *automation.FieldError
			if errors.As(err, &fe) {
				// Within the value: its own line, field and value.
				start := dec.InputOffset() - int64(len(raw))
				return &SettingsError{Line: lineAt(start + int64(max(fe.Offset, 0))), Field: name + fe.Field, Value: fe.Value, Reason: fe.Reason}
			}
			return &SettingsError{Line: line, Field: name, Value: value, Reason: err.Error()}
		}
	}
	if _, err := dec.Token(); err != nil {
		return syntax(err)
	}
	if _, err := dec.Token(); err != io.EOF {
		return &SettingsError{Line: lineAt(dec.InputOffset()), Reason: "has more after its object"}
	}
	return nil
}

// MarshalSettings writes s as SettingsFile holds it, after validating it.
func MarshalSettings(s Settings) ([]byte, error) {
	if err := s.Validate(); err != nil {
		return nil, err
	}
	var b bytes.Buffer
	b.WriteString("{\n")
	for i, f := range settingsFields {
		var v []byte
		switch w := f.write(s).(type) {
		case written:
			v = w.raw
		case error:
			return nil, fmt.Errorf("writing settings: %w", w)
		default:
			var err error
			if v, err = json.Marshal(w); err != nil {
				return nil, fmt.Errorf("writing settings: %w", err)
			}
		}
		fmt.Fprintf(&b, "  %q: %s", f.name, v)
		if i < len(settingsFields)-1 {
			b.WriteByte(',')
		}
		b.WriteByte('\n')
	}
	b.WriteString("}\n")
	if b.Len() > maxSettingsBytes {
		// LoadSettings would refuse it, and Airlock would not start.
		return nil, &SettingsError{Reason: fmt.Sprintf("would be larger than %d bytes (remove an automation or shorten its plan)", maxSettingsBytes)}
	}
	return b.Bytes(), nil
}

// SaveSettings validates s and writes it to path atomically: a temporary file
// in the same folder, mode 0600, synced, then renamed over path. The folder
// must exist.
func SaveSettings(path string, s Settings) error {
	data, err := MarshalSettings(s)
	if err != nil {
		var se *SettingsError
		if errors.As(err, &se) {
			se.File = path
		}
		return err
	}
	dir := filepath.Dir(path)
	tmp, err := os.CreateTemp(dir, "."+filepath.Base(path)+".*.tmp")
	if err != nil {
		return fmt.Errorf("saving settings: %w", err)
	}
	done := false
	defer func() {
		if !done {
			tmp.Close()
			os.Remove(tmp.Name())
		}
	}()
	if err := tmp.Chmod(0o600); err != nil {
		return fmt.Errorf("saving settings: %w", err)
	}
	if _, err := tmp.Write(data); err != nil {
		return fmt.Errorf("saving settings: %w", err)
	}
	if err := tmp.Sync(); err != nil {
		return fmt.Errorf("saving settings: %w", err)
	}
	if err := tmp.Close(); err != nil {
		return fmt.Errorf("saving settings: %w", err)
	}
	if err := os.Rename(tmp.Name(), path); err != nil {
		return fmt.Errorf("saving settings: %w", err)
	}
	done = true
	if d, err := os.Open(dir); err == nil {
		d.Sync()
		d.Close()
	}
	return nil
}
