//go:build unix

package files

import (
	"io/fs"
	"os"
	"slices"
	"strings"
	"time"

	"golang.org/x/sys/unix"
)

// Paths of any length. The kernel resolves at most PATH_MAX bytes (4096 on
// Linux) in one call, but a tree can be deeper than that; find and fts
// walk it by opening each directory relative to the one above (openat).
// A path too long to pass whole is opened here the same way, in parts,
// each no longer than longPart, holding at most two descriptors at a time:
// names stay full relative paths everywhere else.

// longPart is the longest part of a path passed to the kernel in one call:
// under PATH_MAX with room for its terminating NUL.
const longPart = 4000

// openLong opens name with flags, however long it is.
func openLong(name string, flags int) (int, error) {
	dir, rest, err := enterLong(name)
	if err != nil {
		return -1, err
	}
	fd, err := openat(dir, rest, flags)
	closeDir(dir)
	return fd, err
}

// enterLong opens the directories of name's leading parts until what is
// left is short enough for one call, and returns the last one's descriptor
// (unix.AT_FDCWD when name was short enough already) and what is left.
func enterLong(name string) (int, string, error) {
	dir, rest := unix.AT_FDCWD, name
	for len(rest) > longPart {
		cut := strings.LastIndexByte(rest[:longPart], '/')
		if cut <= 0 { // a part with no separator for longPart bytes: no file system has such names
			closeDir(dir)
			return -1, "", unix.ENAMETOOLONG
		}
		fd, err := openat(dir, rest[:cut], unix.O_RDONLY|unix.O_DIRECTORY|unix.O_CLOEXEC)
		closeDir(dir)
		if err != nil {
			return -1, "", err
		}
		dir, rest = fd, strings.TrimLeft(rest[cut:], "/")
	}
	return dir, rest, nil
}

func closeDir(fd int) {
	if fd != unix.AT_FDCWD {
		unix.Close(fd)
	}
}

func openat(dir int, name string, flags int) (int, error) {
	for {
		fd, err := unix.Openat(dir, name, flags, 0)
		if err != unix.EINTR {
			return fd, err
		}
	}
}

// ReadDir is os.ReadDir for a directory of any path length: its
// entries sorted by name.
func ReadDir(name string) ([]fs.DirEntry, error) {
	if len(name) <= longPart {
		return os.ReadDir(name)
	}
	fd, err := openLong(name, unix.O_RDONLY|unix.O_DIRECTORY|unix.O_CLOEXEC)
	if err != nil {
		return nil, &fs.PathError{Op: "open", Path: name, Err: err}
	}
	f := os.NewFile(uintptr(fd), name)
	defer f.Close()
	entries, err := f.ReadDir(-1)
	slices.SortFunc(entries, func(a, b fs.DirEntry) int { return strings.Compare(a.Name(), b.Name()) })
	return entries, err
}

// Stat is os.Stat for a path of any length.
func Stat(name string) (fs.FileInfo, error) {
	if len(name) <= longPart {
		return os.Stat(name)
	}
	var st unix.Stat_t
	if err := fstatatLong(name, &st); err != nil {
		return nil, &fs.PathError{Op: "stat", Path: name, Err: err}
	}
	return statInfo{name: name[strings.LastIndexByte(name, '/')+1:], st: st}, nil
}

func fstatatLong(name string, st *unix.Stat_t) error {
	dir, rest, err := enterLong(name)
	if err != nil {
		return err
	}
	defer closeDir(dir)
	for {
		if err := unix.Fstatat(dir, rest, st, 0); err != unix.EINTR {
			return err
		}
	}
}

// statInfo is a fs.FileInfo of what fstatat returned.
type statInfo struct {
	name string
	st   unix.Stat_t
}

func (s statInfo) Name() string       { return s.name }
func (s statInfo) Size() int64        { return s.st.Size }
func (s statInfo) ModTime() time.Time { return time.Unix(int64(s.st.Mtim.Sec), int64(s.st.Mtim.Nsec)) }
func (s statInfo) IsDir() bool        { return s.Mode().IsDir() }
func (s statInfo) Sys() any           { return &s.st }

func (s statInfo) Mode() fs.FileMode {
	m := fs.FileMode(s.st.Mode & 0o777)
	switch s.st.Mode & unix.S_IFMT {
	case unix.S_IFDIR:
		m |= fs.ModeDir
	case unix.S_IFLNK:
		m |= fs.ModeSymlink
	case unix.S_IFIFO:
		m |= fs.ModeNamedPipe
	case unix.S_IFSOCK:
		m |= fs.ModeSocket
	case unix.S_IFCHR:
		m |= fs.ModeDevice | fs.ModeCharDevice
	case unix.S_IFBLK:
		m |= fs.ModeDevice
	}
	return m
}
