package automation

import (
	"bytes"
	"encoding/json"
	"errors"
	"fmt"
	"strings"
	"time"

	"github.com/airlockhq/airlock/app/internal/sanitize"
)

// The members of an automation in settings.json, in the order they are
// written.
var members = []string{"name", "ask", "run", "schedule", "cooldown", "enabled"}

// DecodeList reads the "automations" value of settings.json: a list of
// objects such as
//
//	{"name": "morning notes", "ask": "open today's notes", "schedule": "weekdays 09:00"}
//	{"name": "tidy", "run": ["CREATE_FOLDER \"~/Documents/Inbox\""], "schedule": "every 2h", "cooldown": "30m", "enabled": false}
//
// "run" is the plan as one string or as a list of its lines. "cooldown"
// defaults to DefaultCooldownFor the schedule, "enabled" to true. Unknown
// or repeated members are refused. The error is a *FieldError whose Offset
// is the byte offset in raw of what is wrong.
func DecodeList(raw []byte) ([]Automation, error) {
	dec := json.NewDecoder(bytes.NewReader(raw))
	fail := func(off int64, field, value, reason string) error {
		return &FieldError{Field: field, Value: value, Reason: reason, Offset: int(off)}
	}
	syntax := func(err error) error {
		var sx *json.SyntaxError
		if errors.As(err, &sx) {
			return fail(sx.Offset, "", "", "is not valid JSON: "+err.Error())
		}
		return fail(dec.InputOffset(), "", "", "is not valid JSON: "+err.Error())
	}
	tok, err := dec.Token()
	if err != nil {
		return nil, syntax(err)
	}
	if tok != json.Delim('[') {
		return nil, fail(0, "", "", `must be a list of automations: [{"name": …, "ask" or "run": …, "schedule": …}]`)
	}
	list := []Automation{}
	names := map[string]int{}
	for i := 0; dec.More(); i++ {
		start := dec.InputOffset()
		if i == MaxAutomations {
			return nil, fail(start, "", "", fmt.Sprintf("has more than %d automations", MaxAutomations))
		}
		a, nameAt, err := decodeOne(dec, i)
		if err != nil {
			return nil, err
		}
		if j, dup := names[strings.ToLower(a.Name)]; dup {
			return nil, fail(nameAt, fmt.Sprintf("[%d].name", i), quoteDisplay(a.Name), fmt.Sprintf("repeats the name of automation [%d]", j))
		}
		names[strings.ToLower(a.Name)] = i
		list = append(list, a)
	}
	if _, err := dec.Token(); err != nil {
		return nil, syntax(err)
	}
	return list, nil
}

