// Package proctest looks at processes through /proc for tests that check
// what an action left running: whether a pid is alive, and which live
// processes carry a marker in their environment. It is for tests only.
package proctest

import (
	"bytes"
	"os"
	"strconv"
	"strings"
)

// Alive reports whether pid is a process that has not exited (a zombie
// waiting for its parent counts as exited).
func Alive(pid int) bool {
	b, err := os.ReadFile("/proc/" + strconv.Itoa(pid) + "/stat")
	if err != nil {
		return false
	}
	s := string(b)
	i := strings.LastIndexByte(s, ')')
	return i < 0 || len(s) < i+3 || (s[i+2] != 'Z' && s[i+2] != 'X')
}

// Marked lists the live processes other than this one whose environment
// holds marker (KEY=VALUE) as one whole variable.
func Marked(marker string) []int {
	var live []int
	entries, _ := os.ReadDir("/proc")
	for _, e := range entries {
		pid, err := strconv.Atoi(e.Name())
		if err != nil || pid == os.Getpid() {
			continue
		}
		env, err := os.ReadFile("/proc/" + e.Name() + "/environ")
		if err != nil || !bytes.Contains(env, []byte(marker+"\x00")) {
			continue
		}
		if Alive(pid) {
			live = append(live, pid)
		}
	}
	return live
}
