package sandbox

import (
	"context"
	"errors"
	"fmt"
	"strings"
	"sync"
	"time"

	"github.com/airlockhq/airlock/app/internal/sandbox/launcher"
	"github.com/airlockhq/airlock/bridge"
)

// Warm launchers (Linux). Most of a confined start is spent before the
// launcher does anything that depends on the action: making the
// namespaces (unshare alone takes a few times an unconfined start) and
// starting the launcher's Go runtime. So a Box keeps, for each way a
// launcher starts (shape), one launcher started ahead: in namespaces of
// its own, blocked on a socket only the gate holds (launcher.WaitFlag,
// bridge.StartWarm). An action that comes is handed to it whole (its spec
// and its standard input) and it then does everything a launcher started
// cold does, in the same order; a new one is started behind it.
//
// The rules it keeps:
//   - a warm launcher confines one action, ever (bridge.Warm is claimed
//     once; the launcher reads one message and closes its socket);
//   - one started before Discard or Close (the kill switch, a reload, the
//     Box's end) is never used: each carries the generation it was started
//     in, Discard and Close kill every one not yet claimed, and nothing is
//     started again until the next action;
//   - warm launchers are siblings, each in namespaces of its own, so an
//     action cannot reach another's (its PID namespace does not hold them,
//     its mount namespace is its own);
//   - anything amiss (none waiting, one gone, stale, of another shape) and
//     the action starts cold, as it did before there were warm ones.
//
// The launchers are started by a spawner (pool.start, bridge.Spawner): the
// launcher's program, started once with no namespaces, which starts each
// as this process's child. This process's own start of one forks it, and
// the copy of its page tables grows with its memory: 3 ms with the test
// binary's, 13 ms with 100 MB more of heap, 66 ms with 400 MB
// (BenchmarkWarmStart); through the spawner, 3 ms whatever this process's
// size. A discard ends the spawner too; the next start brings another.

// shape is how a launcher is started, beyond what every launcher of a Box
// shares (its program, environment and folder): a warm launcher stands in
// only for a command of its shape (bridge.Warm's fits), and, filtered,
// only for an action that gets both socket filters (launcher.Filtered),
// which it installed while it waited (launcher.WaitFilteredFlag). Contain
// is not part of it: the bridge applies it when the command comes.
type shape struct {
	hostNetwork   bool
	newSession    bool
	dieWithParent bool
	filtered      bool
}

// shapeOf is the shape of a confined command whose action gets both socket
// filters, or not (filtered).
func shapeOf(c bridge.Command, filtered bool) shape {
	return shape{hostNetwork: c.HostNetwork, newSession: c.NewSession, dieWithParent: c.DieWithParent, filtered: filtered}
}

// warmShapes are the shapes a Box starts a launcher for once its probe has
// passed: an action's without the UI grant, with a network namespace of
// its own and with the host's (the web); others are started on first use.
var warmShapes = []shape{{hostNetwork: false, filtered: true}, {hostNetwork: true, filtered: true}}

// warmOne is a launcher waiting, with the generation it was started in.
type warmOne struct {
	w   *bridge.Warm
	gen uint64
}

// pool is a Box's warm launchers. It holds nothing of the Box, so that the
// Box's cleanup (runtime.AddCleanup) can close it.
type pool struct {
	program string // the launcher, as every command of the Box runs it

	mu       sync.Mutex
	gen      uint64                // bumped by discard and close
	paused   bool                  // discarded: nothing starts until the next take
	closed   bool                  // closed: nothing starts again
	idle     map[shape]warmOne     // one waiting launcher per shape
	starting map[shape]*starting   // a start under way
	out      map[*bridge.Warm]bool // handed to a command, not yet released
	claimed  int                   // launchers an action ran through

	tmp tempAhead // the next action's temporary folder (tempdir.go)

	spMu sync.Mutex
	sp   *bridge.Spawner // starts the launchers, once started; nil after a discard
}

func newPool(program string) *pool {
	return &pool{program: program, idle: map[shape]warmOne{}, starting: map[shape]*starting{}, out: map[*bridge.Warm]bool{}}
}

// command is the cold command a launcher of shape k runs as: what a
// confined command is (ConfineReviewed, platformCommand) before its spec.
func (p *pool) command(k shape) bridge.Command {
	return bridge.Command{Argv: []string{p.program, LaunchFlag}, Env: launcher.Environ(), Dir: "/",
		Namespaces: true, HostNetwork: k.hostNetwork, NewSession: k.newSession, DieWithParent: k.dieWithParent}
}

