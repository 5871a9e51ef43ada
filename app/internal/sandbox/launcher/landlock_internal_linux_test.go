//go:build linux

package launcher

import (
	"fmt"
	"os"
	"os/exec"
	"path/filepath"
	"strings"
	"testing"

	llsys "github.com/landlock-lsm/go-landlock/landlock/syscall"
)

// rulesetCaseEnv, set for this test binary started again, makes it a
// process that prepares a Landlock ruleset as a warm launcher does, with
// the folders of rulesetDirEnv in place of the system's, changes them as
// the case says, applies the ruleset as launch does and says which it can
// read (rulesetHelper).
const (
	rulesetCaseEnv = "AIRLOCK_TEST_RULESET_CASE"
	rulesetDirEnv  = "AIRLOCK_TEST_RULESET_DIR"
)

func init() {
	if c := os.Getenv(rulesetCaseEnv); c != "" {
		if err := rulesetHelper(c, os.Getenv(rulesetDirEnv)); err != nil {
			fmt.Println("error:", err)
			os.Exit(1)
		}
		os.Exit(0)
	}
}

// The folders the helper stands in for the system's (SystemRead): each
// holds a file f saying which it is, but "missing", which is not there
// when the ruleset is prepared.
var rulesetDirs = []string{"kept", "replaced", "renamed", "missing"}

// rulesetHelper is the helper: it prepares the ruleset (prepareRuleset)
// with the folders of dir as the system's, then, as the case says,
// changes one of them as anything might while a warm launcher waits, and
// then applies the ruleset of a profile that reads those folders (all but
// "kept" for the case "notread") and prints, for each file of dir's
// folders, whether it can be read. The case "peek" prints instead whether
// the prepared ruleset would be used.
func rulesetHelper(c, dir string) error {
	SystemRead = nil
	for _, d := range rulesetDirs {
		SystemRead = append(SystemRead, filepath.Join(dir, d))
	}
	abi, err := landlockABI()
	if err != nil {
		return err
	}
	if err := setNoNewPrivs(); err != nil {
		return err
	}
	if err := prepareRuleset(abi); err != nil {
		return err
	}
	p := Profile{Read: append([]string(nil), SystemRead...)}
	plan := NetPlan{TCP: abi >= NetABI}
	mkdir := func(d, says string) error {
		if err := os.Mkdir(d, 0o700); err != nil {
			return err
		}
		return os.WriteFile(filepath.Join(d, "f"), []byte(says), 0o600)
	}
	switch c {
	case "peek":
		_, prepared, err := takeRuleset(p, abi, false, plan.TCP)
		fmt.Println("prepared:", prepared)
		return err
	case "same":
	case "replaced": // another folder in its place: another inode
		if err := os.RemoveAll(filepath.Join(dir, "replaced")); err != nil {
			return err
		}
		if err := mkdir(filepath.Join(dir, "replaced"), "new"); err != nil {
			return err
		}
	case "renamed": // moved away, and another folder renamed in its place
		if err := os.Rename(filepath.Join(dir, "renamed"), filepath.Join(dir, "away")); err != nil {
			return err
		}
		if err := os.Rename(filepath.Join(dir, "other"), filepath.Join(dir, "renamed")); err != nil {
			return err
		}
	case "created": // missing when prepared, there now
		if err := mkdir(filepath.Join(dir, "missing"), "created"); err != nil {
			return err
		}
	case "notread": // the profile does not read one of them
		p.Read = p.Read[1:]
	default:
		return fmt.Errorf("no case %q", c)
	}
	if err := restrict(p, plan, abi); err != nil {
		return err
	}
	for _, d := range append(rulesetDirs, "away", "other") {
		b, err := os.ReadFile(filepath.Join(dir, d, "f"))
		if err != nil {
			b = []byte("-")
		}
		fmt.Printf("%s=%s\n", d, b)
	}
	return nil
}

// TestPreparedRulesetStale: a warm launcher's Landlock ruleset, prepared
// while it waited, gives the action what one built when it comes gives,
// whatever changed between: a folder of its rules replaced by another
// (the new one is read), one moved away and another renamed in its place
// (the one now at the path is read, the one moved away is not), one
// created where none was (it is read), and a profile that does not read
// one of them (it is not read). Unchanged, the prepared ruleset is used.
func TestPreparedRulesetStale(t *testing.T) {
	if abi, err := llsys.LandlockGetABIVersion(); err != nil || abi < MinABI {
		t.Skipf("the kernel has no Landlock ABI %d or newer (ABI %d, %v)", MinABI, abi, err)
	}
	self, err := os.Executable()
	if err != nil {
		t.Fatal(err)
	}
	// "other" lies in no folder the profile reads: it is never read.
	cases := []struct{ name, want string }{
		{"peek", "prepared: true"},
		{"same", "kept=kept replaced=replaced renamed=renamed missing=- away=- other=-"},
		{"replaced", "kept=kept replaced=new renamed=renamed missing=- away=- other=-"},
		{"renamed", "kept=kept replaced=replaced renamed=other missing=- away=- other=-"},
		{"created", "kept=kept replaced=replaced renamed=renamed missing=created away=- other=-"},
		{"notread", "kept=- replaced=replaced renamed=renamed missing=- away=- other=-"},
	}
	for _, c := range cases {
		t.Run(c.name, func(t *testing.T) {
			dir := t.TempDir()
			for _, d := range []string{"kept", "replaced", "renamed", "other"} {
				if err := os.Mkdir(filepath.Join(dir, d), 0o700); err != nil {
					t.Fatal(err)
				}
				if err := os.WriteFile(filepath.Join(dir, d, "f"), []byte(d), 0o600); err != nil {
					t.Fatal(err)
				}
			}
			cmd := exec.Command(self, "-test.run=^$")
			cmd.Env = append(os.Environ(), rulesetCaseEnv+"="+c.name, rulesetDirEnv+"="+dir)
			out, err := cmd.CombinedOutput()
			if err != nil {
				t.Fatalf("%v\n%s", err, out)
			}
			if got := strings.Join(strings.Fields(string(out)), " "); got != c.want {
				t.Errorf("got  %s\nwant %s", got, c.want)
			}
		})
	}
}
