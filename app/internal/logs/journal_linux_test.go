//go:build linux

package logs_test

import (
	"bufio"
	"bytes"
	"context"
	"encoding/binary"
	"encoding/json"
	"errors"
	"io"
	"log"
	"net"
	"os"
	"os/exec"
	"path/filepath"
	"strings"
	"syscall"
	"testing"
	"time"

	"github.com/airlockhq/airlock/app/internal/logs"
)

// The journal library talks to /run/systemd/journal/socket, a path fixed
// at build time. These tests therefore run as a child of the test binary in
// a mount namespace of its own, with a fresh tmpfs on /run (and on
// /var/log/journal): there a real systemd-journald, or a stand-in socket,
// answers at that path, and nothing of the machine's own journal is
// touched. A mount namespace needs root; elsewhere they skip.

const childEnv = "AIRLOCK_LOGS_TEST_CHILD"

// inOwnMounts reports whether this is the child, with /run its own; in the
// parent it runs the test as such a child and reports its outcome.
func inOwnMounts(t *testing.T) bool {
	t.Helper()
	if os.Getenv(childEnv) == t.Name() {
		if err := syscall.Mount("tmpfs", "/run", "tmpfs", 0, "mode=0755"); err != nil {
			t.Fatalf("mounting a tmpfs on /run: %v", err)
		}
		if fi, err := os.Stat("/var/log/journal"); err == nil && fi.IsDir() {
			if err := syscall.Mount("tmpfs", "/var/log/journal", "tmpfs", 0, "mode=0755"); err != nil {
				t.Fatalf("mounting a tmpfs on /var/log/journal: %v", err)
			}
		}
		return true
	}
	if os.Geteuid() != 0 {
		t.Skip("needs root: the test gives itself a private /run in a mount namespace")
	}
	cmd := exec.Command(os.Args[0], "-test.run=^"+t.Name()+"$", "-test.v", "-test.count=1")
	cmd.Env = append(os.Environ(), childEnv+"="+t.Name())
	cmd.SysProcAttr = &syscall.SysProcAttr{Unshareflags: syscall.CLONE_NEWNS} // and / made private
	out, err := cmd.CombinedOutput()
	switch {
	case err != nil:
		t.Fatalf("the test in its own mount namespace failed: %v\n%s", err, out)
	case bytes.Contains(out, []byte("--- SKIP")):
		t.Skipf("skipped in its namespace:\n%s", out)
	}
	t.Logf("in its own mount namespace:\n%s", out)
	return false
}

// sent are the entries both tests log, and what the journal must hold.
type want struct {
	message, priority, category string
}

func logSome(t *testing.T) []want {
	t.Helper()
	l := logs.Open(logs.Options{Fallback: io.Discard})
	if l.Backend() != "journal" {
		t.Fatalf("backend %q with a journal socket in place, want journal", l.Backend())
	}
	restore := l.Install()
	defer restore()
	long := strings.Repeat("0123456789abcdef", 24<<10) // 384 KiB: past a datagram, sent as a file
	log.Printf("menu ready")
	logs.For("gate").Error("request r1 ended failed", "stderr", "fatal: token "+secret+" rejected\nsecond line")
	logs.Fault(logs.For("gate"), "the kill switch was tripped")
	logs.For("exec").Info(long)
	return []want{
		{"menu ready", "6", "app"},
		{`request r1 ended failed stderr="fatal: token [redacted:github-pat] rejected\nsecond line"`, "3", "gate"},
		{"the kill switch was tripped", "2", "gate"},
		{long, "6", "exec"},
	}
}

func check(t *testing.T, got []map[string]string, wants []want) {
	t.Helper()
	if len(got) != len(wants) {
		t.Fatalf("%d entries, want %d", len(got), len(wants))
	}
	for i, w := range wants {
		g := got[i]
		if g["MESSAGE"] != w.message || g["PRIORITY"] != w.priority || g["AIRLOCK_CATEGORY"] != w.category || g["SYSLOG_IDENTIFIER"] != "airlock" {
			t.Errorf("entry %d: MESSAGE %.120q PRIORITY %s AIRLOCK_CATEGORY %s SYSLOG_IDENTIFIER %s; want %.120q %s %s airlock",
				i, g["MESSAGE"], g["PRIORITY"], g["AIRLOCK_CATEGORY"], g["SYSLOG_IDENTIFIER"], w.message, w.priority, w.category)
		}
		if strings.Contains(g["MESSAGE"], secret) {
			t.Errorf("entry %d holds the secret", i)
		}
	}
}

