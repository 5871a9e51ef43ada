package bridge

import (
	"context"
	"errors"
	"fmt"
	"io"
	"io/fs"
	"os"
	"path/filepath"
)

// shortcutsPath is where macOS keeps the Shortcuts command-line tool.
const shortcutsPath = "/usr/bin/shortcuts"

// runShortcut runs the shortcut named name with `shortcuts run`, bounded by
// the script timeout. The CLI takes no text directly: input goes in a file
// passed with --input-path, and the output comes back through a file named
// by --output-path, as plain text. Both live in a private temporary folder
// removed afterwards. The name comes after "--", so it is never taken for
// an option. The output is cut at DefaultMaxOutput bytes.
func (d *Desktop) runShortcut(ctx context.Context, name, input string) (string, error) {
	const action = "run a shortcut"
	if err := checkText("the shortcut's name", name); err != nil {
		return "", err
	}
	if err := checkText("the shortcut's input", input); err != nil {
		return "", err
	}
	if name == "" {
		return "", errors.New("run a shortcut: no name given")
	}
	tool, err := d.tool(action, shortcutsPath)
	if err != nil {
		return "", err
	}
	dir, err := os.MkdirTemp("", "airlock-shortcut-")
	if err != nil {
		return "", fmt.Errorf("shortcut %q: making a folder for its input and output: %w", name, err)
	}
	defer os.RemoveAll(dir)
	args := []string{tool, "run"}
	if input != "" {
		in := filepath.Join(dir, "input.txt")
		if err := os.WriteFile(in, []byte(input), 0o600); err != nil {
			return "", fmt.Errorf("shortcut %q: writing its input: %w", name, err)
		}
		args = append(args, "--input-path", in)
	}
	out := filepath.Join(dir, "output.txt")
	args = append(args, "--output-path", out, "--output-type", "public.plain-text", "--", name)

	sctx, cancel := d.scriptContext(ctx)
	defer cancel()
	if _, _, err := d.run(sctx, Command{Argv: args}); err != nil {
		if serr := d.stopError(sctx, ctx, fmt.Sprintf("shortcut %q", name)); serr != nil {
			return "", serr
		}
		return "", fmt.Errorf("shortcut %q: %w", name, err)
	}
	f, err := os.Open(out)
	if errors.Is(err, fs.ErrNotExist) {
		return "", nil // the shortcut gave no output
	}
	if err != nil {
		return "", fmt.Errorf("shortcut %q: reading its output: %w", name, err)
	}
	defer f.Close()
	b, err := io.ReadAll(io.LimitReader(f, DefaultMaxOutput))
	if err != nil {
		return "", fmt.Errorf("shortcut %q: reading its output: %w", name, err)
	}
	return string(b), nil
}
