package main

import (
	"bufio"
	"context"
	"encoding/json"
	"fmt"
	"io"
	"path/filepath"
	"strings"

	"github.com/airlockhq/airlock/app/internal/datadir"
	"github.com/airlockhq/airlock/app/internal/gate"
	"github.com/airlockhq/airlock/app/internal/level"
	"github.com/airlockhq/airlock/app/internal/policy"
	"github.com/airlockhq/airlock/app/internal/risk"
	"github.com/airlockhq/airlock/app/internal/risk/rate"
	"github.com/airlockhq/airlock/bridge"
	"github.com/spf13/pflag"
)

type assessOptions struct {
	kind  string
	json  bool
	jsonl bool
}

// assessFlags declares airlock assess's flags.
func assessFlags(fs *pflag.FlagSet) runFunc {
	var opts assessOptions
	fs.StringVar(&opts.kind, "kind", "", "applescript, jxa, shell, dsl or path")
	fs.BoolVar(&opts.json, "json", false, "print the verdict as JSON")
	fs.BoolVar(&opts.jsonl, "jsonl", false, `read {"id","kind","input"} lines, write {"id","risk","reasons"} lines`)
	return func(ctx context.Context, fs *pflag.FlagSet, stdin io.Reader, stdout, stderr io.Writer) error {
		return cmdAssess(ctx, fs, opts, stdin, stdout, stderr)
	}
}

func cmdAssess(_ context.Context, fs *pflag.FlagSet, opts assessOptions, stdin io.Reader, stdout, stderr io.Writer) error {
	env, err := gateEnv()
	if err != nil {
		return err
	}
	if opts.jsonl {
		if fs.NArg() > 0 {
			return usagef("--jsonl reads standard input and takes no FILE")
		}
		return runAssessJSONL(stdin, stdout, env)
	}
	if fs.NArg() != 1 {
		return usagef("want one FILE or - for standard input")
	}
	name := fs.Arg(0)
	kind, err := pickKind(opts.kind, name)
	if err != nil {
		return usagef("%s", err)
	}
	src, err := readInput(name, stdin, 1<<20+10_000_000)
	if err != nil {
		return err
	}
	return runAssess(kind, src, opts.json, stdout, env)
}

// gateEnv is what the gate of this user's data directory rates against:
// its settings' sandbox roots (policy.LoadEnv), so that assess gives the
// verdict the gate would. A settings file the gate could not start with is
// an error here too.
func gateEnv() (*risk.Env, error) {
	dir, err := datadir.Data()
	if err != nil {
		return nil, err
	}
	env, _, err := policy.LoadEnv(dir)
	if err != nil {
		return nil, fmt.Errorf("reading the gate's settings (assess rates as the gate would): %w", err)
	}
	// Launches are rated by the program this machine would start for them,
	// as the gate resolves it.
	desk, err := bridge.NewDesktop(bridge.Options{})
	if err != nil {
		return nil, err
	}
	env.Launch = gate.Handlers(desk)
	return env, nil
}

// pickKind takes --kind, or guesses it from the file name.
func pickKind(flagKind, name string) (risk.Kind, error) {
	if flagKind != "" {
		return risk.ParseKind(flagKind)
	}
	switch strings.ToLower(filepath.Ext(name)) {
	case ".applescript", ".scpt", ".osa":
		return risk.KindAppleScript, nil
	case ".js", ".jxa":
		return risk.KindJXA, nil
	case ".sh", ".bash", ".zsh", ".command":
		return risk.KindShell, nil
	case ".plan", ".airlock", ".dsl":
		return risk.KindDSL, nil
	}
	return "", fmt.Errorf("cannot tell the kind of %q: give --kind applescript|jxa|shell|dsl|path", name)
}

func runAssess(kind risk.Kind, src string, asJSON bool, w io.Writer, env *risk.Env) error {
	v, _ := risk.AssessContext(context.Background(), kind, src, env)
	if asJSON {
		enc := json.NewEncoder(w)
		enc.SetIndent("", "  ")
		return enc.Encode(v)
	}
	fmt.Fprintln(w, v.Level)
	for _, r := range v.Reasons {
		where := ""
		if r.Span != (risk.Span{}) {
			where = fmt.Sprintf(" (line %d)", 1+strings.Count(src[:min(r.Span.Start, len(src))], "\n"))
		}
		fmt.Fprintf(w, "  %-11s %s%s\n", r.Level, r.Text, where)
		if r.Effect.Kind != 0 {
			// What the action does, in the vocabulary the calibration
			// table weighs: the reason's level is the table's for it.
			fmt.Fprintf(w, "  %-11s effect: %s\n", "", rate.Display(r.Effect.String()))
		}
	}
	return nil
}

