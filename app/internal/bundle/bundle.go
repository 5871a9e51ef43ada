// Package bundle renders and checks the macOS app bundle's property lists:
// Info.plist from Info.plist.tmpl (version from git), and the entitlements.
// `make app` runs it through ./render on every platform, so a broken plist
// fails the build on Linux too.
//
// It must never sign, notarise or build anything (the Makefile does, on a
// Mac), and never let a value into the plist that could change its
// structure: every value it renders is checked against a strict pattern
// first, and the result is parsed back with howett.net/plist.
package bundle

import (
	"bytes"
	"errors"
	"fmt"
	"regexp"
	"strconv"
	"strings"
	"text/template"

	"howett.net/plist"
)

// Info is what Info.plist.tmpl is filled in with.
type Info struct {
	BundleID string // reverse DNS: "dev.airlock.Airlock"
	Version  string // CFBundleShortVersionString: "1.2.3"
	Build    string // CFBundleVersion: "145"
}

// DefaultBundleID is the app's bundle identifier.
const DefaultBundleID = "dev.airlock.Airlock"

// MinimumSystem is the oldest macOS the app supports.
const MinimumSystem = "12.0"

var (
	bundleIDPattern = regexp.MustCompile(`^[A-Za-z0-9-]+(\.[A-Za-z0-9-]+)+$`)
	versionPattern  = regexp.MustCompile(`^[0-9]{1,4}(\.[0-9]{1,4}){0,2}$`)
	describePattern = regexp.MustCompile(`^v?([0-9]{1,4})\.([0-9]{1,4})\.([0-9]{1,4})(?:[-+].*)?$`)
)

// ErrInvalid is wrapped by every error Validate and Render return for
// content that is wrong.
var ErrInvalid = errors.New("invalid bundle property list")

// VersionFromGit turns `git describe --tags --always --dirty` and the
// number of commits (`git rev-list --count HEAD`) into the bundle's
// versions: the tag's X.Y.Z (0.0.0 before the first tag) and the commit
// count, which only grows.
func VersionFromGit(describe string, commits int) (version, build string) {
	version = "0.0.0"
	if m := describePattern.FindStringSubmatch(strings.TrimSpace(describe)); m != nil {
		version = m[1] + "." + m[2] + "." + m[3]
	}
	return version, strconv.Itoa(max(commits, 0))
}

// Render fills the template with info after checking each value, and
// validates the result.
func Render(tmpl []byte, info Info) ([]byte, error) {
	if !bundleIDPattern.MatchString(info.BundleID) {
		return nil, fmt.Errorf("%w: bundle id %q is not reverse-DNS letters, digits and hyphens", ErrInvalid, info.BundleID)
	}
	if !versionPattern.MatchString(info.Version) {
		return nil, fmt.Errorf("%w: version %q is not up to three numbers", ErrInvalid, info.Version)
	}
	if !versionPattern.MatchString(info.Build) {
		return nil, fmt.Errorf("%w: build %q is not up to three numbers", ErrInvalid, info.Build)
	}
	t, err := template.New("Info.plist").Option("missingkey=error").Parse(string(tmpl))
	if err != nil {
		return nil, fmt.Errorf("reading the Info.plist template: %w", err)
	}
	var b bytes.Buffer
	if err := t.Execute(&b, info); err != nil {
		return nil, fmt.Errorf("rendering Info.plist: %w", err)
	}
	if err := Validate(b.Bytes()); err != nil {
		return nil, err
	}
	return b.Bytes(), nil
}

// Validate checks a rendered Info.plist: an XML property list holding a
// dictionary with every key the app needs to run as a menu-bar app that may
// send Apple events, with values of the right type and form.
func Validate(data []byte) error {
	var d map[string]any
	format, err := plist.Unmarshal(data, &d)
	if err != nil {
		return fmt.Errorf("%w: Info.plist does not parse: %v", ErrInvalid, err)
	}
	if format != plist.XMLFormat {
		return fmt.Errorf("%w: Info.plist is not an XML property list", ErrInvalid)
	}
	str := func(key string, ok func(string) bool, want string) error {
		v, present := d[key]
		s, isString := v.(string)
		if !present || !isString || !ok(s) {
			return fmt.Errorf("%w: %s is %#v, want %s", ErrInvalid, key, v, want)
		}
		return nil
	}
	yes := func(key string) error {
		if v, ok := d[key].(bool); !ok || !v {
			return fmt.Errorf("%w: %s is %#v, want <true/>", ErrInvalid, key, d[key])
		}
		return nil
	}
	return errors.Join(
		str("CFBundleIdentifier", bundleIDPattern.MatchString, "a reverse-DNS identifier"),
		str("CFBundleExecutable", func(s string) bool { return s == "airlock" }, `"airlock"`),
		str("CFBundlePackageType", func(s string) bool { return s == "APPL" }, `"APPL"`),
		str("CFBundleName", nonEmpty, "a name"),
		str("CFBundleShortVersionString", versionPattern.MatchString, "up to three numbers"),
		str("CFBundleVersion", versionPattern.MatchString, "up to three numbers"),
		str("NSAppleEventsUsageDescription", nonEmpty, "the sentence macOS shows when asking for Automation permission"),
		str("LSMinimumSystemVersion", atLeastMinimum, "12.0 or later"),
		yes("LSUIElement"),
		yes("NSHighResolutionCapable"),
	)
}

// ValidateEntitlements checks entitlements.plist: Apple events allowed (the
// app's whole job), and no App Sandbox (it would forbid that job).
func ValidateEntitlements(data []byte) error {
	var d map[string]any
	format, err := plist.Unmarshal(data, &d)
	if err != nil {
		return fmt.Errorf("%w: entitlements do not parse: %v", ErrInvalid, err)
	}
	if format != plist.XMLFormat {
		return fmt.Errorf("%w: entitlements are not an XML property list", ErrInvalid)
	}
	if v, ok := d["com.apple.security.automation.apple-events"].(bool); !ok || !v {
		return fmt.Errorf("%w: com.apple.security.automation.apple-events must be <true/>", ErrInvalid)
	}
	if v, _ := d["com.apple.security.app-sandbox"].(bool); v {
		return fmt.Errorf("%w: the App Sandbox would stop Airlock sending Apple events", ErrInvalid)
	}
	return nil
}

func nonEmpty(s string) bool { return strings.TrimSpace(s) != "" }

func atLeastMinimum(s string) bool {
	if !versionPattern.MatchString(s) {
		return false
	}
	major, _ := strconv.Atoi(strings.Split(s, ".")[0])
	return major >= 12
}
