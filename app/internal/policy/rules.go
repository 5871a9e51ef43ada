package policy

import (
	"bytes"
	"encoding/hex"
	"encoding/json"
	"errors"
	"fmt"
	"path/filepath"
	"sort"
	"strings"
	"unicode"
	"unicode/utf8"

	"github.com/airlockhq/airlock/app/internal/automation"
	"github.com/airlockhq/airlock/app/internal/level"
	"github.com/airlockhq/airlock/app/internal/risk"
	"github.com/airlockhq/airlock/app/internal/sanitize"
)

// RuleDecision is what one of the person's rules decides for the commands
// it matches. A larger value is stricter: when several rules match, the
// strictest decides (deny over ask over allow).
type RuleDecision int

const (
	RuleAllow RuleDecision = iota + 1 // run unasked what would be asked about (never destructive or blocked)
	RuleAsk                           // ask about what would run unasked
	RuleDeny                          // refuse, before anyone is asked
)

var ruleDecisionNames = map[RuleDecision]string{RuleAllow: "allow", RuleAsk: "ask", RuleDeny: "deny"}

func (d RuleDecision) String() string {
	if n, ok := ruleDecisionNames[d]; ok {
		return n
	}
	return fmt.Sprintf("ruleDecision(%d)", int(d))
}

// Limits of the rules, checked when settings.json is read.
const (
	MaxRules        = 500  // the person's rules: more would be hard to read and slow every command
	maxRulePrefix   = 64   // words of one prefix
	maxRuleWord     = 1024 // bytes of one word of a prefix, a client name or a folder
	maxRuleWhy      = 500  // bytes of a rule's note
	maxRulePins     = 64   // files one allow rule pins (a grant pins at most maxPins)
	ruleKindCommand = "command"
)

// ErrRuleNotCovering is wrapped by Rule.Covers's error when an allow rule
// matches a command but may not let it run unasked: it is destructive, the
// rule names a client whose program is not verified, Airlock cannot name
// the files it runs, or the rule does not pin one of them. The command is
// asked about. A pinned file that changed wraps ErrLapsed instead.
var ErrRuleNotCovering = errors.New("your allow rule does not cover it")

// Rule is one of the person's lasting rules (settings.json's "rules"), on
// the model of Codex CLI's prefix rules: it matches a command whose argv
// starts with Prefix, optionally only from one client, only of one kind,
// and only run in one folder or below.
//
// Only commands are matched in this version (Kind is "" or "command"):
// plans and scripts are text, and matching their words would be either too
// loose for an allow rule or too easy to dodge for a deny rule.
//
// A deny or ask rule is a convenience, not a boundary: the agent chooses
// the words it submits (sh -c "git push" does not start with git push), and
// the analyzer and the sandbox judge every command whatever the rules say.
// An allow rule is the person's lasting yes and is held as tightly as a
// grant: never for a destructive or blocked command, never for an
// unverified program when it names a client, and only while every file the
// command runs holds what Pins says.
type Rule struct {
	Decision RuleDecision
	// Prefix is the program and the first arguments. A program without a
	// slash matches by its base name (git matches /usr/bin/git); one with
	// a slash (absolute, or ~/…) matches only that file, and the base
	// names must agree as well. The arguments match word for word, ~ and
	// ~/… expanded as the gate expands them.
	Prefix []string
	// Client, when set, is the name the client gives itself (Submission.Client).
	Client string
	// Program, when set, is the verified program (Identity.Key) the rule
	// holds for, and for no other, whatever name it gives itself. The
	// popup's "always allow here" sets it: the person approved one
	// program's request, and a name is any program's to claim.
	Program string
	// Kind is "" or "command".
	Kind string
	// Dir, when set, is the folder (absolute or ~/…) the command must run
	// in, or below.
	Dir string
	// Why is the person's note, shown with the decision.
	Why string
	// Pins are, for an allow rule, the files the commands it covers run,
	// each with the hex SHA-256 of its content ("" for a file that must be
	// absent), as they were when the person wrote the rule
	// (`airlock rules test` prints them). The folder of a script whose
	// interpreter loads code beside it (risk.Runs.Folders) is pinned by
	// its path with the digest of that code (folderSum).
	Pins map[string]string
}

// Rules are the person's rules in the order settings.json lists them.
type Rules []Rule

// RuleCommand is a command as the rules see it.
type RuleCommand struct {
	// Argv is the command; its program as the gate resolved it on the
	// caller's PATH (a full path), or a bare name when no PATH was given.
	Argv []string
	// Dir is the absolute folder it runs in (the home when it runs there).
	Dir string
	// Client is the name the client gave itself; Verified says whether the
	// operating system vouched for its program (Identity.Verified), and
	// Program is that program's Identity.Key ("" when not verified).
	Client   string
	Verified bool
	Program  string
}

