//go:build unix

package blake3tree

import (
	"context"
	"errors"
	"fmt"
	"os"
	"runtime/debug"
	"syscall"
)

// errChanged is a file that shrank while it was mapped.
var errChanged = errors.New("the file changed while it was read")

// SumFile is SumReaderAt of the open file f (of size bytes) read
// through windows of a memory mapping rather than read calls.
func SumFile(ctx context.Context, f File, size int64, m Mode, outLen, parts int) ([]byte, error) {
	n := chunks(size)
	leaves := (n + leafChunks - 1) / leafChunks
	if leaves == 1 {
		return SumReaderAt(ctx, f, size, m, outLen, 1)
	}
	windows := (int64(leaves)*leafLen + window - 1) / window
	cvs := make([][8]uint32, leaves)
	err := inParallel(ctx, parts, windows, func(w int64, buf *[bufLen]byte) error {
		return mappedWindow(f, size, w, &m, cvs, buf)
	})
	if err != nil {
		return nil, err
	}
	return output(join(&m, cvs, 0, n), outLen), nil
}

// mappedWindow computes the chaining values of window w's leaves: whole
// leaves on the kernels from the mapping, a last partial leaf copied into
// buf. A fault on the mapping (the file cut short under it) is an error.
func mappedWindow(f File, size, w int64, m *Mode, cvs [][8]uint32, buf *[bufLen]byte) (err error) {
	off := w * window
	n := min(window, size-off)
	data, err := syscall.Mmap(int(f.Fd()), off, int(n), syscall.PROT_READ, syscall.MAP_SHARED)
	if err != nil {
		return &os.PathError{Op: "mmap", Path: f.Name(), Err: err}
	}
	defer syscall.Munmap(data)
	defer debug.SetPanicOnFault(debug.SetPanicOnFault(true))
	defer func() {
		if r := recover(); r != nil {
			if _, ok := r.(interface{ Addr() uintptr }); !ok {
				panic(r)
			}
			err = fmt.Errorf("%s: %w", f.Name(), errChanged)
		}
	}()
	first := off / leafLen
	for l := int64(0); l*leafLen < n; l++ {
		leaf := data[l*leafLen : min(n, (l+1)*leafLen)]
		counter := uint64(first+l) * leafChunks
		if useKernels() && len(leaf) == leafLen {
			cvs[first+l] = leafKernels(m, (*[leafLen]byte)(leaf), counter)
			continue
		}
		copy(buf[:], leaf)
		cvs[first+l] = leafCV(m, buf, len(leaf), counter)
	}
	return nil
}
