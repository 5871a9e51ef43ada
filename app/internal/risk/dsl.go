package risk

import (
	"context"
	"errors"
	"fmt"
	"path"
	"slices"
	"strings"

	"github.com/airlockhq/airlock/app/internal/action"
	"github.com/airlockhq/airlock/app/internal/level"
	"github.com/airlockhq/airlock/app/internal/risk/effect"
	"github.com/airlockhq/airlock/app/internal/risk/facts"
	"github.com/airlockhq/airlock/app/internal/risk/rate"
	"github.com/airlockhq/airlock/app/internal/sanitize"
)

// maxRecipients is where an email stops being a message and becomes a
// mailing: more recipients than this, in one action or across a plan, are
// Destructive (seed 000's BULK EMAIL).
const maxRecipients = 10

// DSL parses and rates an Action DSL plan. A plan that does not parse is
// Blocked, with the parser's line-numbered errors as reasons: nothing of it
// may run.
func DSL(src string, env *Env) Verdict {
	p, err := action.Parse(src)
	if err != nil {
		var v Verdict
		var errs action.Errors
		if errors.As(err, &errs) {
			lines := lineStarts(src)
			for _, e := range errs {
				v.Found(refused, "dsl.parse", lineSpan(src, lines, e.Line), "blocked: %s", e.Error())
			}
		} else {
			v.Found(refused, "dsl.parse", Span{}, "blocked: %s", err.Error())
		}
		return v
	}
	v, _ := Plan(p, src, env)
	return v
}

// Plan rates each action of a parsed plan and the plan as a whole (its
// highest action, plus what only the whole shows: recipients across
// actions). src, when given, anchors the reasons' spans to its lines.
func Plan(p *action.Plan, src string, env *Env) (Verdict, []Verdict) {
	total, per, _ := PlanContext(context.Background(), p, src, env)
	return total, per
}

// PlanContext is Plan under ctx, bounded and stopped as AssessContext says.
func PlanContext(ctx context.Context, p *action.Plan, src string, env *Env) (Verdict, []Verdict, error) {
	env, end := begin(env, ctx)
	var total Verdict
	per := make([]Verdict, len(p.Actions))
	lines := lineStarts(src)
	recipients, deletes := 0, 0
	written := map[string]string{} // path as given → text written to it in this plan
	checks := pathChecks{}         // each path and use checked once for the whole plan
	for i, a := range p.Actions {
		if !env.Bounds().Look() {
			break // stopped: end says so
		}
		sp := lineSpan(src, lines, a.Line)
		per[i] = actionIn(a, env, written, checks)
		for j := range per[i].Reasons {
			per[i].Reasons[j].Span = sp
		}
		for _, r := range per[i].Reasons {
			carry(&total, r, sp, fmt.Sprintf("line %d: %s", a.Line, r.Text))
		}
		switch a.Cmd.Name {
		case "SEND_EMAIL":
			if to, ok := a.Arg("to"); ok {
				recipients += len(strings.Split(to, ","))
			}
		case "DELETE_FILE":
			deletes++
		case "WRITE_FILE", "WRITE_DOC", "APPEND_FILE":
			path, _ := a.Arg("path")
			content, _ := a.Arg("content")
			written[path] += content
		case "OPEN_FILE":
			// A file this plan wrote, opened to run: what was written runs.
			path, _ := a.Arg("path")
			for _, content := range writtenInto(written, path) {
				w := Shell(content, env)
				for _, r := range w.Reasons {
					carry(&total, r, sp, fmt.Sprintf("line %d: opening %s runs what the plan wrote into it: %s", a.Line, path, r.Text))
				}
			}
		}
	}
	planSecrets(&total, p, per) // a secret in one action, a way out in another (secrets.go)
	if deletes > rate.BulkCount {
		total.Found(effect.Of(effect.Trash, effect.Bulk), "dsl.bulk-delete", Span{}, "BULK DELETE: the plan deletes %d files", deletes)
	}
	if recipients > maxRecipients && len(p.Actions) > 1 {
		total.Found(effect.Of(effect.Send, effect.Bulk), "dsl.bulk-email", Span{}, "BULK EMAIL: the plan emails %d recipients", recipients)
	}
	if len(p.Actions) == 0 {
		total.Found(effect.Of(effect.Read), "dsl.empty", Span{}, "no action needed")
	}
	err := end(&total)
	total.Sort()
	return total, per, err
}

// Action rates one action: the registry's class, the sanitiser's refusals
// (Blocked) and the escalations its arguments call for.
func Action(a action.Action, env *Env) Verdict { return actionIn(a, env, nil, nil) }