// RuleMatch is the rule that decides a command: its number as the person
// counts it (from 1, as `airlock rules list` shows) and the rule.
type RuleMatch struct {
	N    int
	Rule Rule
}

// Reason says, for the person, what the rule decided and why.
func (m RuleMatch) Reason() string {
	var s string
	switch m.Rule.Decision {
	case RuleDeny:
		s = fmt.Sprintf("denied by your rule %d", m.N)
	case RuleAsk:
		s = fmt.Sprintf("your rule %d asks about it every time", m.N)
	default:
		s = fmt.Sprintf("allowed by your rule %d", m.N)
	}
	if m.Rule.Why != "" {
		s += ": " + m.Rule.Why
	}
	return s
}

// Match returns the rule that decides c: of the rules that match it, the
// strictest, and of equally strict ones the first. home is what ~ in a
// rule names. ok is false when no rule matches.
func (rs Rules) Match(c RuleCommand, home string) (m RuleMatch, ok bool) {
	for i, r := range rs {
		if !r.matches(c, home) {
			continue
		}
		if !ok || r.Decision > m.Rule.Decision {
			m, ok = RuleMatch{N: i + 1, Rule: r}, true
		}
	}
	return m, ok
}

// matches says whether the rule's scope and prefix take in c. Where the
// command's program is not known by its full path (no PATH was given), a
// rule naming a full path matches it by its base name if it denies or
// asks (the stricter reading) and never if it allows.
func (r Rule) matches(c RuleCommand, home string) bool {
	if len(r.Prefix) == 0 || len(c.Argv) < len(r.Prefix) || (r.Kind != "" && r.Kind != ruleKindCommand) {
		return false
	}
	if r.Client != "" && r.Client != c.Client {
		return false
	}
	if r.Program != "" && r.Program != c.Program {
		return false
	}
	if r.Dir != "" && !inFolder(c.Dir, expandTilde(r.Dir, home)) {
		return false
	}
	prog, want := c.Argv[0], expandTilde(r.Prefix[0], home)
	if strings.Contains(prog, "/") && !filepath.IsAbs(prog) && c.Dir != "" {
		prog = filepath.Join(c.Dir, prog)
	}
	if filepath.Base(prog) != filepath.Base(want) {
		return false
	}
	if strings.Contains(want, "/") {
		switch {
		case !strings.Contains(prog, "/"):
			if r.Decision == RuleAllow {
				return false
			}
		case !samePath(prog, want):
			return false
		}
	}
	for k := 1; k < len(r.Prefix); k++ {
		if c.Argv[k] != expandTilde(r.Prefix[k], home) {
			return false
		}
	}
	return true
}

// Covers returns nil when the allow rule r lets command c, which runs runs
// at risk lvl, run unasked: lvl is below destructive and not blocked, the
// client's program is verified if r names a client, Airlock named every
// file c runs, r pins each of them, and each holds now what r pins (read
// again here: call it when deciding and again right before c starts).
// Otherwise the error, for the person, wraps ErrLapsed (a pinned file
// changed, was removed or put in place) or ErrRuleNotCovering.
func (r Rule) Covers(c RuleCommand, runs risk.Runs, lvl level.Level) error {
	switch {
	case r.Decision != RuleAllow:
		return fmt.Errorf("%w: it is a %s rule", ErrRuleNotCovering, r.Decision)
	case lvl >= level.Destructive || lvl < level.Safe:
		return fmt.Errorf("%w: a %s action needs its own approval every time", ErrRuleNotCovering, lvl)
	case r.Client != "" && !c.Verified:
		return fmt.Errorf("%w: it names a client, and this client's program is not verified", ErrRuleNotCovering)
	case !runs.Known:
		why := runs.Why
		if why == "" {
			why = "Airlock cannot name the files it runs"
		}
		return fmt.Errorf("%w: %s", ErrRuleNotCovering, why)
	}
	for _, p := range append(append([]string(nil), runs.Files...), runs.Optional...) {
		sum, ok := r.Pins[p]
		if !ok {
			return fmt.Errorf("%w: it does not pin %s, which the command runs (`airlock rules test -- COMMAND` prints the pins to add)", ErrRuleNotCovering, p)
		}
		if err := (Pin{Path: p, Sum: sum}).check("the rule pinned it"); err != nil {
			return err
		}
	}
	for _, f := range runs.Folders {
		dir := filepath.Dir(f.Script)
		sum, ok := r.Pins[dir]
		if !ok || sum == "" {
			return fmt.Errorf("%w: it does not pin the folder %s, whose %s files the command can load (`airlock rules test -- COMMAND` prints the pins to add)", ErrRuleNotCovering, dir, f.Lang)
		}
		loads := f
		if err := (Pin{Path: dir, Sum: sum, Loads: &loads}).check("the rule pinned it"); err != nil {
			return err
		}
	}
	return nil
}

