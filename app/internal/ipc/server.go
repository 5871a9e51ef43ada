package ipc

import (
	"context"
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
	// MaxConns bounds the connections served at once; one more gets a
	// CodeBusy error and is closed. Zero means DefaultMaxConns.
	MaxConns int
	// ErrorLog, if set, is given every handler error the client was shown
	// only as "internal error". It may carry secrets: it must redact before
	// writing anything down.
	ErrorLog func(method string, err error)

	h      Handler
	ln     *net.UnixListener
	path   string
	sock   os.FileInfo // the socket as bound, so Close removes only ours
	lockf  *os.File
	uid    int
	peerOf func(*net.UnixConn) (Peer, error)

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

// Listen makes the gate's socket in dir, the data directory, and returns a
// server ready to Serve h. It creates dir owner-only (0700) or refuses it,
// takes an exclusive lock on dir/LockName (another gate of this user holding
// it is ErrAlreadyRunning), removes a stale socket nobody listens on, and
// binds dir/SocketName with mode 0600.
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
	ln, fi, err := bind(dir)
	if err != nil {
		lockf.Close()
		return nil, err
	}
	ctx, cancel := context.WithCancelCause(context.Background())
	return &Server{
		h:      h,
		ln:     ln,
		path:   filepath.Join(dir, SocketName),
		sock:   fi,
		lockf:  lockf,
		uid:    os.Getuid(),
		peerOf: peerOf,
		ctx:    ctx,
		cancel: cancel,
		active: make(map[*conn]struct{}),
	}, nil
}

// Path returns the socket's path.
func (s *Server) Path() string { return s.path }

// Serve accepts connections until ctx is done or Close is called, and then
// returns nil once the server is closed. Any other error means accepting
// failed for good; the server is closed then too. Serve may be called once.
func (s *Server) Serve(ctx context.Context) error {
	s.mu.Lock()
	if s.serving || s.closed {
		s.mu.Unlock()
		return errors.New("serving: the server is closed or already serving")
	}
	s.serving = true
	s.mu.Unlock()
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

func (s *Server) add(c *conn) *RPCError {
	s.mu.Lock()
	defer s.mu.Unlock()
	if s.closed {
		return &RPCError{Code: CodeBusy, Message: "the gate is shutting down"}
	}
	if len(s.active) >= s.maxConns() {
		return &RPCError{Code: CodeBusy, Message: fmt.Sprintf("too many connections (at most %d)", s.maxConns())}
	}
	s.active[c] = struct{}{}
	return nil
}

func (s *Server) remove(c *conn) {
	s.mu.Lock()
	defer s.mu.Unlock()
	delete(s.active, c)
}

// Close stops accepting, cancels every handler in flight, closes every
// connection, waits for the handlers to return, removes the socket and
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
		err := s.ln.Close()
		s.conns.Wait()
		if fi, lerr := os.Lstat(s.path); lerr == nil && os.SameFile(fi, s.sock) {
			if rerr := os.Remove(s.path); rerr != nil && err == nil {
				err = rerr
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
