package ipc

import (
	"context"
	"encoding/json"
	"errors"
	"fmt"
	"net"
	"os"
	"path/filepath"
	"sync"
	"syscall"
	"time"

	"github.com/airlockhq/airlock/app/internal/datadir"
)

// The defaults of Server's limits.
const (
	DefaultFrameTimeout = 10 * time.Second
	DefaultIdleTimeout  = 10 * time.Minute
	DefaultWriteTimeout = 10 * time.Second
	DefaultMaxConns     = 64
)

// Server is the gate's listening socket. Listen makes one; set its limits,
// if need be, before Serve.
type Server struct {
	// FrameTimeout bounds the time from a frame's first byte to its
	// newline. A client that takes longer gets an error and is
	// disconnected. Zero means DefaultFrameTimeout.
	FrameTimeout time.Duration
	// IdleTimeout is how long a connection with no request in flight may
	// wait before sending its next frame; then it is closed without a
	// word. While a request is in flight (a submit waiting for the person,
	// say) there is no limit. Zero means DefaultIdleTimeout.
	IdleTimeout time.Duration
	// WriteTimeout bounds how long a client may leave one frame unread
	// before it is disconnected. Zero means DefaultWriteTimeout.
	WriteTimeout time.Duration
	// MaxConns bounds the connections served at once. When they are all
	// taken, a new one takes the place of the one that has waited longest
	// with no request in flight (which is closed without a word); only when
	// every one has a request in flight (a submit waiting for the person,
	// say) does the new one get a CodeBusy error and is closed. The kill
	// socket is not counted: nothing here can stand before a kill. Zero
	// means DefaultMaxConns.
	MaxConns int
	// ErrorLog, if set, is given every handler error the client was shown
	// only as "internal error". It may carry secrets: it must redact before
	// writing anything down.
	ErrorLog func(method string, err error)

	h        Handler
	ln       *net.UnixListener
	path     string
	sock     os.FileInfo // the socket as bound, so Close removes only ours
	killLn   *net.UnixListener
	killPath string
	killSock os.FileInfo
	lockf    *os.File
	uid      int
	peerUID  func(*net.UnixConn) (int, error)  // the kill socket's check
	peerOf   func(*net.UnixConn) (Peer, error) // the gate socket's identity

	ctx    context.Context // parent of every handler's context; cancelled by Close with errShuttingDown
	cancel context.CancelCauseFunc
	conns  sync.WaitGroup // connection goroutines; Add only under mu while !closed

	mu      sync.Mutex
	active  map[*conn]struct{} // guarded by mu
	serving bool               // guarded by mu
	closed  bool               // guarded by mu

	closeOnce sync.Once
	closeErr  error
}

// Listen makes the gate's sockets in dir, the data directory, and returns a
// server ready to Serve h. It creates dir owner-only (0700) or refuses it,
// takes an exclusive lock on dir/LockName (another gate of this user holding
// it is ErrAlreadyRunning), removes stale sockets nobody listens on, and
// binds dir/SocketName and dir/KillSocketName with mode 0600.
func Listen(dir string, h Handler) (*Server, error) {
	if h == nil {
		return nil, errors.New("listening: no handler")
	}
	if err := datadir.Ensure(dir); err != nil {
		return nil, fmt.Errorf("listening: %w", err)
	}
	lockf, err := lock(filepath.Join(dir, LockName))
	if err != nil {
		return nil, err
	}
	if err := clearStale(dir); err != nil {
		lockf.Close()
		return nil, err
	}
	ln, fi, err := bind(dir, SocketName)
	if err != nil {
		lockf.Close()
		return nil, err
	}
	killLn, killFi, err := bind(dir, KillSocketName)
	if err != nil {
		ln.Close()
		os.Remove(filepath.Join(dir, SocketName))
		lockf.Close()
		return nil, err
	}
	ctx, cancel := context.WithCancelCause(context.Background())
	return &Server{
		h:        h,
		ln:       ln,
		path:     filepath.Join(dir, SocketName),
		sock:     fi,
		killLn:   killLn,
		killPath: filepath.Join(dir, KillSocketName),
		killSock: killFi,
		lockf:    lockf,
		uid:      os.Getuid(),
		peerUID:  peerUID,
		peerOf:   peerOf,
		ctx:      ctx,
		cancel:   cancel,
		active:   make(map[*conn]struct{}),
	}, nil
}

