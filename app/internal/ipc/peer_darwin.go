//go:build darwin

package ipc

/*
#cgo LDFLAGS: -framework Security -framework CoreFoundation -lbsm
#include <errno.h>
#include <string.h>
#include <sys/socket.h>
#include <sys/un.h>
#include <bsm/libbsm.h>
#include <libproc.h>
#include <sys/proc_info.h>
#include <CoreFoundation/CoreFoundation.h>
#include <Security/Security.h>

// airlock_token reads the audit token of the process at the other end of a
// connected unix socket (LOCAL_PEERTOKEN). Unlike a process id, the token
// names one process instance: its pid version changes when a pid is reused.
static int airlock_token(int fd, audit_token_t *tok) {
	socklen_t len = sizeof(*tok);
	if (getsockopt(fd, SOL_LOCAL, LOCAL_PEERTOKEN, tok, &len) != 0) return errno;
	if (len != sizeof(*tok)) return EINVAL;
	return 0;
}

static pid_t airlock_token_pid(audit_token_t *tok) { return audit_token_to_pid(*tok); }

// airlock_sig is what the Security framework says about a process's code.
typedef struct {
	int found;    // a code object for the process was found
	int valid;    // SecCodeCheckValidity passed
	int anchored; // and the code satisfies "anchor apple generic"
	char path[PROC_PIDPATHINFO_MAXSIZE];
	char ident[256];
	char team[64];
	char signer[512];
	unsigned char cdhash[32];
	int cdhashLen;
} airlock_sig;

static void airlock_cfstr(CFTypeRef v, char *buf, size_t n) {
	buf[0] = 0;
	if (v != NULL && CFGetTypeID(v) == CFStringGetTypeID()) {
		if (!CFStringGetCString((CFStringRef)v, buf, (CFIndex)n, kCFStringEncodingUTF8)) buf[0] = 0;
	}
}

// airlock_describe fills s from a code object (which it does not release).
static void airlock_describe(SecCodeRef code, airlock_sig *s) {
	s->found = 1;
	s->valid = SecCodeCheckValidity(code, kSecCSDefaultFlags, NULL) == errSecSuccess;
	SecRequirementRef req = NULL;
	if (s->valid && SecRequirementCreateWithString(CFSTR("anchor apple generic"), kSecCSDefaultFlags, &req) == errSecSuccess) {
		s->anchored = SecCodeCheckValidity(code, kSecCSDefaultFlags, req) == errSecSuccess;
		CFRelease(req);
	}
	CFURLRef url = NULL;
	if (SecCodeCopyPath(code, kSecCSDefaultFlags, &url) == errSecSuccess && url != NULL) {
		if (!CFURLGetFileSystemRepresentation(url, true, (UInt8 *)s->path, sizeof(s->path))) s->path[0] = 0;
		CFRelease(url);
	}
	CFDictionaryRef info = NULL;
	if (SecCodeCopySigningInformation((SecStaticCodeRef)code, kSecCSSigningInformation, &info) != errSecSuccess || info == NULL) return;
	airlock_cfstr(CFDictionaryGetValue(info, kSecCodeInfoIdentifier), s->ident, sizeof(s->ident));
	airlock_cfstr(CFDictionaryGetValue(info, kSecCodeInfoTeamIdentifier), s->team, sizeof(s->team));
	CFTypeRef u = CFDictionaryGetValue(info, kSecCodeInfoUnique);
	if (u != NULL && CFGetTypeID(u) == CFDataGetTypeID()) {
		CFIndex n = CFDataGetLength((CFDataRef)u);
		if (n > (CFIndex)sizeof(s->cdhash)) n = sizeof(s->cdhash);
		CFDataGetBytes((CFDataRef)u, CFRangeMake(0, n), s->cdhash);
		s->cdhashLen = (int)n;
	}
	CFTypeRef certs = CFDictionaryGetValue(info, kSecCodeInfoCertificates);
	if (certs != NULL && CFGetTypeID(certs) == CFArrayGetTypeID() && CFArrayGetCount((CFArrayRef)certs) > 0) {
		SecCertificateRef leaf = (SecCertificateRef)CFArrayGetValueAtIndex((CFArrayRef)certs, 0);
		CFStringRef sum = SecCertificateCopySubjectSummary(leaf);
		if (sum != NULL) {
			airlock_cfstr(sum, s->signer, sizeof(s->signer));
			CFRelease(sum);
		}
	}
	CFRelease(info);
}

// airlock_guest looks up the running code named by one guest attribute.
static SecCodeRef airlock_guest(CFStringRef key, CFTypeRef value) {
	const void *keys[] = { key };
	const void *vals[] = { value };
	CFDictionaryRef attrs = CFDictionaryCreate(NULL, keys, vals, 1, &kCFTypeDictionaryKeyCallBacks, &kCFTypeDictionaryValueCallBacks);
	SecCodeRef code = NULL;
	if (attrs == NULL) return NULL;
	if (SecCodeCopyGuestWithAttributes(NULL, attrs, kSecCSDefaultFlags, &code) != errSecSuccess) code = NULL;
	CFRelease(attrs);
	return code;
}

static SecCodeRef airlock_guest_token(audit_token_t *tok) {
	CFDataRef data = CFDataCreate(NULL, (const UInt8 *)tok, sizeof(*tok));
	if (data == NULL) return NULL;
	SecCodeRef code = airlock_guest(kSecGuestAttributeAudit, data);
	CFRelease(data);
	return code;
}

// airlock_sig_token describes the code of the process with this audit
// token: exactly that process, or nothing if it has gone.
static void airlock_sig_token(audit_token_t *tok, airlock_sig *s) {
	memset(s, 0, sizeof(*s));
	SecCodeRef code = airlock_guest_token(tok);
	if (code == NULL) return;
	airlock_describe(code, s);
	CFRelease(code);
}

// airlock_token_alive reports whether the process of this token still runs.
static int airlock_token_alive(audit_token_t *tok) {
	SecCodeRef code = airlock_guest_token(tok);
	if (code == NULL) return 0;
	CFRelease(code);
	return 1;
}

// airlock_sig_pid describes the code of the process with this id (used for
// a parent, checked by the caller against reuse).
static void airlock_sig_pid(pid_t pid, airlock_sig *s) {
	memset(s, 0, sizeof(*s));
	int p = (int)pid;
	CFNumberRef n = CFNumberCreate(NULL, kCFNumberIntType, &p);
	if (n == NULL) return;
	SecCodeRef code = airlock_guest(kSecGuestAttributePid, n);
	CFRelease(n);
	if (code == NULL) return;
	airlock_describe(code, s);
	CFRelease(code);
}

static void airlock_sig_self(airlock_sig *s) {
	memset(s, 0, sizeof(*s));
	SecCodeRef code = NULL;
	if (SecCodeCopySelf(kSecCSDefaultFlags, &code) != errSecSuccess || code == NULL) return;
	airlock_describe(code, s);
	CFRelease(code);
}

// airlock_ppid is a process's parent, or -1.
static int airlock_ppid(pid_t pid) {
	struct proc_bsdinfo bi;
	if (proc_pidinfo(pid, PROC_PIDTBSDINFO, 0, &bi, sizeof(bi)) != (int)sizeof(bi)) return -1;
	return (int)bi.pbi_ppid;
}
*/
import "C"

