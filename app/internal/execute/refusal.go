package execute

import (
	"errors"
	"strings"
)

// ErrSandboxRefused is wrapped by the error of a confined command that
// failed the way the OS sandbox makes programs fail: its error output says
// a file operation was not permitted.
var ErrSandboxRefused = errors.New("the OS sandbox may have refused it")

// refusalSigns are what programs print when the kernel refuses a file
// operation the way the sandbox does: Landlock and Seatbelt refuse with
// EACCES or EPERM, a hidden folder is an empty read-only one (EROFS).
var refusalSigns = []string{
	"Permission denied",
	"Operation not permitted",
	"Read-only file system",
	"EACCES",
	"EPERM",
	"EROFS",
}

// explainRefusal returns err, from a confined command whose error output
// was stderr, with what the sandbox allows said after it when stderr shows
// a refused file operation: a bare "Permission denied" does not tell the
// person or the agent that the sandbox, not the file's permissions, said
// no, nor where writes are allowed and how to allow more. roots are the
// sandbox roots. Any other error is returned as it is.
func explainRefusal(err error, stderr string, roots []string) error {
	if err == nil || !refused(stderr) {
		return err
	}
	where := "no folder (no sandbox roots are set)"
	if len(roots) > 0 {
		where = strings.Join(roots, ", ")
	}
	return &refusalError{err: err, note: "commands may write only in " + where +
		" and a temporary folder of their own, and never reach Airlock's files, the credential stores or hidden folders of your home that you have not approved; " +
		"unless you approve them, they do not see the files in those folders whose names say they hold secrets (.env, keys, credentials); " +
		"to let commands write in another folder, add it to \"roots\" in settings.json"}
}

// refused reports whether a program's error output shows a file operation
// the kernel refused.
func refused(stderr string) bool {
	for _, s := range refusalSigns {
		if strings.Contains(stderr, s) {
			return true
		}
	}
	return false
}

type refusalError struct {
	err  error
	note string
}

func (e *refusalError) Error() string {
	return e.err.Error() + " (" + ErrSandboxRefused.Error() + ": " + e.note + ")"
}

func (e *refusalError) Unwrap() []error { return []error{e.err, ErrSandboxRefused} }
