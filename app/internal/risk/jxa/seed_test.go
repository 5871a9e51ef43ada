package jxa

import "testing"

func TestSeedWord(t *testing.T) {
	for _, tt := range []struct {
		name, cmd, want string
	}{
		{"rm", "rm -rf ~/old", "rm"},
		{"path", "/bin/rm x", "rm"},
		{"sudo", "sudo purge", "sudo"},
		{"after and", "cd /tmp && chmod 777 x", "chmod"},
		{"after pipe", "find . -name x | xargs chown me", "chown"},
		{"find exec", "find . -exec rm {} ;", "rm"},
		{"assignment", "LC_ALL=C dd if=/dev/zero of=/tmp/x", "dd"},
		{"env", "env -i FOO=1 rm x", "rm"},
		{"mkfs", "mkfs.apfs /dev/disk4", "mkfs.apfs"},
		{"diskutil erase", "diskutil eraseDisk APFS X disk4", "diskutil eraseDisk"},
		{"diskutil apfs", "diskutil apfs deleteVolume disk4s1", "diskutil deleteVolume"},
		{"sh -c", "sh -c 'rm -rf ~/x'", "rm"},
		{"subshell", "echo $(rm x)", "rm"},
		{"upper", "RM x", "RM"},
		{"ls", "ls -la ~/Documents", ""},
		{"argument", "grep rm notes.txt", ""},
		{"diskutil list", "diskutil list", ""},
		{"date", "date +%Y-%m-%d", ""},
		{"words in", "echo format and add", ""},
	} {
		got, _, ok := seedWord(tt.cmd)
		if ok != (tt.want != "") || got != tt.want {
			t.Errorf("%s: seedWord(%q) = %q, %v; want %q", tt.name, tt.cmd, got, ok, tt.want)
		}
	}
}