// take returns the launcher waiting for c's shape (filtered: its action
// gets both socket filters), if there is one of this
// generation, for c to run through (c.Warm); when one is being started, it
// waits for it, which is sooner than a cold start would be ready. release
// must be called once c has ended or will not run: it kills the launcher
// if c never claimed it, and starts the next one, then rather than now, so
// that its start does not compete with c's for the processors (after delay
// more: refillDelay, for an action whose layers are still to be read and
// removed; an action that comes meanwhile hurries it). Taking also
// ends a discard's pause (the gate runs again): release then starts one of
// each of warmShapes too.
func (p *pool) take(c bridge.Command, filtered bool, delay time.Duration) (w *bridge.Warm, release func()) {
	k := shapeOf(c, filtered)
	p.mu.Lock()
	if p.closed {
		p.mu.Unlock()
		return nil, func() {}
	}
	resumed := p.paused
	p.paused = false
	if _, ok := p.idle[k]; !ok {
		if s := p.starting[k]; s != nil && s.gen == p.gen {
			p.mu.Unlock()
			s.now()
			<-s.done
			p.mu.Lock()
		}
	}
	one, ok := p.idle[k]
	delete(p.idle, k)
	stale := ok && one.gen != p.gen
	if ok && !stale {
		w = one.w
		p.out[w] = true
	}
	p.mu.Unlock()
	if stale {
		one.w.Close()
	}
	refill := func() {
		p.fill(k, delay)
		if resumed {
			p.prefill()
		}
	}
	if w == nil {
		return nil, refill
	}
	return w, func() {
		p.mu.Lock()
		delete(p.out, w)
		if w.Claimed() {
			p.claimed++
		}
		p.mu.Unlock()
		w.Close() // nothing once claimed: then it is the command's
		refill()
	}
}

// starting is a launcher being started, in generation gen; done is closed
// once it is in idle, or discarded. A start behind an action waits
// refillDelay first, unless an action needs it now (hurry).
type starting struct {
	gen   uint64
	done  chan struct{}
	hurry chan struct{}
	once  sync.Once
}

// now makes a start waiting out its delay begin at once.
func (s *starting) now() { s.once.Do(func() { close(s.hurry) }) }

// refillDelay is how long the start of the launcher behind an action with
// layers waits: its caller is still at work reading and removing them,
// and on a machine of two processors a launcher's start (the namespaces,
// the Go runtime) taking one of them made that take 1.1 ms longer. An
// action that comes sooner does not wait for it (take).
const refillDelay = 10 * time.Millisecond

// fill starts a launcher of shape k in the background, after delay unless
// hurried, unless one waits or is starting, or the pool is paused or
// closed. One whose generation has passed by the end of its delay is not
// started, and one that finishes starting after a discard or close is
// killed, not kept.
func (p *pool) fill(k shape, delay time.Duration) {
	p.mu.Lock()
	_, waiting := p.idle[k]
	if s := p.starting[k]; p.closed || p.paused || waiting || s != nil && s.gen == p.gen {
		p.mu.Unlock()
		return
	}
	s := &starting{gen: p.gen, done: make(chan struct{}), hurry: make(chan struct{})}
	p.starting[k] = s
	p.mu.Unlock()
	go func() {
		defer close(s.done)
		if delay > 0 {
			t := time.NewTimer(delay)
			select {
			case <-t.C:
			case <-s.hurry:
				t.Stop()
			}
		}
		p.mu.Lock()
		stale := p.closed || p.paused || s.gen != p.gen
		if stale && p.starting[k] == s {
			delete(p.starting, k)
		}
		p.mu.Unlock()
		if stale {
			return
		}
		flag := launcher.WaitFlag
		if k.filtered {
			flag = launcher.WaitFilteredFlag
		}
		w, err := p.start(k, []string{p.program, flag})
		p.mu.Lock()
		if p.starting[k] == s {
			delete(p.starting, k)
		}
		_, waiting := p.idle[k]
		keep := err == nil && !p.closed && !p.paused && s.gen == p.gen && !waiting
		if keep {
			p.idle[k] = warmOne{w: w, gen: s.gen}
		}
		p.mu.Unlock()
		if err == nil && !keep {
			w.Close()
		}
	}()
}

