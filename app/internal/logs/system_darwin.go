//go:build darwin && cgo

package logs

/*
#include <os/log.h>
#include <stdlib.h>

// os_log_with_type is a macro that wants a literal format string: the
// message goes in as one public string argument, so nothing in it is
// taken for a format directive and os.log does not mask it as <private>
// (it was redacted before it got here).
static void airlock_os_log(os_log_t log, uint8_t type, const char *msg) {
	os_log_with_type(log, (os_log_type_t)type, "%{public}s", msg);
}
*/
import "C"

import (
	"sync"
	"unsafe"
)

// systemSink is os.log under subsystem dev.airlock.Airlock.
func systemSink() (Sink, string) { return &osLog{logs: map[string]C.os_log_t{}}, "os.log" }

// osLog keeps one os_log_t per category; os_log_create's objects live as
// long as the process, as Apple's documentation expects of them.
type osLog struct {
	mu   sync.Mutex
	logs map[string]C.os_log_t // guarded by mu
}

func (o *osLog) handle(category string) C.os_log_t {
	o.mu.Lock()
	defer o.mu.Unlock()
	if l, ok := o.logs[category]; ok {
		return l
	}
	sub, cat := C.CString(Subsystem), C.CString(category)
	defer C.free(unsafe.Pointer(sub))
	defer C.free(unsafe.Pointer(cat))
	l := C.os_log_create(sub, cat)
	o.logs[category] = l
	return l
}

func (o *osLog) Write(e Entry) error {
	msg := C.CString(e.Message)
	defer C.free(unsafe.Pointer(msg))
	C.airlock_os_log(o.handle(e.Category), C.uint8_t(OSLogType(e.Level)), msg)
	return nil
}
