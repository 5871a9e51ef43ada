package action

import (
	"strconv"
	"strings"
)

// Usage returns a command's syntax on one line, for the model's prompt and
// the README: MOVE_FILE "from" "to", OPEN_FILE "path" ["app"],
// WRITE_FILE "path" "content"|<<END, SET_VOLUME 0-100, DO_NOT_DISTURB ON|OFF.
func Usage(c *Command) string {
	var b strings.Builder
	b.WriteString(c.Name)
	for _, a := range c.Args {
		b.WriteByte(' ')
		if a.Optional {
			b.WriteByte('[')
		}
		switch a.Kind {
		case KindNumber:
			b.WriteString(strconv.Itoa(a.Min) + "-" + strconv.Itoa(a.Max))
		case KindEnum:
			b.WriteString(strings.Join(a.Enum, "|"))
		default:
			b.WriteString(`"` + a.Name + `"`)
			if a.Heredoc {
				b.WriteString("|<<END")
			}
		}
		if a.Optional {
			b.WriteByte(']')
		}
	}
	return b.String()
}

// Markdown renders the registry as a Markdown table of command, syntax,
// risk class and description, in registry order, for the README.
func Markdown() string {
	var b strings.Builder
	b.WriteString("| Command | Syntax | Risk | Description |\n")
	b.WriteString("|---|---|---|---|\n")
	for _, c := range registry {
		b.WriteString("| `" + c.Name + "` | `" + mdCell(Usage(c)) + "` | " + c.Class.String() + " | " + mdCell(c.Help) + " |\n")
	}
	return b.String()
}

// mdCell escapes what would end a table cell; in GitHub Markdown \| works
// inside code spans too.
func mdCell(s string) string {
	return strings.ReplaceAll(s, "|", `\|`)
}
