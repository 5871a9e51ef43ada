package main

import (
	"bytes"
	"context"
	"errors"
	"fmt"
	"io"
	"os"
	"unicode"

	"github.com/airlockhq/airlock/app/internal/llm"
	"github.com/airlockhq/airlock/app/internal/secrets"
	"github.com/spf13/pflag"
)

// maxKeyBytes bounds an API key typed at the terminal.
const maxKeyBytes = 4096

// keyCommand is `airlock key` and its subcommands, cobra's for --help and
// completion; each hands its name on to cmdKey as the first argument.
var keyCommand = command{name: "key", help: "keep a model server's API key in the key store (typed at the terminal, not shown)",
	flags: noFlags(func(ctx context.Context, fs *pflag.FlagSet, stdin io.Reader, stdout, stderr io.Writer) error {
		return cmdKey(ctx, fs.Args(), stdin, stdout, stderr)
	}),
	sub: []command{
		keySub("set", "store the API key NAME, typed at the terminal (not shown)"),
		keySub("delete", "delete the API key NAME from the key store"),
	},
}

// keySub is `airlock key OP NAME`.
func keySub(op, help string) command {
	return command{name: op, usage: "airlock key " + op + " NAME", help: help,
		flags: noFlags(func(ctx context.Context, fs *pflag.FlagSet, stdin io.Reader, stdout, stderr io.Writer) error {
			return cmdKey(ctx, append([]string{op}, fs.Args()...), stdin, stdout, stderr)
		})}
}

// cmdKey is `airlock key set NAME` and `airlock key delete NAME`: API keys
// for model servers, kept only in the key store. The key is read from the
// terminal with echo off, never from arguments, standard input, the
// environment or a file, and never printed.
func cmdKey(_ context.Context, args []string, _ io.Reader, stdout, _ io.Writer) error {
	if len(args) != 2 || args[0] != "set" && args[0] != "delete" {
		return usagef("want: airlock key set NAME, or airlock key delete NAME")
	}
	name := args[1]
	if !llm.ValidKeyName(name) {
		return usagef("key name %q: use 1 to 64 letters, digits and . _ -", name)
	}
	keys, err := secrets.Open()
	if err != nil {
		return fmt.Errorf("opening the key store (API keys are kept nowhere else): %w", err)
	}
	if args[0] == "delete" {
		if err := keys.Delete(llm.KeyStoreName(name)); err != nil && !errors.Is(err, secrets.ErrNotFound) {
			return fmt.Errorf("deleting the API key %q: %w", name, err)
		}
		fmt.Fprintf(stdout, "deleted the API key %q from the key store\n", name)
		return nil
	}
	tty, err := os.OpenFile("/dev/tty", os.O_RDWR, 0)
	if err != nil {
		return fmt.Errorf("the key is read from the terminal, and there is none: %w", err)
	}
	defer tty.Close()
	key, err := readSecret(tty, fmt.Sprintf("API key %q (typing is not shown): ", name))
	if err != nil {
		return err
	}
	if err := runKeySet(keys, name, key); err != nil {
		return err
	}
	fmt.Fprintf(stdout, "stored the API key %q in the key store; to use it, set \"llmApiKey\": %q in the settings\n", name, name)
	return nil
}

// runKeySet checks a key and stores it under name.
func runKeySet(keys secrets.KeyStore, name string, key []byte) error {
	key = bytes.TrimSpace(key)
	if len(key) == 0 {
		return errors.New("no key was typed; nothing stored")
	}
	for _, r := range string(key) {
		if r == unicode.ReplacementChar || !unicode.IsPrint(r) || unicode.IsSpace(r) {
			return errors.New("the key holds spaces or characters that are not printable; nothing stored")
		}
	}
	if err := keys.Set(llm.KeyStoreName(name), key); err != nil {
		return fmt.Errorf("storing the API key %q: %w", name, err)
	}
	return nil
}

// readSecret prompts on tty and reads one line with echo off, restoring
// the terminal however it ends.
func readSecret(tty *os.File, prompt string) ([]byte, error) {
	restore, err := echoOff(int(tty.Fd()))
	if err != nil {
		return nil, fmt.Errorf("turning off echo on the terminal: %w", err)
	}
	defer restore()
	if _, err := io.WriteString(tty, prompt); err != nil {
		return nil, err
	}
	defer io.WriteString(tty, "\n")
	var line []byte
	var b [1]byte
	for {
		n, err := tty.Read(b[:])
		if n == 1 {
			if b[0] == '\n' || b[0] == '\r' {
				return line, nil
			}
			if len(line) == maxKeyBytes {
				return nil, fmt.Errorf("the key is longer than %d bytes", maxKeyBytes)
			}
			line = append(line, b[0])
		}
		if errors.Is(err, io.EOF) {
			return line, nil
		}
		if err != nil {
			return nil, fmt.Errorf("reading the key: %w", err)
		}
	}
}
