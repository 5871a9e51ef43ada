package logs

import (
	"io"
	"strings"
	"sync"
	"time"
)

// TextSink writes entries as lines of text:
//
//	2026-05-24T10:02:11Z airlock[gate] FAULT: the kill switch was tripped
//
// A message of several lines continues on lines that begin with a tab, so
// no message can pass for another entry.
type TextSink struct {
	mu sync.Mutex
	w  io.Writer // guarded by mu
}

// NewTextSink returns a sink writing to w.
func NewTextSink(w io.Writer) *TextSink { return &TextSink{w: w} }

func (s *TextSink) Write(e Entry) error {
	var b strings.Builder
	b.WriteString(e.Time.UTC().Format(time.RFC3339))
	b.WriteString(" " + Identifier + "[" + e.Category + "] " + LevelName(e.Level) + ": ")
	b.WriteString(strings.ReplaceAll(strings.TrimRight(e.Message, "\n"), "\n", "\n\t"))
	b.WriteByte('\n')
	s.mu.Lock()
	defer s.mu.Unlock()
	_, err := io.WriteString(s.w, b.String())
	return err
}
