package llm_test

import (
	"encoding/json"
	"fmt"
	"strings"
	"testing"

	"github.com/airlockhq/airlock/app/internal/llm"
)

// benchPlan is a plan of about 2 KB with a heredoc, in chatter and a fence.
func benchPlan() string {
	var b strings.Builder
	b.WriteString("Sure! Here's what I'll do:\n```dsl\n")
	for i := range 10 {
		fmt.Fprintf(&b, "MOVE_FILE \"~/Downloads/file-%d.pdf\" \"~/Documents/Archive/file-%d.pdf\"\n", i, i)
	}
	b.WriteString("WRITE_DOC \"~/Documents/Archive/index.md\" <<END\n")
	for i := range 20 {
		fmt.Fprintf(&b, "- file-%d.pdf moved from Downloads\n", i)
	}
	b.WriteString("END\nNOTIFY \"Airlock\" \"Archived\"\n```\nLet me know!\n")
	return b.String()
}

func BenchmarkExtract(b *testing.B) {
	reply := benchPlan()
	b.SetBytes(int64(len(reply)))
	for b.Loop() {
		llm.Extract(reply)
	}
}

// words splits a reply as a model streams it, about one token a chunk.
func words(s string) []string {
	var out []string
	start := 0
	for i := 0; i < len(s); i++ {
		if s[i] == ' ' || s[i] == '\n' {
			out = append(out, s[start:i+1])
			start = i + 1
		}
	}
	return append(out, s[start:])
}

func BenchmarkDecodeOllama(b *testing.B) {
	var stream strings.Builder
	for _, w := range words(benchPlan()) {
		line, _ := json.Marshal(map[string]any{"model": "m", "created_at": "2025-01-28T14:03:07Z",
			"message": map[string]any{"role": "assistant", "content": w}, "done": false})
		stream.Write(line)
		stream.WriteByte('\n')
	}
	stream.WriteString(`{"model":"m","message":{"role":"assistant","content":""},"done":true,"eval_count":300}` + "\n")
	in := stream.String()
	b.SetBytes(int64(len(in)))
	for b.Loop() {
		if _, err := llm.DecodeOllama(strings.NewReader(in), 1<<20, func(string) error { return nil }); err != nil {
			b.Fatal(err)
		}
	}
}

func BenchmarkDecodeSSE(b *testing.B) {
	var stream strings.Builder
	for _, w := range words(benchPlan()) {
		ev, _ := json.Marshal(map[string]any{"id": "c", "object": "chat.completion.chunk", "model": "m",
			"choices": []any{map[string]any{"index": 0, "delta": map[string]any{"content": w}, "finish_reason": nil}}})
		fmt.Fprintf(&stream, "data: %s\n\n", ev)
	}
	stream.WriteString("data: [DONE]\n\n")
	in := stream.String()
	b.SetBytes(int64(len(in)))
	for b.Loop() {
		if _, err := llm.DecodeSSE(strings.NewReader(in), 1<<20, func(string) error { return nil }); err != nil {
			b.Fatal(err)
		}
	}
}

func BenchmarkPrompt(b *testing.B) {
	pc := llm.PromptContext{Request: "archive my downloads", Caller: strings.Repeat("context ", 500)}
	for b.Loop() {
		llm.Messages(pc)
	}
}
