package logs

import (
	"context"
	"fmt"
	"log/slog"
	"strconv"
	"strings"
	"time"
	"unicode"

	"github.com/airlockhq/airlock/app/internal/redact"
)

// handler is the slog.Handler of a Log: it formats a record and its
// attributes into one line ("message key=value …"), redacts it whole, and
// hands it to the sink. An attribute named category (CategoryKey) sets
// the entry's category instead of being printed.
type handler struct {
	sink     Sink
	level    slog.Level
	category string
	attrs    string // preformatted " key=value" of With, group prefixes applied
	group    string // "a.b." for WithGroup("a").WithGroup("b")
}

func (h *handler) Enabled(_ context.Context, l slog.Level) bool { return l >= h.level }

func (h *handler) Handle(_ context.Context, r slog.Record) error {
	var b strings.Builder
	b.WriteString(r.Message)
	b.WriteString(h.attrs)
	cat := h.category
	r.Attrs(func(a slog.Attr) bool {
		if h.group == "" && a.Key == CategoryKey {
			cat = a.Value.String()
			return true
		}
		appendAttr(&b, h.group, a)
		return true
	})
	t := r.Time
	if t.IsZero() {
		t = time.Now()
	}
	return h.sink.Write(Entry{Time: t, Level: r.Level, Category: cat, Message: redact.String(b.String())})
}

func (h *handler) WithAttrs(attrs []slog.Attr) slog.Handler {
	c := *h
	var b strings.Builder
	b.WriteString(h.attrs)
	for _, a := range attrs {
		if h.group == "" && a.Key == CategoryKey {
			c.category = a.Value.String()
			continue
		}
		appendAttr(&b, h.group, a)
	}
	c.attrs = b.String()
	return &c
}

func (h *handler) WithGroup(name string) slog.Handler {
	if name == "" {
		return h
	}
	c := *h
	c.group = h.group + name + "."
	return &c
}

// appendAttr writes " key=value", quoting values that hold spaces, quotes
// or control characters, and flattening groups into dotted keys.
func appendAttr(b *strings.Builder, prefix string, a slog.Attr) {
	a.Value = a.Value.Resolve()
	if a.Equal(slog.Attr{}) {
		return
	}
	if a.Value.Kind() == slog.KindGroup {
		p := prefix
		if a.Key != "" {
			p += a.Key + "."
		}
		for _, g := range a.Value.Group() {
			appendAttr(b, p, g)
		}
		return
	}
	b.WriteByte(' ')
	b.WriteString(prefix + a.Key)
	b.WriteByte('=')
	v := a.Value.String()
	if a.Value.Kind() == slog.KindAny {
		if err, ok := a.Value.Any().(error); ok {
			v = err.Error()
		} else {
			v = fmt.Sprint(a.Value.Any())
		}
	}
	if needsQuote(v) {
		v = strconv.Quote(v)
	}
	b.WriteString(v)
}

func needsQuote(s string) bool {
	if s == "" {
		return true
	}
	for _, r := range s {
		if unicode.IsSpace(r) || r == '"' || r == '=' || !unicode.IsPrint(r) {
			return true
		}
	}
	return false
}
