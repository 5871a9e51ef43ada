package llm_test

import (
	"errors"
	"strings"
	"testing"

	"github.com/airlockhq/airlock/app/internal/llm"
)

// FuzzExtract: Extract never panics, and every line it returns is a line
// of the reply (it only selects, never invents).
func FuzzExtract(f *testing.F) {
	for _, s := range []string{
		"NOTIFY \"a\" \"b\"\n",
		"Sure:\n```dsl\nNOTIFY \"a\" \"b\"\n```\nbye",
		"WRITE_DOC \"~/x.md\" <<END\n```\nEND\n",
		"<think>x</think>\n# No action needed",
		"~~~~\n```\n~~~~\n",
		"WRITE_FILE \"a\" <<E1\nNOTIFY\n",
	} {
		f.Add(s)
	}
	f.Fuzz(func(t *testing.T, reply string) {
		out := llm.Extract(reply)
		if out == "" {
			return
		}
		lines := map[string]bool{}
		for _, l := range strings.Split(strings.ReplaceAll(reply, "\r\n", "\n"), "\n") {
			lines[l] = true
			lines[strings.TrimSpace(l)] = true
		}
		for _, l := range strings.Split(strings.TrimSuffix(out, "\n"), "\n") {
			if !lines[l] && l != llm.NoAction {
				t.Fatalf("Extract(%q) invented the line %q", reply, l)
			}
		}
	})
}

// FuzzDecodeStreams: both stream decoders take any bytes without panicking,
// never return more content than they were given, and fail with one of
// the package's errors.
func FuzzDecodeStreams(f *testing.F) {
	for _, s := range []string{
		`{"model":"m","message":{"role":"assistant","content":"hi"},"done":false}` + "\n" + `{"done":true,"eval_count":1}` + "\n",
		`{"error":"boom"}`,
		"data: {\"choices\":[{\"index\":0,\"delta\":{\"content\":\"hi\"}}]}\n\ndata: [DONE]\n\n",
		"data: {\"choices\":[{\"index\":0,\"delta\":{},\"finish_reason\":\"stop\"}]}\n",
		": ping\nevent: x\ndata: a\ndata: b\n\n",
		"data: {\"error\":\"x\"}\n\n",
	} {
		f.Add([]byte(s))
	}
	f.Fuzz(func(t *testing.T, in []byte) {
		for name, decode := range map[string]func() (int, error){
			"ollama": func() (int, error) {
				n := 0
				_, err := llm.DecodeOllama(strings.NewReader(string(in)), 4096, func(d string) error { n += len(d); return nil })
				return n, err
			},
			"sse": func() (int, error) {
				n := 0
				_, err := llm.DecodeSSE(strings.NewReader(string(in)), 4096, func(d string) error { n += len(d); return nil })
				return n, err
			},
		} {
			n, err := decode()
			if n > len(in) {
				t.Fatalf("%s: %d bytes of content from %d of input", name, n, len(in))
			}
			var e *llm.Error
			if err != nil && !errors.As(err, &e) {
				t.Fatalf("%s: error %v (%T) is not an *llm.Error", name, err, err)
			}
		}
	})
}