// decodeOne reads the i-th automation of the list dec reads, and returns
// it with the offset of its name.
func decodeOne(dec *json.Decoder, i int) (Automation, int64, error) {
	at := func(field string) string { return fmt.Sprintf("[%d]%s", i, field) }
	tok, err := dec.Token()
	start := dec.InputOffset()
	if err != nil {
		return Automation{}, 0, &FieldError{Field: at(""), Reason: "is not valid JSON: " + err.Error(), Offset: int(start)}
	}
	if tok != json.Delim('{') {
		return Automation{}, 0, &FieldError{Field: at(""), Reason: `must be an object: {"name": …, "ask" or "run": …, "schedule": …}`, Offset: int(start)}
	}
	a := Automation{Enabled: true}
	seen := map[string]int64{}
	var cooldown *time.Duration
	var schedule int64 = -1
	for dec.More() {
		tok, err := dec.Token()
		if err != nil {
			return Automation{}, 0, &FieldError{Field: at(""), Reason: "is not valid JSON: " + err.Error(), Offset: int(dec.InputOffset())}
		}
		name, _ := tok.(string)
		off := dec.InputOffset()
		var v json.RawMessage
		if err := dec.Decode(&v); err != nil {
			return Automation{}, 0, &FieldError{Field: at("." + name), Reason: "is not valid JSON: " + err.Error(), Offset: int(off)}
		}
		shown := sanitize.Display(string(v))
		bad := func(reason string) error {
			return &FieldError{Field: at("." + name), Value: shown, Reason: reason, Offset: int(off)}
		}
		if _, dup := seen[name]; dup {
			return Automation{}, 0, bad("is written twice")
		}
		seen[name] = off
		switch name {
		case "name":
			if err := readString(v, &a.Name); err != nil {
				return Automation{}, 0, bad(err.Error())
			}
		case "ask":
			if err := readString(v, &a.Ask); err != nil {
				return Automation{}, 0, bad(err.Error())
			}
		case "run":
			plan, err := readPlan(v)
			if err != nil {
				return Automation{}, 0, bad(err.Error())
			}
			a.Run = plan
		case "schedule":
			var s string
			if err := readString(v, &s); err != nil {
				return Automation{}, 0, bad(err.Error())
			}
			if a.Schedule, err = ParseSchedule(s); err != nil {
				return Automation{}, 0, bad(err.Error())
			}
			schedule = off
		case "cooldown":
			var s string
			if err := readString(v, &s); err != nil {
				return Automation{}, 0, bad(`must be a duration in quotes, like "30m" or "2h"`)
			}
			d, err := time.ParseDuration(s)
			if err != nil {
				return Automation{}, 0, bad(`is not a duration: write it like "30m", "2h" or "0s" for none`)
			}
			cooldown = &d
		case "enabled":
			if err := json.Unmarshal(v, &a.Enabled); err != nil || bytes.Equal(bytes.TrimSpace(v), []byte("null")) {
				return Automation{}, 0, bad("must be true or false")
			}
		default:
			return Automation{}, 0, bad("is not a member of an automation (known: " + strings.Join(members, ", ") + ")")
		}
	}
	if _, err := dec.Token(); err != nil { // the closing brace
		return Automation{}, 0, &FieldError{Field: at(""), Reason: "is not valid JSON: " + err.Error(), Offset: int(dec.InputOffset())}
	}
	if schedule < 0 {
		return Automation{}, 0, &FieldError{Field: at(""), Reason: `has no "schedule": ` + scheduleHelp, Offset: int(start)}
	}
	a.Cooldown = DefaultCooldownFor(a.Schedule)
	if cooldown != nil {
		a.Cooldown = *cooldown
	}
	if err := a.Validate(); err != nil {
		var fe *FieldError
		if errors.As(err, &fe) {
			fe.Offset = int(start)
			if off, ok := seen[strings.TrimPrefix(fe.Field, ".")]; ok {
				fe.Offset = int(off)
			}
			fe.Field = at(fe.Field)
		}
		return Automation{}, 0, err
	}
	return a, seen["name"], nil
}

func readString(v json.RawMessage, dst *string) error {
	if len(v) == 0 || v[0] != '"' || json.Unmarshal(v, dst) != nil {
		return errors.New("must be a string in quotes")
	}
	return nil
}

// readPlan reads "run": one string, or a list of the plan's lines.
func readPlan(v json.RawMessage) (string, error) {
	var s string
	if readString(v, &s) == nil {
		return s, nil
	}
	var lines []string
	if len(v) == 0 || v[0] != '[' || json.Unmarshal(v, &lines) != nil {
		return "", errors.New("must be the plan as a string, or as a list of its lines (strings)")
	}
	for _, l := range lines {
		if strings.ContainsAny(l, "\n") {
			return "", errors.New("has a line with a line break in it: give each line of the plan as its own string")
		}
	}
	return strings.Join(lines, "\n"), nil
}

// jsonAutomation is how an automation is written to settings.json.
type jsonAutomation struct {
	Name     string   `json:"name"`
	Ask      string   `json:"ask,omitempty"`
	Run      []string `json:"run,omitempty"`
	Schedule string   `json:"schedule"`
	Cooldown string   `json:"cooldown"`
	Enabled  bool     `json:"enabled"`
}

// EncodeList writes list as settings.json holds it, one automation after
// another, indented by indent, a plan as the list of its lines so that it
// reads (and can be edited) as it runs. DecodeList(EncodeList(list)) gives
// list back.
func EncodeList(list []Automation, indent string) ([]byte, error) {
	out := make([]jsonAutomation, len(list))
	for i, a := range list {
		out[i] = jsonAutomation{Name: a.Name, Ask: a.Ask, Schedule: a.Schedule.String(), Cooldown: formatDuration(a.Cooldown), Enabled: a.Enabled}
		if a.Run != "" {
			out[i].Run = strings.Split(a.Run, "\n")
		}
	}
	var b bytes.Buffer
	enc := json.NewEncoder(&b)
	enc.SetEscapeHTML(false)
	enc.SetIndent(indent, "  ")
	if err := enc.Encode(out); err != nil {
		return nil, fmt.Errorf("writing the automations: %w", err)
	}
	return bytes.TrimRight(b.Bytes(), "\n"), nil
}
