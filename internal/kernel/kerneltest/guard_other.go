//go:build !linux

package kerneltest

// GuardedPage returns nil: no guard pages on this system.
func GuardedPage() []byte { return nil }
