// Command render fills Info.plist.tmpl for the app bundle and validates it
// and the entitlements (package bundle). `make app` runs it:
//
//	go run ./app/internal/bundle/render -describe "$(git describe --tags --always --dirty)" \
//	  -commits "$(git rev-list --count HEAD)" -entitlements entitlements.plist -o OUT Info.plist.tmpl
package main

import (
	"flag"
	"fmt"
	"os"

	"github.com/airlockhq/airlock/app/internal/bundle"
)

func main() {
	describe := flag.String("describe", "", "git describe --tags --always --dirty")
	commits := flag.Int("commits", 0, "git rev-list --count HEAD")
	id := flag.String("bundle-id", bundle.DefaultBundleID, "CFBundleIdentifier")
	ent := flag.String("entitlements", "", "entitlements.plist to validate")
	out := flag.String("o", "", "where to write Info.plist (required)")
	flag.Parse()
	if err := run(*describe, *commits, *id, *ent, *out, flag.Args()); err != nil {
		fmt.Fprintln(os.Stderr, "render:", err)
		os.Exit(1)
	}
}

func run(describe string, commits int, id, ent, out string, args []string) error {
	if len(args) != 1 || out == "" {
		return fmt.Errorf("usage: render [-describe D] [-commits N] [-bundle-id ID] [-entitlements FILE] -o OUT TEMPLATE")
	}
	tmpl, err := os.ReadFile(args[0])
	if err != nil {
		return err
	}
	version, build := bundle.VersionFromGit(describe, commits)
	data, err := bundle.Render(tmpl, bundle.Info{BundleID: id, Version: version, Build: build})
	if err != nil {
		return err
	}
	if ent != "" {
		e, err := os.ReadFile(ent)
		if err != nil {
			return err
		}
		if err := bundle.ValidateEntitlements(e); err != nil {
			return fmt.Errorf("%s: %w", ent, err)
		}
	}
	if err := os.WriteFile(out, data, 0o644); err != nil {
		return err
	}
	fmt.Printf("render: %s (version %s, build %s) is valid\n", out, version, build)
	return nil
}