type jsonlIn struct {
	ID    json.RawMessage `json:"id"`
	Kind  *string         `json:"kind"`
	Input *string         `json:"input"`
}

type jsonlOut struct {
	ID      json.RawMessage `json:"id"`
	Risk    level.Level     `json:"risk"`
	Reasons []string        `json:"reasons"`
}

type jsonlErr struct {
	ID    json.RawMessage `json:"id"`
	Error string          `json:"error"`
}

// runAssessJSONL is the measuring interface: one verdict line per input
// line, in order; a malformed line gets an error line and the stream goes
// on.
func runAssessJSONL(r io.Reader, w io.Writer, env *risk.Env) error {
	br := bufio.NewReaderSize(r, 1<<20)
	bw := bufio.NewWriter(w)
	defer bw.Flush()
	enc := json.NewEncoder(bw)
	enc.SetEscapeHTML(false)
	for n := 1; ; n++ {
		line, err := readLine(br, 1<<20+10_000_000+4096)
		if err == io.EOF && line == "" {
			return nil
		}
		if err != nil && err != io.EOF && err != errLineTooLong {
			return fmt.Errorf("reading line %d: %w", n, err)
		}
		if strings.TrimSpace(line) == "" {
			if err == io.EOF {
				return nil
			}
			continue
		}
		out := assessLine(line, n, err == errLineTooLong, env)
		if e := enc.Encode(out); e != nil {
			return e
		}
		if err == io.EOF {
			return nil
		}
	}
}

func assessLine(line string, n int, tooLong bool, env *risk.Env) any {
	null := json.RawMessage("null")
	if tooLong {
		return jsonlErr{ID: null, Error: fmt.Sprintf("line %d: longer than the input limit", n)}
	}
	var in jsonlIn
	if err := json.Unmarshal([]byte(line), &in); err != nil {
		return jsonlErr{ID: null, Error: fmt.Sprintf("line %d: not a JSON object: %s", n, err)}
	}
	if key := duplicateKey(line); key != "" {
		// Two "input" keys would be read differently by different parsers.
		id := in.ID
		if id == nil {
			id = null
		}
		return jsonlErr{ID: id, Error: fmt.Sprintf("line %d: key %q appears twice", n, key)}
	}
	id := in.ID
	if id == nil {
		id = null
	}
	switch {
	case in.Kind == nil:
		return jsonlErr{ID: id, Error: fmt.Sprintf(`line %d: missing "kind"`, n)}
	case in.Input == nil:
		return jsonlErr{ID: id, Error: fmt.Sprintf(`line %d: missing "input"`, n)}
	}
	kind, err := risk.ParseKind(*in.Kind)
	if err != nil {
		return jsonlErr{ID: id, Error: fmt.Sprintf("line %d: %s", n, err)}
	}
	v, _ := risk.AssessContext(context.Background(), kind, *in.Input, env)
	return jsonlOut{ID: id, Risk: v.Level, Reasons: append([]string{}, v.Texts()...)}
}

var errLineTooLong = fmt.Errorf("line too long")

// readLine reads one line of at most limit bytes; a longer line is
// consumed and reported as errLineTooLong.
func readLine(br *bufio.Reader, limit int) (string, error) {
	var b strings.Builder
	for {
		chunk, err := br.ReadSlice('\n')
		if b.Len()+len(chunk) > limit {
			for err == bufio.ErrBufferFull {
				_, err = br.ReadSlice('\n')
			}
			if err == io.EOF {
				return "", errLineTooLong
			}
			return "x", errLineTooLong
		}
		b.Write(chunk)
		switch err {
		case nil:
			return strings.TrimRight(b.String(), "\r\n"), nil
		case bufio.ErrBufferFull:
			continue
		default:
			return strings.TrimRight(b.String(), "\r\n"), err
		}
	}
}

// duplicateKey returns a top-level key that occurs more than once in the
// JSON object line, or "".
func duplicateKey(line string) string {
	dec := json.NewDecoder(strings.NewReader(line))
	if t, err := dec.Token(); err != nil || t != json.Delim('{') {
		return ""
	}
	seen := map[string]bool{}
	for dec.More() {
		t, err := dec.Token()
		if err != nil {
			return ""
		}
		key, _ := t.(string)
		if seen[key] {
			return key
		}
		seen[key] = true
		var skip json.RawMessage
		if err := dec.Decode(&skip); err != nil {
			return ""
		}
	}
	return ""
}