// actionIn is Action for an action of a plan whose earlier actions wrote
// written (path as given → text): a file the plan wrote is rated by what it
// will hold when it is opened. checks, when not nil, remembers the paths the
// plan's actions checked (pathChecks).
func actionIn(a action.Action, env *Env, written map[string]string, checks pathChecks) Verdict {
	var v Verdict
	c := a.Cmd
	v.Found(commandEffect(c.Name).On(firstTarget(a)), "dsl."+strings.ToLower(c.Name), Span{}, "%s: %s", a.Preview(), c.Help)
	if c.Name == "RUN_SHORTCUT" {
		v.Found(effect.Of(effect.RunUnseen), "dsl.shortcut", Span{}, "SHORTCUT: a shortcut's actions cannot be inspected")
	}
	for i, spec := range c.Args {
		if i >= len(a.Args) {
			break
		}
		val := a.Args[i]
		switch spec.Kind {
		case action.KindPath:
			dslPath(&v, env, checks, c.Name, spec.Name, val, spec.Name == "from" && keepsSecretName(a))
		case action.KindURL:
			u, err := sanitize.URL(val)
			if err != nil {
				blocked(&v, err)
				continue
			}
			if e, why := facts.SchemeEffect(strings.ToLower(u.Scheme)); e.Level() > commandEffect(c.Name).Level() {
				v.Found(e, "dsl.url-scheme", Span{}, "OPEN URL: %s", why)
			}
			if c.Name == "OPEN_URL" {
				dslLaunchURL(&v, env, u.String(), u.Scheme, u.Path)
			}
			if u.User != nil {
				if _, hasPass := u.User.Password(); hasPass {
					v.Found(effect.Of(effect.ReadSecret), "dsl.url-password", Span{}, "URL carries a password")
				}
			}
		case action.KindApp:
			if err := sanitize.Strict("app", val); err != nil {
				blocked(&v, err)
				continue
			}
			if appLimited[c.Name] && env != nil {
				if ok, why := env.Paths.AppAllowed(val); !ok {
					if strings.Contains(why, "allowedApps") {
						why += "; add it there to allow " + c.Name
					}
					v.Found(refused, "dsl.app-not-allowed", Span{}, "blocked: %s", why)
					continue
				}
			}
		case action.KindText:
			if _, err := sanitize.Text(val); err != nil && !spec.Heredoc {
				blocked(&v, err)
			}
			if spec.Heredoc {
				if err := sanitize.WriteSize(int64(len(val))); err != nil {
					blocked(&v, err)
				}
			}
		case action.KindEmails:
			n := len(strings.Split(val, ","))
			if n > maxRecipients {
				v.Found(effect.Of(effect.Send, effect.Bulk), "dsl.bulk-email", Span{}, "BULK EMAIL: %d recipients", n)
			}
		}
	}
	dslSecrets(&v, a) // literal secrets in its arguments (secrets.go)
	if v.Level < level.Blocked {
		switch c.Name {
		case "OPEN_FILE":
			p, _ := a.Arg("path")
			app, _ := a.Arg("app")
			dslLaunchFile(&v, env, p, app, written)
		case "OPEN_APP":
			app, _ := a.Arg("app")
			dslLaunchApp(&v, env, app)
		}
	}
	return v
}

// appLimited are the commands that open, quit or bring forward the app they
// name: what the allowedApps setting (sanitize.Config.AppAllowed) limits.
// OPEN_FILE with an app opens that app. RELEASE_LOCK names an app only to
// lock onto it: it starts nothing.
var appLimited = map[string]bool{"OPEN_APP": true, "QUIT_APP": true, "ACTIVATE_APP": true, "OPEN_FILE": true}

func blocked(v *Verdict, err error) {
	v.Found(refused, "dsl.blocked", Span{}, "%s", err.Error())
}

// pathOps says what each command does to each of its path arguments.
var pathOps = map[string]sanitize.Op{
	"MOVE_FILE.from": sanitize.OpMoveFrom, "MOVE_FILE.to": sanitize.OpMoveTo,
	"COPY_FILE.from": sanitize.OpRead, "COPY_FILE.to": sanitize.OpWrite,
	"DELETE_FILE.path": sanitize.OpDelete, "CREATE_FOLDER.path": sanitize.OpCreateDir,
	"OPEN_FILE.path": sanitize.OpOpen, "REVEAL_IN_FINDER.path": sanitize.OpOpen,
	"WRITE_FILE.path": sanitize.OpWrite, "APPEND_FILE.path": sanitize.OpWrite, "WRITE_DOC.path": sanitize.OpWrite,
}