import (
	"fmt"
	"net"
	"os"
	"sync"
	"unsafe"

	"golang.org/x/sys/unix"
)

// xucredVersion is XUCRED_VERSION from <sys/ucred.h>.
const xucredVersion = 0

// peerUID returns the uid of the process at the other end of c, as the
// kernel recorded it when the connection was made (LOCAL_PEERCRED, what
// getpeereid reads).
func peerUID(c *net.UnixConn) (int, error) {
	raw, err := c.SyscallConn()
	if err != nil {
		return -1, fmt.Errorf("identifying the peer: %w", err)
	}
	var cred *unix.Xucred
	var cerr error
	if err := raw.Control(func(fd uintptr) {
		cred, cerr = unix.GetsockoptXucred(int(fd), unix.SOL_LOCAL, unix.LOCAL_PEERCRED)
	}); err != nil {
		return -1, fmt.Errorf("identifying the peer: %w", err)
	}
	if cerr != nil {
		return -1, fmt.Errorf("identifying the peer: %w", cerr)
	}
	if cred.Version != xucredVersion {
		return -1, fmt.Errorf("identifying the peer: xucred version %d, want %d", cred.Version, xucredVersion)
	}
	return int(cred.Uid), nil
}

// peerOf identifies the process at the other end of c and its program: its
// audit token (LOCAL_PEERTOKEN) names that very process, and the Security
// framework looks its code up by that token (SecCodeCopyGuestWithAttributes)
// and checks its signature (SecCodeCheckValidity, dynamic: what runs is
// what was signed) and whether Apple's chain vouches for the signer. It
// fails only when the kernel gives no credentials at all.
func peerOf(c *net.UnixConn) (Peer, error) {
	uid, err := peerUID(c)
	if err != nil {
		return Peer{}, err
	}
	raw, err := c.SyscallConn()
	if err != nil {
		return Peer{}, fmt.Errorf("identifying the peer: %w", err)
	}
	var tok C.audit_token_t
	var terr C.int
	if err := raw.Control(func(fd uintptr) { terr = C.airlock_token(C.int(fd), &tok) }); err != nil {
		return Peer{}, fmt.Errorf("identifying the peer: %w", err)
	}
	p := Peer{UID: uid}
	if terr != 0 {
		p.Problem = "the kernel gave no audit token for the connection"
		return p, nil
	}
	p.PID = int(C.airlock_token_pid(&tok))
	var s C.airlock_sig
	C.airlock_sig_token(&tok, &s)
	if s.found == 0 {
		p.Problem = "its process ended, or its code could not be looked up, before it could be identified"
		return p, nil
	}
	p.Program, p.Problem = signedProgram(goSignature(p.PID, &s))
	resolveLauncher(&p, self(), func() (Program, string) { return parentOf(&tok, p.PID) })
	return p, nil
}

