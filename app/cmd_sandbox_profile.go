package main

import (
	"context"
	"encoding/json"
	"fmt"
	"io"
	"os"
	"path/filepath"
	"runtime"

	"github.com/airlockhq/airlock/app/internal/datadir"
	"github.com/airlockhq/airlock/app/internal/policy"
	"github.com/airlockhq/airlock/app/internal/sandbox"
	"github.com/spf13/pflag"
)

// sandboxProfileOptions are airlock sandbox-profile's flags.
type sandboxProfileOptions struct {
	os      string
	kind    string
	unasked bool
	network string
	ui      bool
}

const sandboxProfileUsage = "airlock sandbox-profile [--os darwin|linux] [--kind command|applescript|jxa] [--unasked] [--network none|internet|host] [--ui]"

// sandboxProfileFlags declares airlock sandbox-profile's flags.
func sandboxProfileFlags(fs *pflag.FlagSet) runFunc {
	var opts sandboxProfileOptions
	fs.StringVar(&opts.os, "os", runtime.GOOS, "the platform whose profile to print: darwin (Seatbelt text) or linux (the profile as JSON and what the launcher does)")
	fs.StringVar(&opts.kind, "kind", sandbox.KindCommand, "the kind of action: command, applescript or jxa")
	fs.BoolVar(&opts.unasked, "unasked", false, "the profile of an action the person did not approve (it runs unasked)")
	fs.StringVar(&opts.network, "network", "none", "what it may reach: none, internet (TCP to ports 80 and 443, and names) or host (everything; approved only)")
	fs.BoolVar(&opts.ui, "ui", false, "the UI grant: it may drive the UI (approved only)")
	return func(ctx context.Context, fs *pflag.FlagSet, _ io.Reader, stdout, _ io.Writer) error {
		return cmdSandboxProfile(ctx, fs, opts, stdout)
	}
}

func cmdSandboxProfile(_ context.Context, fs *pflag.FlagSet, opts sandboxProfileOptions, stdout io.Writer) error {
	if fs.NArg() > 0 {
		return usagef("takes no arguments")
	}
	s, err := loadBoxSettings()
	if err != nil {
		return err
	}
	return runSandboxProfile(opts, s, stdout)
}

// loadBoxSettings are the OS sandbox's settings of the gate of this user's
// data directory, as it would start now (boxSettings): its settings file's
// sandbox roots, Airlock's own files, this environment.
func loadBoxSettings() (sandbox.Settings, error) {
	dir, err := datadir.Data()
	if err != nil {
		return sandbox.Settings{}, err
	}
	env, _, err := policy.LoadEnv(dir)
	if err != nil {
		return sandbox.Settings{}, fmt.Errorf("reading the gate's settings: %w", err)
	}
	home, err := os.UserHomeDir()
	if err != nil {
		return sandbox.Settings{}, fmt.Errorf("finding the home folder: %w", err)
	}
	return boxSettings(home, env.Paths, dir), nil
}

// runSandboxProfile prints the profile an action with these options gets
// under s: on darwin its Seatbelt text and parameters, on linux the profile
// as JSON with what the launcher does to enforce it. On this platform the
// profile is resolved as the launcher resolves it (links followed).
func runSandboxProfile(opts sandboxProfileOptions, s sandbox.Settings, w io.Writer) error {
	if opts.os != "darwin" && opts.os != "linux" {
		return usagef("--os %q: want darwin or linux", opts.os)
	}
	var n sandbox.Network
	if err := n.UnmarshalText([]byte(opts.network)); err != nil {
		return usagef("--network %q: want none, internet or host", opts.network)
	}
	switch opts.kind {
	case sandbox.KindCommand, sandbox.KindAppleScript, sandbox.KindJXA:
	default:
		return usagef("--kind %q: want command, applescript or jxa", opts.kind)
	}
	switch {
	case opts.unasked && n == sandbox.NetHost:
		return usagef("--network host is granted only to an action the person approved: not with --unasked")
	case opts.unasked && opts.ui:
		return usagef("--ui is granted only to an action the person approved: not with --unasked")
	}
	s.OS = opts.os
	temp := filepath.Join(os.TempDir(), "airlock-action-EXAMPLE")
	p, err := sandbox.Derive(s, opts.kind, sandbox.Grant{Approved: !opts.unasked, UI: opts.ui, Network: n}, temp)
	if err != nil {
		return err
	}
	if opts.os == runtime.GOOS {
		p = sandbox.Resolve(p)
	}
	if opts.os == "linux" {
		abi := 0
		if runtime.GOOS == "linux" {
			abi = sandbox.LandlockABI()
		}
		enc := json.NewEncoder(w)
		enc.SetIndent("", "  ")
		return enc.Encode(struct {
			OS       string          `json:"os"`
			Profile  sandbox.Profile `json:"profile"`
			Launcher []string        `json:"launcher"`
		}{"linux", p, sandbox.LinuxEnforcement(p, abi)})
	}
	text, params, err := sandbox.Seatbelt(p)
	if err != nil {
		return err
	}
	fmt.Fprint(w, text)
	fmt.Fprintf(w, "\n; The parameters (sandbox-exec -p TEXT -D KEY=VALUE … -- PROGRAM); the temporary folder\n; is the action's own, made when it starts:\n")
	for _, kv := range params {
		fmt.Fprintf(w, ";   %s\n", kv)
	}
	return nil
}
