//go:build !linux && !(darwin && cgo)

package logs

// systemSink is nil: no platform log is known here, so entries go to
// standard error.
func systemSink() (Sink, string) { return nil, "" }
