//go:build linux

package main

import (
	"bytes"
	"io"
	"strings"
	"testing"
	"time"

	"github.com/creack/pty"
	"golang.org/x/sys/unix"
)

// TestReadSecretHidesTyping types a key at a pty: the terminal does not
// echo it, the key is read, and echo is back on afterwards.
func TestReadSecretHidesTyping(t *testing.T) {
	ptmx, tty, err := pty.Open()
	if err != nil {
		t.Skipf("no pty: %v", err)
	}
	defer ptmx.Close()
	defer tty.Close()
	const key = "sk-proj-Zx9secretKEY"
	type result struct {
		key []byte
		err error
	}
	done := make(chan result, 1)
	go func() {
		k, err := readSecret(tty, "API key: ")
		done <- result{k, err}
	}()
	// Echo is off once the prompt is out; type only then.
	var seen bytes.Buffer
	buf := make([]byte, 256)
	for !strings.Contains(seen.String(), "API key: ") {
		n, err := ptmx.Read(buf)
		if err != nil {
			t.Fatal(err)
		}
		seen.Write(buf[:n])
	}
	if _, err := io.WriteString(ptmx, key+"\n"); err != nil {
		t.Fatal(err)
	}
	var res result
	select {
	case res = <-done:
	case <-time.After(10 * time.Second):
		t.Fatal("readSecret did not return")
	}
	if res.err != nil || string(res.key) != key {
		t.Fatalf("readSecret = %q, %v", res.key, res.err)
	}
	for !strings.HasSuffix(seen.String(), "\n") { // the newline readSecret writes after the key
		n, err := ptmx.Read(buf)
		if err != nil {
			t.Fatal(err)
		}
		seen.Write(buf[:n])
	}
	if strings.Contains(seen.String(), "secret") {
		t.Errorf("the terminal echoed the key: %q", seen.String())
	}
	tio, err := unix.IoctlGetTermios(int(tty.Fd()), unix.TCGETS)
	if err != nil {
		t.Fatal(err)
	}
	if tio.Lflag&unix.ECHO == 0 {
		t.Error("echo was left off")
	}
}
