//go:build darwin

package launcher

/*
#include <dlfcn.h>
#include <errno.h>
#include <spawn.h>
#include <stdlib.h>

// responsibility_spawnattrs_setdisclaim is private (macOS 10.14+): looked up
// at run time, so that its absence is an error rather than a crash.
typedef int (*airlock_disclaim_fn)(posix_spawnattr_t *, int);

// airlock_spawn_disclaimed replaces this process (POSIX_SPAWN_SETEXEC) with
// path, its TCC responsibility disclaimed, every descriptor but 0, 1 and 2
// closed. It returns only on failure, with an errno value.
static int airlock_spawn_disclaimed(const char *path, char *const argv[], char *const envp[]) {
	airlock_disclaim_fn disclaim = (airlock_disclaim_fn)dlsym(RTLD_DEFAULT, "responsibility_spawnattrs_setdisclaim");
	if (disclaim == NULL) {
		return ENOSYS;
	}
	posix_spawnattr_t attr;
	int err = posix_spawnattr_init(&attr);
	if (err != 0) {
		return err;
	}
	posix_spawn_file_actions_t actions;
	err = posix_spawn_file_actions_init(&actions);
	if (err != 0) {
		posix_spawnattr_destroy(&attr);
		return err;
	}
	err = posix_spawnattr_setflags(&attr, POSIX_SPAWN_SETEXEC | POSIX_SPAWN_CLOEXEC_DEFAULT);
	if (err == 0) err = disclaim(&attr, 1);
	if (err == 0) err = posix_spawn_file_actions_addinherit_np(&actions, 0);
	if (err == 0) err = posix_spawn_file_actions_addinherit_np(&actions, 1);
	if (err == 0) err = posix_spawn_file_actions_addinherit_np(&actions, 2);
	if (err == 0) {
		pid_t pid;
		err = posix_spawn(&pid, path, &actions, &attr, argv, envp);
	}
	posix_spawn_file_actions_destroy(&actions);
	posix_spawnattr_destroy(&attr);
	return err;
}
*/
import "C"

import (
	"fmt"
	"syscall"
	"unsafe"
)

// spawnDisclaimed replaces this process with path run with argv and env,
// its TCC responsibility disclaimed (see airlock_spawn_disclaimed). It
// returns only when that failed.
func spawnDisclaimed(path string, argv, env []string) error {
	for _, s := range append(append([]string{path}, argv...), env...) {
		for i := 0; i < len(s); i++ {
			if s[i] == 0 {
				return fmt.Errorf("an argument holds a NUL byte")
			}
		}
	}
	cpath := C.CString(path)
	defer C.free(unsafe.Pointer(cpath))
	cargv := cStrings(argv)
	defer freeCStrings(cargv)
	cenv := cStrings(env)
	defer freeCStrings(cenv)
	if e := C.airlock_spawn_disclaimed(cpath, &cargv[0], &cenv[0]); e != 0 {
		return fmt.Errorf("posix_spawn: %w", syscall.Errno(e))
	}
	return nil
}

// cStrings returns ss as a NULL-terminated array of C strings.
func cStrings(ss []string) []*C.char {
	out := make([]*C.char, len(ss)+1)
	for i, s := range ss {
		out[i] = C.CString(s)
	}
	return out
}

func freeCStrings(cs []*C.char) {
	for _, c := range cs {
		if c != nil {
			C.free(unsafe.Pointer(c))
		}
	}
}