func dslPath(v *Verdict, env *Env, checks pathChecks, cmd, arg, raw string, keepsName bool) {
	op, ok := pathOps[cmd+"."+arg]
	if !ok {
		op = sanitize.OpWrite
	}
	if env == nil || env.Paths == nil {
		v.Found(refused, "dsl.no-config", Span{}, "blocked: %s: no sandbox configured", raw)
		return
	}
	p, err := checks.path(env.Paths, raw, op)
	if err != nil {
		blocked(v, err)
		return
	}
	short := env.Paths.ShortPath(p.Resolved)
	if p.Persistence != "" && op != sanitize.OpRead && op != sanitize.OpOpen {
		v.Found(placed(p, op).On(p.Resolved), "dsl.persistence", Span{}, "PERSISTENCE: %s is %s: what is placed there runs automatically", short, p.Persistence)
	}
	if what, ok := rate.SecretFile(p.Resolved); ok && (op == sanitize.OpRead || op == sanitize.OpMoveFrom) && !keepsName {
		// A copy or a move under another name is a read: the next action
		// prints the secret under a name that says nothing.
		v.Found(effect.Of(effect.ReadSecret).On(p.Resolved), "secret.file", Span{}, "SECRET: %s is what its name says it is: %s; a copy or a move puts it under a name that says nothing", short, what)
	}
	switch {
	case p.Exists && (op == sanitize.OpWrite || op == sanitize.OpMoveTo) && cmd != "APPEND_FILE":
		v.Found(effect.Of(effect.Overwrite).On(p.Resolved), "dsl.overwrite", Span{}, "OVERWRITE: %s exists; its old version goes to the Trash", short)
	case op == sanitize.OpDelete && p.IsDir:
		v.Found(effect.Of(effect.Trash).On(p.Resolved), "dsl.delete-folder", Span{}, "DELETE: %s is a folder; it and everything in it go to the Trash", short)
	case op == sanitize.OpMoveFrom && p.IsDir:
		v.Found(effect.Of(effect.Change).On(p.Resolved), "dsl.move-folder", Span{}, "MOVE: %s is a folder", short)
	}
}

// pathChecks remembers, for one assessment of a plan, what the sanitiser
// said of each path given for each use (sanitize.Config.Path: its links
// resolved, whether it exists, what zone it lies in): a plan of 200 actions
// that move files into one folder asks the file system once per path, not
// once per action. The whole plan is assessed before any of it runs, so
// every action is judged against the same disk either way.
type pathChecks map[pathUse]pathChecked

type pathUse struct {
	raw string
	op  sanitize.Op
}

type pathChecked struct {
	p   sanitize.Path
	err error
}

// path is cfg.Path(raw, op), remembered; a nil pathChecks remembers nothing.
func (m pathChecks) path(cfg *sanitize.Config, raw string, op sanitize.Op) (sanitize.Path, error) {
	if m == nil {
		return cfg.Path(raw, op)
	}
	k := pathUse{raw, op}
	if c, ok := m[k]; ok {
		return c.p, c.err
	}
	p, err := cfg.Path(raw, op)
	m[k] = pathChecked{p, err}
	return p, err
}

// PathTarget rates a path as the target of a write, move or delete: Blocked
// where the sanitiser refuses it, Destructive in a persistence location,
// Dangerous where something exists that would be replaced or trashed,
// Caution otherwise.
func PathTarget(raw string, env *Env) Verdict {
	var v Verdict
	if env == nil || env.Paths == nil {
		v.Found(refused, "path.no-config", Span{}, "blocked: no sandbox configured")
		return v
	}
	p, err := env.Paths.Path(raw, sanitize.OpWrite)
	if err != nil {
		blocked(&v, err)
		return v
	}
	short := env.Paths.ShortPath(p.Resolved)
	switch {
	case p.Persistence != "":
		v.Found(placed(p, sanitize.OpWrite).On(p.Resolved), "path.persistence", Span{}, "PERSISTENCE: %s is %s: what is placed there runs automatically", short, p.Persistence)
	case p.Exists && p.IsDir:
		v.Found(effect.Of(effect.Overwrite).On(p.Resolved), "path.existing-folder", Span{}, "%s is an existing folder: replacing or deleting it trashes everything in it", short)
	case p.Exists:
		v.Found(effect.Of(effect.Overwrite).On(p.Resolved), "path.existing", Span{}, "%s exists: it would be replaced or moved to the Trash", short)
	default:
		v.Found(effect.Of(effect.Create).On(p.Resolved), "path.new", Span{}, "%s: a new file inside the sandbox (%s)", short, path.Dir(short))
	}
	return v
}

func lineStarts(src string) []int {
	if src == "" {
		return nil
	}
	starts := []int{0}
	for i := 0; i < len(src); i++ {
		if src[i] == '\n' {
			starts = append(starts, i+1)
		}
	}
	return starts
}

func lineSpan(src string, starts []int, line int) Span {
	if line < 1 || line > len(starts) {
		return Span{}
	}
	s := starts[line-1]
	e := len(src)
	if line < len(starts) {
		e = starts[line] - 1
	}
	return Span{Start: s, End: e}
}

// writtenInto is what the plan wrote into path before opening it, when
// path is a runnable type: the file itself (run.command) or, for a bundle,
// the files inside it (Notes.app/Contents/MacOS/Notes, an applet's
// script), in the order of their paths.
func writtenInto(written map[string]string, path string) []string {
	if facts.RunnableExt(path) == "" {
		return nil
	}
	var out []string
	if content, ok := written[path]; ok {
		out = append(out, content)
	}
	dir := strings.TrimRight(path, "/") + "/"
	inside := make([]string, 0, len(written))
	for p := range written {
		if strings.HasPrefix(p, dir) {
			inside = append(inside, p)
		}
	}
	slices.Sort(inside)
	for _, p := range inside {
		out = append(out, written[p])
	}
	return out
}