// RulePins returns what the files runs names hold now, as an allow rule's
// "pins" are written: path → hex SHA-256, "" for an optional file that is
// absent. Its error says why they cannot be pinned (not Known, a file
// missing, not regular or too large, too many).
func RulePins(runs risk.Runs) (map[string]string, error) {
	if !runs.Known {
		why := runs.Why
		if why == "" {
			why = "Airlock cannot name the files it runs"
		}
		return nil, errors.New(why)
	}
	if n := len(runs.Files) + len(runs.Optional) + len(runs.Folders); n > maxRulePins {
		return nil, fmt.Errorf("it runs %d files and folders; a rule pins at most %d", n, maxRulePins)
	}
	pins, err := pinRuns(runs)
	if err != nil {
		return nil, err
	}
	out := make(map[string]string, len(pins))
	for _, p := range pins {
		if _, dup := out[p.Path]; dup {
			return nil, fmt.Errorf("%s is pinned twice (a file and the folder of a script, or two scripts' folders); a rule cannot hold both", p.Path)
		}
		out[p.Path] = p.Sum
	}
	return out, nil
}

// expandTilde makes ~ and ~/… absolute under home, as the gate expands a
// command's words.
func expandTilde(s, home string) string {
	switch {
	case home == "":
		return s
	case s == "~":
		return home
	case strings.HasPrefix(s, "~/"):
		return filepath.Join(home, s[2:])
	}
	return s
}

// resolved is p with its links resolved, or p cleaned when it cannot be.
func resolved(p string) string {
	if r, err := filepath.EvalSymlinks(p); err == nil {
		return r
	}
	return filepath.Clean(p)
}

// samePath says whether a and b name the same file, as written or once
// their links are resolved (/bin/ls and /usr/bin/ls on a merged /usr).
func samePath(a, b string) bool {
	return filepath.Clean(a) == filepath.Clean(b) || resolved(a) == resolved(b)
}

// inFolder says whether dir (absolute, its links resolved) is folder or
// lies below it, folder read as written and with its links resolved.
func inFolder(dir, folder string) bool {
	if dir == "" {
		return false
	}
	for _, f := range []string{filepath.Clean(folder), resolved(folder)} {
		if dir == f || strings.HasPrefix(dir, strings.TrimSuffix(f, "/")+"/") {
			return true
		}
	}
	return false
}

// ruleFields are the fields of a rule object, in the order they are written.
var ruleFields = []string{"decision", "prefix", "client", "program", "kind", "dir", "why", "pins"}

// DecodeRules reads settings.json's "rules": a list of rule objects. Its
// errors are *automation.FieldError naming the rule ("[3]") and its field,
// with the offset in raw where the rule or field starts.
func DecodeRules(raw []byte) (Rules, error) {
	dec := json.NewDecoder(bytes.NewReader(raw))
	fail := func(off int64, field, value, reason string) error {
		return &automation.FieldError{Field: field, Value: value, Reason: reason, Offset: int(off)}
	}
	tok, err := dec.Token()
	if err != nil || tok != json.Delim('[') {
		return nil, fail(0, "", "", `must be a list of rules: [{"decision": "allow", "ask" or "deny", "prefix": ["git", "status"]}]`)
	}
	var rs Rules
	for i := 0; dec.More(); i++ {
		start := dec.InputOffset()
		if i == MaxRules {
			return nil, fail(start, "", "", fmt.Sprintf("has more than %d rules", MaxRules))
		}
		var fields map[string]json.RawMessage
		var order []string
		at := map[string]int64{}
		if err := decodeObject(dec, &fields, &order, at); err != nil {
			return nil, fail(start, fmt.Sprintf("[%d]", i), "", err.Error())
		}
		r, err := ruleFromFields(fields, order)
		if err == nil {
			err = validateRule(r)
		}
		if err != nil {
			var fe *automation.FieldError
			if errors.As(err, &fe) {
				off := start
				if o, ok := at[fe.Field]; ok {
					off = o
				}
				return nil, fail(off, fmt.Sprintf("[%d].%s", i, fe.Field), fe.Value, fe.Reason)
			}
			return nil, fail(start, fmt.Sprintf("[%d]", i), "", err.Error())
		}
		rs = append(rs, r)
	}
	if _, err := dec.Token(); err != nil {
		return nil, fail(dec.InputOffset(), "", "", "is not valid JSON: "+err.Error())
	}
	return rs, nil
}