// Path returns the socket's path.
func (s *Server) Path() string { return s.path }

// Serve accepts connections on both sockets until ctx is done or Close is
// called, and then returns nil once the server is closed. Any other error
// means accepting on the gate's socket failed for good; the server is
// closed then too. Serve may be called once.
func (s *Server) Serve(ctx context.Context) error {
	s.mu.Lock()
	if s.serving || s.closed {
		s.mu.Unlock()
		return errors.New("serving: the server is closed or already serving")
	}
	s.serving = true
	s.conns.Add(1)
	s.mu.Unlock()
	go func() {
		defer s.conns.Done()
		s.serveKills()
	}()
	stop := context.AfterFunc(ctx, func() { s.Close() })
	defer stop()

	var backoff time.Duration
	for {
		nc, err := s.ln.AcceptUnix()
		if err != nil {
			if s.isClosed() {
				s.Close() // returns once the Close under way has finished
				return nil
			}
			if transient(err) {
				backoff = min(max(2*backoff, 5*time.Millisecond), time.Second)
				select {
				case <-time.After(backoff):
				case <-s.ctx.Done():
				}
				continue
			}
			s.Close()
			return fmt.Errorf("accepting connections: %w", err)
		}
		backoff = 0
		s.mu.Lock()
		if s.closed { // Close is waiting for the connections it knows of
			s.mu.Unlock()
			nc.Close()
			s.Close()
			return nil
		}
		s.conns.Add(1)
		s.mu.Unlock()
		go func() {
			defer s.conns.Done()
			s.serveConn(nc)
		}()
	}
}

// transient reports accept errors worth retrying: out of descriptors, or a
// connection that went away before it was accepted.
func transient(err error) bool {
	for _, e := range []error{syscall.EMFILE, syscall.ENFILE, syscall.ENOBUFS, syscall.ENOMEM, syscall.ECONNABORTED, syscall.EINTR} {
		if errors.Is(err, e) {
			return true
		}
	}
	return false
}

// serveKills accepts on the kill socket until the server closes. Each
// connection trips the switch in a goroutine of its own, so nothing one
// caller does can hold up the next.
func (s *Server) serveKills() {
	var backoff time.Duration
	for {
		nc, err := s.killLn.AcceptUnix()
		if err != nil {
			if s.isClosed() {
				return
			}
			if transient(err) {
				backoff = min(max(2*backoff, time.Millisecond), 100*time.Millisecond)
				select {
				case <-time.After(backoff):
				case <-s.ctx.Done():
				}
				continue
			}
			if s.ErrorLog != nil {
				s.ErrorLog("kill", fmt.Errorf("accepting on the kill socket: %w", err))
			}
			return
		}
		backoff = 0
		s.mu.Lock()
		if s.closed {
			s.mu.Unlock()
			nc.Close()
			return
		}
		s.conns.Add(1)
		s.mu.Unlock()
		go func() {
			defer s.conns.Done()
			s.serveKill(nc)
		}()
	}
}

// serveKill checks who is calling, trips the switch, answers with the
// kill's result and closes the connection. It reads nothing from it.
func (s *Server) serveKill(nc *net.UnixConn) {
	c := newConn(s, nc, Peer{})
	defer func() {
		c.cancel(nil)
		nc.Close()
	}()
	if uid, err := s.peerUID(nc); err != nil || uid != s.uid {
		c.writeError(nil, &RPCError{Code: CodeUnauthorized, Message: "refused: the gate serves only the user it runs as"}, nil)
		return
	}
	res, err := s.h.Kill(c.ctx)
	c.respond(Request{ID: json.RawMessage(killID), Method: "kill"}, res, err, nil)
}

