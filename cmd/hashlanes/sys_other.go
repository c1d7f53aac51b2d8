//go:build !unix

package main

import (
	"context"
	"io"
	"io/fs"
	"os"
	"os/signal"

	"github.com/hashlanes/hashlanes/internal/blake3tree"
)

type fileID struct{}

func idOf(string) (fileID, bool) { return fileID{}, false }

func interruptible() (context.Context, func()) {
	return signal.NotifyContext(context.Background(), os.Interrupt)
}

func dieBySignal() int { return 130 }

func openRaw(name string) (io.Reader, error) { return os.Open(name) }

func readDirLong(name string) ([]fs.DirEntry, error) { return os.ReadDir(name) }

func statLong(name string) (fs.FileInfo, error) { return os.Stat(name) }

// rangesOf is an opened regular file, for reading at offsets or mapping,
// and its size.
func rangesOf(r io.Reader) (blake3tree.File, int64, bool) {
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
