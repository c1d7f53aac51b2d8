package kerneltest

import (
	"sync"
	"syscall"
)

var guarded = sync.OnceValue(func() []byte {
	page := syscall.Getpagesize()
	m, err := syscall.Mmap(-1, 0, 2*page, syscall.PROT_READ|syscall.PROT_WRITE, syscall.MAP_ANON|syscall.MAP_PRIVATE)
	if err != nil {
		return nil
	}
	if syscall.Mprotect(m[page:], syscall.PROT_NONE) != nil {
		return nil
	}
	return m[:page:page]
})

// GuardedPage returns a page of memory followed by one that faults when
// read, to check that a kernel reads nothing past a message's end; nil
// where that cannot be had. It is shared: callers write their bytes first.
func GuardedPage() []byte { return guarded() }