// TestJournal logs to a real systemd-journald and reads the entries back
// with journalctl.
func TestJournal(t *testing.T) {
	if !inOwnMounts(t) {
		return
	}
	journald := ""
	for _, p := range []string{"/usr/lib/systemd/systemd-journald", "/lib/systemd/systemd-journald"} {
		if _, err := os.Stat(p); err == nil {
			journald = p
		}
	}
	journalctl, err := exec.LookPath("journalctl")
	if journald == "" || err != nil {
		t.Skip("systemd-journald or journalctl is not installed")
	}
	// journald says READY=1 on $NOTIFY_SOCKET once it serves.
	notify, err := net.ListenUnixgram("unixgram", &net.UnixAddr{Name: "/run/airlock-test-notify", Net: "unixgram"})
	if err != nil {
		t.Fatal(err)
	}
	defer notify.Close()
	var out bytes.Buffer
	jd := exec.Command(journald)
	jd.Env = []string{"NOTIFY_SOCKET=/run/airlock-test-notify"}
	jd.Stdout, jd.Stderr = &out, &out
	if err := jd.Start(); err != nil {
		t.Fatal(err)
	}
	defer func() { jd.Process.Kill(); jd.Wait() }()
	notify.SetReadDeadline(time.Now().Add(20 * time.Second))
	for ready := false; !ready; {
		buf := make([]byte, 4096)
		n, err := notify.Read(buf)
		if err != nil {
			t.Fatalf("journald did not say it was ready: %v\n%s", err, out.String())
		}
		ready = bytes.Contains(buf[:n], []byte("READY=1"))
	}

	wants := logSome(t)

	// Follow the journal until the entries are there.
	ctx, cancel := context.WithTimeout(context.Background(), 20*time.Second)
	defer cancel()
	jc := exec.CommandContext(ctx, journalctl, "--no-pager", "--all", "-o", "json", "-f", "-n", "all", "-t", "airlock") // --all: fields past 4 KiB too
	stdout, err := jc.StdoutPipe()
	if err != nil {
		t.Fatal(err)
	}
	if err := jc.Start(); err != nil {
		t.Fatal(err)
	}
	defer jc.Wait()
	defer cancel()
	var got []map[string]string
	sc := bufio.NewScanner(stdout)
	sc.Buffer(nil, 8<<20)
	for len(got) < len(wants) && sc.Scan() {
		var raw map[string]json.RawMessage
		if err := json.Unmarshal(sc.Bytes(), &raw); err != nil {
			t.Fatalf("journalctl: %v: %.200s", err, sc.Text())
		}
		e := map[string]string{}
		for k, v := range raw {
			e[k] = jsonField(t, v)
		}
		got = append(got, e)
	}
	if len(got) < len(wants) {
		t.Fatalf("journalctl gave %d entries before %v: %v", len(got), ctx.Err(), sc.Err())
	}
	check(t, got, wants)
	if got[0]["_TRANSPORT"] != "journal" {
		t.Errorf("_TRANSPORT %q, want journal (the native protocol)", got[0]["_TRANSPORT"])
	}
}

// jsonField decodes a field as journalctl -o json prints it: a string, or
// an array of bytes for values that are not plain text.
func jsonField(t *testing.T, v json.RawMessage) string {
	var s string
	if json.Unmarshal(v, &s) == nil {
		return s
	}
	var b []byte
	var nums []int
	if err := json.Unmarshal(v, &nums); err != nil {
		t.Fatalf("field %s: %v", v, err)
	}
	for _, n := range nums {
		b = append(b, byte(n))
	}
	return string(b)
}

// TestJournalStandIn checks the wire format itself: a unixgram socket at
// the journal's path decodes the native protocol (KEY=value lines; NAME,
// a little-endian 64-bit length and the bytes for values with line
// breaks; a memfd or file passed with SCM_RIGHTS for entries too big for
// a datagram).
func TestJournalStandIn(t *testing.T) {
	if !inOwnMounts(t) {
		return
	}
	if err := os.MkdirAll("/run/systemd/journal", 0o755); err != nil {
		t.Fatal(err)
	}
	sock, err := net.ListenUnixgram("unixgram", &net.UnixAddr{Name: "/run/systemd/journal/socket", Net: "unixgram"})
	if err != nil {
		t.Fatal(err)
	}
	defer sock.Close()
	sock.SetReadBuffer(1 << 20)
	wants := logSome(t)
	sock.SetReadDeadline(time.Now().Add(20 * time.Second))
	var got []map[string]string
	for len(got) < len(wants) {
		buf, oob := make([]byte, 1<<20), make([]byte, 1024)
		n, oobn, _, _, err := sock.ReadMsgUnix(buf, oob)
		if err != nil {
			t.Fatalf("after %d entries: %v", len(got), err)
		}
		data := buf[:n]
		if oobn > 0 {
			data = readPassedFile(t, oob[:oobn])
		}
		fields, err := parseNative(data)
		if err != nil {
			t.Fatalf("entry %d: %v", len(got), err)
		}
		got = append(got, fields)
	}
	check(t, got, wants)
}

// readPassedFile reads the file passed with SCM_RIGHTS.
func readPassedFile(t *testing.T, oob []byte) []byte {
	t.Helper()
	msgs, err := syscall.ParseSocketControlMessage(oob)
	if err != nil || len(msgs) != 1 {
		t.Fatalf("control message: %v (%d)", err, len(msgs))
	}
	fds, err := syscall.ParseUnixRights(&msgs[0])
	if err != nil || len(fds) != 1 {
		t.Fatalf("rights: %v (%d)", err, len(fds))
	}
	f := os.NewFile(uintptr(fds[0]), filepath.Join("fd", "journal"))
	defer f.Close()
	f.Seek(0, io.SeekStart)
	b, err := io.ReadAll(f)
	if err != nil {
		t.Fatal(err)
	}
	return b
}

// parseNative decodes one entry of the journal's native protocol.
func parseNative(b []byte) (map[string]string, error) {
	fields := map[string]string{}
	for len(b) > 0 {
		nl := bytes.IndexByte(b, '\n')
		if nl < 0 {
			return nil, errors.New("a field without its line break")
		}
		line := b[:nl]
		if k, v, ok := bytes.Cut(line, []byte("=")); ok {
			fields[string(k)] = string(v)
			b = b[nl+1:]
			continue
		}
		rest := b[nl+1:]
		if len(rest) < 8 {
			return nil, errors.New("a binary field without its length")
		}
		size := binary.LittleEndian.Uint64(rest)
		if uint64(len(rest)-8) < size+1 || rest[8+size] != '\n' {
			return nil, errors.New("a binary field of the wrong length")
		}
		fields[string(line)] = string(rest[8 : 8+size])
		b = rest[9+size:]
	}
	return fields, nil
}
