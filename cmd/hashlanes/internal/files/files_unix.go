//go:build unix

package files

import (
	"io"
	"io/fs"
	"syscall"

	"github.com/hashlanes/hashlanes/internal/blake3tree"
	"golang.org/x/sys/unix"
)

// ID identifies a directory, to stop at links back up a tree.
type ID struct{ dev, ino uint64 }

func IDOf(path string) (ID, bool) {
	var st unix.Stat_t
	if err := fstatatLong(path, &st); err != nil {
		return ID{}, false
	}
	return ID{uint64(st.Dev), uint64(st.Ino)}, true
}

// rawFile reads a file with plain system calls: os.Open also asks
// whether the file can join the network poller (an extra fstat or
// epoll_ctl per file), which is measurable over thousands of small files.
type rawFile struct {
	fd   int
	name string
}

func Open(name string) (io.Reader, error) {
	fd, err := openLong(name, unix.O_RDONLY|unix.O_CLOEXEC)
	if err != nil {
		return nil, &fs.PathError{Op: "open", Path: name, Err: err}
	}
	return &rawFile{fd, name}, nil
}

func (f *rawFile) Read(p []byte) (int, error) {
	for {
		n, err := syscall.Read(f.fd, p)
		if err == syscall.EINTR {
			continue
		}
		if err != nil {
			return 0, &fs.PathError{Op: "read", Path: f.name, Err: err}
		}
		if n == 0 && len(p) > 0 {
			return 0, io.EOF
		}
		return n, nil
	}
}

func (f *rawFile) Close() error {
	if err := syscall.Close(f.fd); err != nil {
		return &fs.PathError{Op: "close", Path: f.name, Err: err}
	}
	return nil
}

// ReadAt reads at off without moving the offset (pread), for reading
// ranges of one file on several cores.
func (f *rawFile) ReadAt(p []byte, off int64) (int, error) {
	for {
		n, err := unix.Pread(f.fd, p, off)
		if err == syscall.EINTR {
			continue
		}
		if err != nil {
			return 0, &fs.PathError{Op: "read", Path: f.name, Err: err}
		}
		if n < len(p) {
			return n, io.EOF
		}
		return n, nil
	}
}

// regularSize is the size of an opened regular file, false for anything
// else (a pipe, a device).
func (f *rawFile) regularSize() (int64, bool) {
	var st unix.Stat_t
	if unix.Fstat(f.fd, &st) != nil || st.Mode&unix.S_IFMT != unix.S_IFREG {
		return 0, false
	}
	return st.Size, true
}

// Fd and Name make a rawFile a blake3tree.File, which it maps.
func (f *rawFile) Fd() uintptr  { return uintptr(f.fd) }
func (f *rawFile) Name() string { return f.name }

// Ranges is an opened regular file, for reading at offsets or mapping,
// and its size.
func Ranges(r io.Reader) (blake3tree.File, int64, bool) {
	f, ok := r.(*rawFile)
	if !ok {
		return nil, 0, false
	}
	size, ok := f.regularSize()
	return f, size, ok
}
