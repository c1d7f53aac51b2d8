//go:build !unix

package files

import (
	"io"
	"io/fs"
	"os"

	"github.com/hashlanes/hashlanes/internal/blake3tree"
)

type ID struct{}

func IDOf(string) (ID, bool) { return ID{}, false }

func Open(name string) (io.Reader, error) { return os.Open(name) }

func ReadDir(name string) ([]fs.DirEntry, error) { return os.ReadDir(name) }

func Stat(name string) (fs.FileInfo, error) { return os.Stat(name) }

// Ranges is an opened regular file, for reading at offsets or mapping,
// and its size.
func Ranges(r io.Reader) (blake3tree.File, int64, bool) {
	f, ok := r.(*os.File)
	if !ok {
		return nil, 0, false
	}
	fi, err := f.Stat()
	if err != nil || !fi.Mode().IsRegular() {
		return nil, 0, false
	}
	return f, fi.Size(), true
}
