//go:build linux

package sandbox

// ReadLayerWithin is ReadLayer with bounds of the test's choosing.
var ReadLayerWithin = readLayer
