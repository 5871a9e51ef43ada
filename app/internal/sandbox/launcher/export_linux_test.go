//go:build linux

package launcher

// BreakOverlay makes every copy-on-write view this process mounts fail,
// as on a kernel without overlayfs for user namespaces: redirect_dir=on
// conflicts with userxattr. The tests' launcher calls it when told to.
func BreakOverlay() {
	overlayOptions = append(overlayOptions, struct{ key, value, why string }{"redirect_dir", "on", "a test: conflicts with userxattr"})
}
