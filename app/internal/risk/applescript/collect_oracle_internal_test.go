package applescript

import (
	"fmt"
	"reflect"
	"strings"
	"testing"
)

// oldCollect is collect as it was before it noted the uses of handlers'
// names alone (markHandlers, bound): every word's use noted. It is the
// oracle FuzzCollectAsBefore holds collect to.
func (an *asAn) oldCollect() {
	handler, inHandler := asName(0), false
	an.statements(func(st []asToken) {
		if len(st) > 1 && (st[0].kw == kwOn || st[0].kw == kwTo) && st[1].kw != kwError {
			handler, inHandler = an.name(st[1]), st[1].tlen > 0
		} else if inHandler && len(st) > 1 && st[0].kw == kwEnd && an.name(st[1]) == handler {
			inHandler = false
		}
		if inHandler {
			an.collectReturns(st, handler)
		}
		for i := range st {
			t := &st[i]
			switch t.kind {
			case asString:
				if !an.terminal && mentionsTerminal(an.str(*t)) {
					an.terminal = true
				}
				continue
			case asWord, asVar:
			default:
				continue
			}
			if t.name != 0 && t.tlen > 0 && int(t.name) < len(an.uses) && (i+1 == len(st) || !st[i+1].isOp('(')) &&
				(i == 0 || st[i-1].kw != kwOn && st[i-1].kw != kwTo && st[i-1].kw != kwEnd) {
				an.uses[t.name] |= usedBare
			} else {
				an.collectUse(st, i)
			}
			if t.kw.has(kfDefines) {
				an.collectDef(st, i)
			}
		}
	})
	if len(an.handlers) > 0 {
		an.bindCalls()
	}
}

// collected is what collect leaves for run, with the uses and calls of
// the handlers' names alone (bindCalls reads no other's).
type collected struct {
	an    asAn
	uses  map[asName]uint8
	calls []asCall
	names int // the names the script's name table gave out
}

// collectWith lexes src and collects it with f (collect or oldCollect) on
// an analyser of its own.
func collectWith(src string, old bool) collected {
	lx := lexAppleScript(src)
	defer lx.release()
	var v Verdict
	an := &asAn{lx: lx, v: &v}
	if old {
		an.oldCollect()
	} else {
		an.collect()
	}
	c := collected{uses: map[asName]uint8{}, names: lx.names.count}
	for _, h := range an.handlers {
		c.uses[h.name] = 0 // as bindCalls reads a name past the end of uses
		if int(h.name) < len(an.uses) {
			c.uses[h.name] = an.uses[h.name]
		}
		if !old && !an.bound(h.name) {
			panic("handler not marked by markHandlers: " + an.text(an.lx.toks[0]))
		}
	}
	for _, call := range an.calls {
		for _, h := range an.handlers {
			if call.name == h.name {
				c.calls = append(c.calls, call)
				break
			}
		}
	}
	an.lx, an.v, an.uses, an.calls, an.binds, an.allBound = nil, nil, nil, nil, nil, false
	c.an = *an
	return c
}

// sameCollect fails t unless collect leaves what oldCollect left on src,
// every handler it binds marked; it returns how many handlers it bound.
func sameCollect(t *testing.T, src string) int {
	t.Helper()
	var got, want collected
	func() {
		defer func() {
			if r := recover(); r != nil {
				t.Fatalf("%q: %v", src, r)
			}
		}()
		got = collectWith(src, false)
	}()
	want = collectWith(src, true)
	if !reflect.DeepEqual(got, want) {
		g, w := reflect.ValueOf(got.an), reflect.ValueOf(want.an)
		for k := 0; k < g.NumField(); k++ {
			if gs, ws := fmt.Sprintf("%+v", g.Field(k)), fmt.Sprintf("%+v", w.Field(k)); gs != ws {
				t.Errorf("field %s: %+v, before %+v", g.Type().Field(k).Name, g.Field(k), w.Field(k))
			}
		}
		t.Fatalf("collect of %q: uses %v calls %d names %d; before: uses %v calls %d names %d", src, got.uses, len(got.calls), got.names, want.uses, len(want.calls), want.names)
	}
	return len(got.an.handlers)
}

// collectSeeds have handlers with positional parameters called, passed
// bare, named by a pipe or a non-ASCII letter, recursive, and names that
// are calls of no handler.
var collectSeeds = []string{
	"on zap(f, m)\ndo shell script f\nend zap\nzap(\"rm -rf ~\", 1)\nzap(\"ls\", 2)",
	"on zap(f)\ndo shell script f\nend zap\nset g to zap\nzap(\"ls\")",
	"on |zap|(f)\ndo shell script f\nend |zap|\n|zap|(\"rm -rf ~\")\nzap(\"ls\")",
	"on zäp(f)\ndo shell script f\nend zäp\nzäp(\"rm -rf ~\")",
	"to walk(n)\nif n > 0 then walk(n - 1)\ndelete file n\nend walk\nrepeat with i in {1, 2}\nwalk(i)\nend repeat\nfoo(1)\nbar(2) & walk",
	"on run argv\nset x to argv\nend run\non run(a)\nend run\non error e\nend error\nmy summarize(x)\nsummarize(x)",
}

// TestCollectAsBefore: on the seeds, the benchmark script and the case
// files, collect leaves what it left before.
func TestCollectAsBefore(t *testing.T) {
	bound := 0
	for _, s := range collectSeeds {
		bound += sameCollect(t, s)
		sameCollect(t, strings.Repeat(s+"\n", 3))
	}
	if bound < len(collectSeeds)-1 {
		t.Fatalf("the seeds bind %d handlers: they test little", bound)
	}
	srcs := guardCases(t)
	for _, s := range srcs {
		sameCollect(t, s)
	}
}

// FuzzCollectAsBefore: on any script, collect leaves what it left before.
func FuzzCollectAsBefore(f *testing.F) {
	for _, s := range collectSeeds {
		f.Add(s)
	}
	f.Fuzz(func(t *testing.T, src string) {
		if len(src) > 16<<10 {
			return
		}
		sameCollect(t, src)
	})
}
