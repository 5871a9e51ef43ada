package applescript

import (
	"testing"

	"github.com/airlockhq/airlock/app/internal/level"
)

// TestShellFloor checks which shell commands make `do shell script`
// Destructive whatever the shell analysis says: seed 000's programs, however
// they are spelled, nested or wrapped, and not their names as arguments.
func TestShellFloor(t *testing.T) {
	hits := []string{
		"rm -f ~/Documents/a.txt", "/bin/rm x", "RM x", "cd /tmp && rm -rf build", "ls | xargs rm",
		"sudo -n /usr/sbin/purge", "/usr/bin/sudo launchctl reboot", "Sudo pmset -a hibernatemode 0",
		"chmod +x ~/Downloads/tool", "CHMOD 777 x", "chown -R nobody ~/x", "env FOO=1 chmod 600 x",
		"mkfs.apfs /dev/disk4", "newfs_hfs /dev/disk4", "dd if=/dev/zero of=/dev/disk2",
		"diskutil eraseDisk JHFS+ Empty /dev/disk3", "diskutil apfs deleteContainer disk5", "diskutil zeroDisk disk2",
		"sh -c 'rm -rf x'", "bash -c \"sudo id\"", "echo $(rm x)", "echo `chown a b`", "timeout 5 rm x",
		"nice -n 10 rm x", "FOO=bar rm x", "true; shred -u x", "unlink x", "x || srm y",
	}
	for _, c := range hits {
		why, e := shellFloorHit(c)
		if why == "" {
			t.Errorf("shellFloorHit(%q) = \"\", want a hit", c)
		}
		if e.Level() < level.Destructive {
			t.Errorf("shellFloorHit(%q): %v, which weighs %v: seed 000's floor is destructive", c, e, e.Level())
		}
	}
	misses := []string{
		"ls -la ~/Documents", "date +%Y-%m-%d", "grep rm notes.txt", "ls ~/rm", "echo format",
		"defaults read com.apple.finder", "diskutil list", "diskutil info disk2", "cat /tmp/dd",
		"git commit -m x", "open -a Safari", "uptime", "ps ax | grep sudo", "man chmod", "which rm",
	}
	for _, c := range misses {
		if why, _ := shellFloorHit(c); why != "" {
			t.Errorf("shellFloorHit(%q) = %q, want none", c, why)
		}
	}
}