// decodeObject reads one JSON object into fields, refusing a field given
// twice; order is the fields' order and at their offsets.
func decodeObject(dec *json.Decoder, fields *map[string]json.RawMessage, order *[]string, at map[string]int64) error {
	tok, err := dec.Token()
	if err != nil {
		return fmt.Errorf("is not valid JSON: %v", err)
	}
	if tok != json.Delim('{') {
		return errors.New(`must be an object: {"decision": …, "prefix": […]}`)
	}
	*fields = map[string]json.RawMessage{}
	for dec.More() {
		tok, err := dec.Token()
		if err != nil {
			return fmt.Errorf("is not valid JSON: %v", err)
		}
		name, _ := tok.(string)
		at[name] = dec.InputOffset()
		var raw json.RawMessage
		if err := dec.Decode(&raw); err != nil {
			return fmt.Errorf("is not valid JSON: %v", err)
		}
		if _, dup := (*fields)[name]; dup {
			return fmt.Errorf("repeats the field %q", name)
		}
		(*fields)[name] = raw
		*order = append(*order, name)
	}
	if _, err := dec.Token(); err != nil {
		return fmt.Errorf("is not valid JSON: %v", err)
	}
	return nil
}

// ruleFromFields reads a rule's fields by type; validateRule checks values.
func ruleFromFields(fields map[string]json.RawMessage, order []string) (Rule, error) {
	bad := func(field, reason string) error {
		return &automation.FieldError{Field: field, Value: sanitize.Display(string(fields[field])), Reason: reason}
	}
	var r Rule
	for _, name := range order {
		raw := fields[name]
		isNull := bytes.Equal(bytes.TrimSpace(raw), []byte("null"))
		switch name {
		case "decision":
			var s string
			if isNull || json.Unmarshal(raw, &s) != nil {
				return r, bad(name, `must be "allow", "ask" or "deny"`)
			}
			for d, n := range ruleDecisionNames {
				if s == n {
					r.Decision = d
				}
			}
			if r.Decision == 0 {
				return r, bad(name, `must be "allow", "ask" or "deny"`)
			}
		case "prefix":
			if isNull || json.Unmarshal(raw, &r.Prefix) != nil {
				return r, bad(name, `must be a list of words: the program and its first arguments, like ["git", "status"]`)
			}
		case "client", "program", "kind", "dir", "why":
			var s string
			if isNull || json.Unmarshal(raw, &s) != nil {
				return r, bad(name, "must be a string in quotes")
			}
			*map[string]*string{"client": &r.Client, "program": &r.Program, "kind": &r.Kind, "dir": &r.Dir, "why": &r.Why}[name] = s
		case "pins":
			if isNull || json.Unmarshal(raw, &r.Pins) != nil {
				return r, bad(name, `must be an object of paths and SHA-256 sums: {"/path/to/file": "…64 hex digits…"}`)
			}
		default:
			return r, bad(name, "is not a field of a rule (known: "+strings.Join(ruleFields, ", ")+")")
		}
	}
	if len(r.Pins) == 0 {
		r.Pins = nil // none, as it is written
	}
	if _, ok := fields["decision"]; !ok {
		return r, &automation.FieldError{Field: "decision", Reason: `is missing: write "allow", "ask" or "deny"`}
	}
	if _, ok := fields["prefix"]; !ok {
		return r, &automation.FieldError{Field: "prefix", Reason: `is missing: write the program and its first arguments, like ["git", "status"]`}
	}
	return r, nil
}

// ValidateRules checks every rule; its error is an *automation.FieldError
// naming the rule ("[3]") and the field.
func ValidateRules(rs Rules) error {
	if len(rs) > MaxRules {
		return &automation.FieldError{Reason: fmt.Sprintf("has %d rules; at most %d", len(rs), MaxRules)}
	}
	for i, r := range rs {
		if err := validateRule(r); err != nil {
			var fe *automation.FieldError
			if errors.As(err, &fe) {
				fe.Field = fmt.Sprintf("[%d].%s", i, fe.Field)
				return fe
			}
			return err
		}
	}
	return nil
}