// parentOf looks up the program of the parent of the process tok names. The
// parent is looked up by process id, which could name another process if
// the parent had died; so afterwards the child must still be the process of
// its token (its pid not reused) with the same parent: a child whose parent
// died is given to launchd at once.
func parentOf(tok *C.audit_token_t, pid int) (Program, string) {
	ppid := int(C.airlock_ppid(C.pid_t(pid)))
	if ppid <= 1 {
		return Program{}, "its parent process is gone"
	}
	var s C.airlock_sig
	C.airlock_sig_pid(C.pid_t(ppid), &s)
	if int(C.airlock_ppid(C.pid_t(pid))) != ppid || C.airlock_token_alive(tok) == 0 {
		return Program{}, "its parent changed while it was being identified"
	}
	if s.found == 0 {
		return Program{}, "its parent's code could not be looked up"
	}
	return signedProgram(goSignature(ppid, &s))
}

// goSignature copies what C found into Go.
func goSignature(pid int, s *C.airlock_sig) codeSignature {
	return codeSignature{
		PID:           pid,
		Path:          C.GoString(&s.path[0]),
		Valid:         s.valid != 0,
		AppleAnchored: s.anchored != 0,
		Identifier:    C.GoString(&s.ident[0]),
		TeamID:        C.GoString(&s.team[0]),
		Signer:        C.GoString(&s.signer[0]),
		CDHash:        C.GoBytes(unsafe.Pointer(&s.cdhash[0]), s.cdhashLen),
	}
}

// self is the gate's own program, to recognise a client that is Airlock
// itself (`airlock mcp`, `airlock run`).
var self = sync.OnceValue(func() Program {
	var s C.airlock_sig
	C.airlock_sig_self(&s)
	p, _ := signedProgram(goSignature(os.Getpid(), &s))
	return p
})