func (s *Server) isClosed() bool {
	s.mu.Lock()
	defer s.mu.Unlock()
	return s.closed
}

// serveConn checks who is calling and that there is room, then serves the
// connection until it ends. Who is calling — its user, process and
// program — is read once, here, while the connection is held, and every
// handler call of the connection gets it (PeerFrom).
func (s *Server) serveConn(nc *net.UnixConn) {
	peer, err := s.peerOf(nc)
	c := newConn(s, nc, peer)
	if err != nil || peer.UID != s.uid {
		c.refuse(&RPCError{Code: CodeUnauthorized, Message: "refused: the gate serves only the user it runs as"})
		return
	}
	if err := s.add(c); err != nil {
		c.refuse(err)
		return
	}
	defer s.remove(c)
	c.serve()
}

// add admits c, making room if need be by closing the connection that has
// waited longest with no request in flight.
func (s *Server) add(c *conn) *RPCError {
	s.mu.Lock()
	defer s.mu.Unlock()
	if s.closed {
		return &RPCError{Code: CodeBusy, Message: "the gate is shutting down"}
	}
	if len(s.active) >= s.maxConns() {
		victim := s.longestIdleLocked()
		if victim == nil {
			return &RPCError{Code: CodeBusy, Message: fmt.Sprintf("too many requests in flight (at most %d connections); `airlock kill` still works", s.maxConns())}
		}
		delete(s.active, victim)
		victim.cancel(errIdleEvicted)
		victim.nc.Close()
	}
	s.active[c] = struct{}{}
	return nil
}

// errIdleEvicted is the cause of an idle connection's context when it was
// closed to make room for a new one (it had no request in flight).
var errIdleEvicted = errors.New("closed while idle to make room for another client")

// longestIdleLocked returns the active connection with no request in
// flight that has waited longest since its last frame or response, or nil
// if every one has a request in flight.
func (s *Server) longestIdleLocked() *conn {
	var victim *conn
	var since time.Time
	for c := range s.active {
		if idle, at := c.idleSince(); idle && (victim == nil || at.Before(since)) {
			victim, since = c, at
		}
	}
	return victim
}

func (s *Server) remove(c *conn) {
	s.mu.Lock()
	defer s.mu.Unlock()
	delete(s.active, c)
}

// Close stops accepting, cancels every handler in flight, closes every
// connection, waits for the handlers to return, removes the sockets and
// releases the lock. It is safe to call more than once.
func (s *Server) Close() error {
	s.closeOnce.Do(func() {
		s.mu.Lock()
		s.closed = true
		for c := range s.active {
			c.nc.Close()
		}
		s.mu.Unlock()
		s.cancel(errShuttingDown)
		err := errors.Join(s.ln.Close(), s.killLn.Close())
		s.conns.Wait()
		for _, sock := range []struct {
			path string
			fi   os.FileInfo
		}{{s.path, s.sock}, {s.killPath, s.killSock}} {
			if fi, lerr := os.Lstat(sock.path); lerr == nil && os.SameFile(fi, sock.fi) {
				if rerr := os.Remove(sock.path); rerr != nil && err == nil {
					err = rerr
				}
			}
		}
		if lerr := s.lockf.Close(); lerr != nil && err == nil {
			err = lerr
		}
		if err != nil {
			s.closeErr = fmt.Errorf("closing the gate's socket: %w", err)
		}
	})
	return s.closeErr
}

func (s *Server) frameTimeout() time.Duration { return orDefault(s.FrameTimeout, DefaultFrameTimeout) }
func (s *Server) idleTimeout() time.Duration  { return orDefault(s.IdleTimeout, DefaultIdleTimeout) }
func (s *Server) writeTimeout() time.Duration { return orDefault(s.WriteTimeout, DefaultWriteTimeout) }

func (s *Server) maxConns() int {
	if s.MaxConns > 0 {
		return s.MaxConns
	}
	return DefaultMaxConns
}

func orDefault(d, def time.Duration) time.Duration {
	if d > 0 {
		return d
	}
	return def
}