// validateRule checks one rule's values; its error names the field alone.
func validateRule(r Rule) error {
	bad := func(field string, value any, reason string) error {
		b, _ := json.Marshal(value)
		return &automation.FieldError{Field: field, Value: sanitize.Display(string(b)), Reason: reason}
	}
	if _, ok := ruleDecisionNames[r.Decision]; !ok {
		return bad("decision", r.Decision.String(), `must be "allow", "ask" or "deny"`)
	}
	switch {
	case len(r.Prefix) == 0:
		return bad("prefix", r.Prefix, "is empty: name at least the program")
	case len(r.Prefix) > maxRulePrefix:
		return bad("prefix", len(r.Prefix), fmt.Sprintf("has more than %d words", maxRulePrefix))
	case r.Prefix[0] == "":
		return bad("prefix", r.Prefix, "names no program: its first word is empty")
	}
	for k, w := range r.Prefix {
		if err := ruleText(w, maxRuleWord); err != "" {
			return bad(fmt.Sprintf("prefix[%d]", k), w, err)
		}
	}
	if p := r.Prefix[0]; strings.Contains(p, "/") && !filepath.IsAbs(p) && !strings.HasPrefix(p, "~/") {
		return bad("prefix[0]", p, "is a relative path: name the program by its name (git), or by its full path (/usr/bin/git or ~/bin/tool)")
	}
	for _, f := range []struct{ name, v string }{{"client", r.Client}, {"program", r.Program}, {"dir", r.Dir}} {
		if err := ruleText(f.v, maxRuleWord); f.v != "" && err != "" {
			return bad(f.name, f.v, err)
		}
	}
	if err := ruleText(r.Why, maxRuleWhy); err != "" {
		return bad("why", r.Why, err)
	}
	if r.Kind != "" && r.Kind != ruleKindCommand {
		return bad("kind", r.Kind, `must be "command" (or left out): in this version rules decide commands only, not plans (dsl), AppleScript or JXA`)
	}
	if r.Dir != "" && r.Dir != "~" && !strings.HasPrefix(r.Dir, "~/") && !filepath.IsAbs(r.Dir) {
		return bad("dir", r.Dir, "is a relative path: write it from / or from ~ (~/Documents/project)")
	}
	if len(r.Pins) > 0 && r.Decision != RuleAllow {
		return bad("pins", len(r.Pins), "are only for an allow rule: a "+r.Decision.String()+" rule needs none")
	}
	if len(r.Pins) > maxRulePins {
		return bad("pins", len(r.Pins), fmt.Sprintf("has more than %d files", maxRulePins))
	}
	paths := make([]string, 0, len(r.Pins))
	for p := range r.Pins {
		paths = append(paths, p)
	}
	sort.Strings(paths)
	for _, p := range paths {
		if err := ruleText(p, maxRuleWord); err != "" {
			return bad("pins", p, err)
		}
		if !filepath.IsAbs(p) || filepath.Clean(p) != p {
			return bad("pins", p, "must name files by their absolute, clean paths")
		}
		if s := r.Pins[p]; s != "" {
			if b, err := hex.DecodeString(s); err != nil || len(b) != 32 || strings.ToLower(s) != s {
				return bad("pins", s, "must be a SHA-256 in 64 lowercase hex digits, or \"\" for a file that must be absent")
			}
		}
	}
	return nil
}

// ruleText returns why s cannot stand in a rule, or "": it is too long, not
// UTF-8, or holds a control or formatting character (which would show one
// thing and match another).
func ruleText(s string, max int) string {
	switch {
	case len(s) > max:
		return fmt.Sprintf("is longer than %d bytes", max)
	case !utf8.ValidString(s):
		return "is not UTF-8"
	}
	for _, c := range s {
		if unicode.IsControl(c) || unicode.Is(unicode.Cf, c) {
			return fmt.Sprintf("holds the control or formatting character %U", c)
		}
	}
	return ""
}

// ruleJSON is a rule as settings.json writes it.
type ruleJSON struct {
	Decision string            `json:"decision"`
	Prefix   []string          `json:"prefix"`
	Client   string            `json:"client,omitempty"`
	Program  string            `json:"program,omitempty"`
	Kind     string            `json:"kind,omitempty"`
	Dir      string            `json:"dir,omitempty"`
	Why      string            `json:"why,omitempty"`
	Pins     map[string]string `json:"pins,omitempty"`
}

// EncodeRules writes rs as settings.json's "rules", indented by indent
// within the file's object ("[]" for none).
func EncodeRules(rs Rules, indent string) ([]byte, error) {
	list := make([]ruleJSON, len(rs))
	for i, r := range rs {
		list[i] = ruleJSON{Decision: r.Decision.String(), Prefix: r.Prefix, Client: r.Client, Program: r.Program, Kind: r.Kind, Dir: r.Dir, Why: r.Why, Pins: r.Pins}
	}
	return json.MarshalIndent(list, indent, "  ")
}
