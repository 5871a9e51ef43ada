//go:build !darwin && !linux

package bridge

import "context"

// FileHandler is not available here.
func (d *Desktop) FileHandler(path, app string) (Handler, error) {
	return Handler{}, &UnavailableError{Action: "open a file"}
}

// URLHandler is not available here.
func (d *Desktop) URLHandler(u string) (Handler, error) {
	return Handler{}, &UnavailableError{Action: "open a URL"}
}

// Launch is not available here.
func (d *Desktop) Launch(context.Context, Handler, string) (Launched, error) {
	return Launched{}, &UnavailableError{Action: "open a file"}
}
