//go:build darwin

package bridge

/*
#cgo CFLAGS: -x objective-c -fno-objc-arc
#cgo LDFLAGS: -framework Foundation -framework LocalAuthentication
#include <stdint.h>
#include <stdlib.h>
#include <string.h>
#import <Foundation/Foundation.h>
#import <LocalAuthentication/LocalAuthentication.h>

// airlock_auth is one owner authentication: its context, and its answer,
// written by the reply block before it signals done.
typedef struct {
	LAContext *context;
	dispatch_semaphore_t done;
	int ok;
	long code;
	char *message; // malloc'd; NULL for none
} airlock_auth;

static char *airlock_copy_message(NSError *error) {
	if (error == nil || error.localizedDescription == nil) {
		return NULL;
	}
	return strdup(error.localizedDescription.UTF8String);
}

// airlock_auth_start asks for LAPolicyDeviceOwnerAuthentication (Touch ID,
// or the login password) with reason, and returns at once; the answer comes
// through airlock_auth_wait. The reply block runs on a private queue of the
// framework.
static airlock_auth *airlock_auth_start(const char *reason) {
	airlock_auth *a = calloc(1, sizeof *a);
	a->done = dispatch_semaphore_create(0);
	@autoreleasepool {
		a->context = [[LAContext alloc] init];
		NSError *error = nil;
		if (![a->context canEvaluatePolicy:LAPolicyDeviceOwnerAuthentication error:&error]) {
			a->code = error != nil ? error.code : -1;
			a->message = airlock_copy_message(error);
			dispatch_semaphore_signal(a->done);
			return a;
		}
		NSString *text = [NSString stringWithUTF8String:reason];
		dispatch_semaphore_t done = a->done;
		[a->context evaluatePolicy:LAPolicyDeviceOwnerAuthentication
		           localizedReason:text
		                     reply:^(BOOL success, NSError *error) {
			a->ok = success ? 1 : 0;
			if (!success) {
				a->code = error != nil ? error.code : -1;
				a->message = airlock_copy_message(error);
			}
			dispatch_semaphore_signal(done);
		}];
	}
	return a;
}

// airlock_auth_wait blocks until the answer has come.
static void airlock_auth_wait(airlock_auth *a) {
	dispatch_semaphore_wait(a->done, DISPATCH_TIME_FOREVER);
}

// airlock_auth_cancel withdraws the prompt: the reply then comes at once
// with LAErrorAppCancel.
static void airlock_auth_cancel(airlock_auth *a) {
	[a->context invalidate];
}

// airlock_auth_free frees a, once its answer has come.
static void airlock_auth_free(airlock_auth *a) {
	[a->context release];
	dispatch_release(a->done);
	free(a->message);
	free(a);
}
*/
import "C"

import (
	"context"
	"sync"
	"unsafe"
)

const ownerAuthAvailable = true

// authMu makes owner authentications one at a time: the tray asks for one
// confirmation at a time already, and a second prompt on top of the first
// would only confuse.
var authMu sync.Mutex

func authenticate(ctx context.Context, reason string) error {
	authMu.Lock()
	defer authMu.Unlock()
	if err := ctx.Err(); err != nil {
		return err
	}
	cr := C.CString(reason)
	defer C.free(unsafe.Pointer(cr))
	a := C.airlock_auth_start(cr)
	answered := make(chan struct{})
	go func() {
		C.airlock_auth_wait(a) // a thread of its own while the prompt is up
		close(answered)
	}()
	select {
	case <-answered:
	case <-ctx.Done():
		C.airlock_auth_cancel(a)
		<-answered
	}
	ok, code := a.ok != 0, int(a.code)
	msg := ""
	if a.message != nil {
		msg = C.GoString(a.message)
	}
	C.airlock_auth_free(a)
	switch {
	case ctx.Err() != nil:
		return ctx.Err()
	case ok:
		return nil
	}
	return &OwnerAuthError{Code: code, Message: msg}
}