// start starts a launcher of shape k to run argv: through the pool's
// spawner (bridge.Spawner), started on first use, so that its start costs
// the same whatever this process's size; or, for a launcher that must die
// with the thread that starts it (dieWithParent), one that is a script
// (pin leaves its path: the spawner runs its own executable, which for a
// script is the interpreter), or where the spawner cannot be started or
// has failed, by this process itself.
//
// A launcher the spawner starts is the one this process would start: the
// same program (the spawner runs its own executable, the file this pool
// runs), arguments, environment, folder and namespaces (spawn.Attr), this
// process's child, with nothing of the spawner's (its descriptors are
// close-on-exec). The spawner is outside every action's namespaces (no
// action's PID namespace holds it, so none can see, signal or trace it),
// holds nothing but its socket to this process, and runs nothing of an
// action: so an action can reach nothing more through it.
func (p *pool) start(k shape, argv []string) (*bridge.Warm, error) {
	c := p.command(k)
	if !k.dieWithParent && strings.HasPrefix(p.program, "/proc/self/") {
		if sp := p.spawner(); sp != nil {
			if w, err := sp.StartWarm(c, argv); err == nil {
				return w, nil
			}
		}
	}
	return bridge.StartWarm(c, argv)
}

// spawner returns the pool's spawner, starting it if there is none, or
// nil where it cannot be started, or the pool is closed or paused.
func (p *pool) spawner() *bridge.Spawner {
	p.spMu.Lock()
	defer p.spMu.Unlock()
	p.mu.Lock()
	stopped := p.closed || p.paused
	p.mu.Unlock()
	if p.sp == nil && !stopped {
		p.sp, _ = bridge.StartSpawner([]string{p.program, launcher.SpawnFlag}, launcher.Environ())
	}
	return p.sp
}

// closeSpawner ends the pool's spawner, if it has one: a discard (the
// kill switch, a reload) leaves nothing of the sandbox's own running but
// launchers that actions claimed. The next start starts another.
func (p *pool) closeSpawner() {
	p.spMu.Lock()
	sp := p.sp
	p.sp = nil
	p.spMu.Unlock()
	if sp != nil {
		sp.Close()
	}
}

// discard kills every launcher not yet claimed (waiting, or handed to a
// command that has not started) and keeps any being started from being
// used; none is started again until the next take. With stop, none is
// started ever again.
func (p *pool) discard(stop bool) {
	p.mu.Lock()
	p.gen++
	p.paused = true
	p.closed = p.closed || stop
	var ws []*bridge.Warm
	for _, one := range p.idle {
		ws = append(ws, one.w)
	}
	for w := range p.out {
		ws = append(ws, w)
	}
	clear(p.idle)
	clear(p.out)
	p.mu.Unlock()
	for _, w := range ws {
		w.Close()
	}
	p.closeSpawner()
	if stop {
		p.tmp.close()
	}
}

// prefill starts a launcher of each of warmShapes.
func (p *pool) prefill() {
	for _, k := range warmShapes {
		p.fill(k, 0)
	}
}

// Discard kills the Box's warm launchers that no action has claimed, and
// starts none again until the next action: the kill switch and a reload of
// the settings call it. An action that already runs is not touched (the
// kill switch stops those itself).
func (b *Box) Discard() { b.warm.discard(false) }

// Close kills the Box's warm launchers that no action has claimed, for
// good, and removes the temporary folder made ahead for the next action: a
// Box that is replaced (a reload) or no longer used. It still confines
// actions, each started cold in a folder made when it comes.
func (b *Box) Close() { b.warm.discard(true) }

// WarmReady waits until the Box has a launcher waiting, ready, for each of
// the shapes it starts ahead once its probe has passed (starting one again
// where one failed to start or went), and returns their process ids; or
// returns an error once ctx is done (after Discard, none starts until the
// next action), or at once where no launcher is started ahead. For
// benchmarks (an action at a gate that had a moment) and tests.
func (b *Box) WarmReady(ctx context.Context) ([]int, error) {
	if !warmStarts {
		return nil, errors.New("sandbox: no launchers are started ahead here")
	}
	if err := b.Available(); err != nil {
		return nil, err
	}
	for {
		b.warm.mu.Lock()
		var ws []*bridge.Warm
		var start []shape
		for _, k := range warmShapes {
			one, ok := b.warm.idle[k]
			if ok && one.w.Gone() {
				delete(b.warm.idle, k)
				ok = false
			}
			if ok {
				ws = append(ws, one.w)
			} else if b.warm.starting[k] == nil {
				start = append(start, k) // its start failed, or it went
			}
		}
		b.warm.mu.Unlock()
		for _, k := range start {
			b.warm.fill(k, 0)
		}
		var pids []int
		for _, w := range ws {
			if w.Ready(ctx) == nil {
				pids = append(pids, w.Pid())
			}
		}
		if len(pids) == len(warmShapes) {
			return pids, nil
		}
		if err := ctx.Err(); err != nil {
			return nil, fmt.Errorf("sandbox: waiting for the launchers started ahead: %w", context.Cause(ctx))
		}
		time.Sleep(200 * time.Microsecond)
	}
}
