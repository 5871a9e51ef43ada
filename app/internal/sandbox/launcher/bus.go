package launcher

import (
	"path/filepath"
	"strings"
)

// BusPaths returns the socket paths a D-Bus address names (the
// freedesktop.org address syntax: "unix:path=/run/user/1000/bus;…", values
// %-escaped). runtime=yes stands for runtimeDir/bus. Abstract sockets have no
// path (Landlock's scope and the seccomp filter keep actions from them), and
// neither have the random names of dir= and tmpdir=.
func BusPaths(addr, runtimeDir string) []string {
	var out []string
	for _, one := range strings.Split(addr, ";") {
		transport, params, ok := strings.Cut(one, ":")
		if !ok || transport != "unix" {
			continue
		}
		for _, kv := range strings.Split(params, ",") {
			k, v, _ := strings.Cut(kv, "=")
			v = busUnescape(v)
			switch {
			case k == "path" && filepath.IsAbs(v):
				out = append(out, filepath.Clean(v))
			case k == "runtime" && v == "yes" && runtimeDir != "":
				out = append(out, filepath.Join(runtimeDir, "bus"))
			}
		}
	}
	return out
}

// busUnescape undoes D-Bus's %-escaping of address values; a bad escape is
// left as it stands.
func busUnescape(s string) string {
	if !strings.Contains(s, "%") {
		return s
	}
	var b strings.Builder
	for i := 0; i < len(s); i++ {
		if s[i] == '%' && i+2 < len(s) && isHex(s[i+1]) && isHex(s[i+2]) {
			b.WriteByte(unhex(s[i+1])<<4 | unhex(s[i+2]))
			i += 2
			continue
		}
		b.WriteByte(s[i])
	}
	return b.String()
}

func isHex(c byte) bool {
	return '0' <= c && c <= '9' || 'a' <= c && c <= 'f' || 'A' <= c && c <= 'F'
}

func unhex(c byte) byte {
	switch {
	case c <= '9':
		return c - '0'
	case c <= 'F':
		return c - 'A' + 10
	}
	return c - 'a' + 10
}
