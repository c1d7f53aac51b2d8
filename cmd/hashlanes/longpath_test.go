//go:build unix

package main

import (
	"crypto/md5"
	"encoding/hex"
	"os"
	"path/filepath"
	"strings"
	"testing"

	"golang.org/x/sys/unix"
)

// deepTree makes levels nested directories of 80-character names under
// dir, deeper than PATH_MAX, with the leaf file and one file halfway down,
// and returns their paths relative to dir. It builds the tree with
// mkdirat, each level relative to the one above, since no single path to
// the leaf can be passed to the kernel.
func deepTree(t *testing.T, dir string, levels int) (leaf, mid string) {
	t.Helper()
	fd, err := unix.Open(dir, unix.O_RDONLY|unix.O_DIRECTORY, 0)
	if err != nil {
		t.Fatal(err)
	}
	var parts []string
	for i := range levels {
		name := strings.Repeat(string(rune('a'+i%26)), 79) + "d"
		if err := unix.Mkdirat(fd, name, 0o755); err != nil {
			t.Fatal(err)
		}
		next, err := unix.Openat(fd, name, unix.O_RDONLY|unix.O_DIRECTORY, 0)
		unix.Close(fd)
		if err != nil {
			t.Fatal(err)
		}
		fd = next
		parts = append(parts, name)
		if i == levels/2 || i == levels-1 {
			f, err := unix.Openat(fd, "file", unix.O_WRONLY|unix.O_CREAT, 0o644)
			if err != nil {
				t.Fatal(err)
			}
			unix.Write(f, []byte(strings.Join(parts, "/")))
			unix.Close(f)
			if i == levels/2 {
				mid = strings.Join(parts, "/") + "/file"
			} else {
				leaf = strings.Join(parts, "/") + "/file"
			}
		}
	}
	unix.Close(fd)
	return leaf, mid
}

// TestDeeperThanPathMax: sum -r hashes a file whose path is longer than the
// kernel takes in one call, naming it by its whole relative path, and
// check reads it back by that name.
func TestDeeperThanPathMax(t *testing.T) {
	dir := t.TempDir()
	leaf, mid := deepTree(t, dir, 60)
	if len(leaf) <= 4096 {
		t.Fatalf("the leaf's path is %d bytes, not past PATH_MAX", len(leaf))
	}
	t.Cleanup(func() { removeDeep(dir) })
	line := func(name string) string {
		s := md5.Sum([]byte(strings.TrimSuffix(name, "/file")))
		return hex.EncodeToString(s[:]) + "  " + name + "\n"
	}
	want := line(leaf) + line(mid) // the walk takes a directory's entries by name: the deeper directory before "file"
	cmd := dropIn(t, "hashlanes", "sum", "-r", "-a", "md5", ".")
	cmd.Dir = dir
	out, err := cmd.CombinedOutput()
	got := strings.ReplaceAll(string(out), "  ./", "  ")
	if err != nil || got != want {
		t.Fatalf("sum -r: %v\n%.300q\nwant\n%.300q", err, got, want)
	}
	if err := os.WriteFile(filepath.Join(dir, "MD5SUMS"), out, 0o644); err != nil {
		t.Fatal(err)
	}
	cmd = dropIn(t, "hashlanes", "check", "MD5SUMS")
	cmd.Dir = dir
	out, err = cmd.CombinedOutput()
	if err != nil || strings.Count(string(out), ": OK\n") != 2 {
		t.Fatalf("check: %v\n%.300q", err, out)
	}
}

// removeDeep removes a tree deeper than os.RemoveAll can reach by name in
// some Go versions: it walks down with openat and unlinks on the way up.
func removeDeep(dir string) {
	var rm func(fd int)
	rm = func(fd int) {
		f := os.NewFile(uintptr(fd), "")
		names, _ := f.Readdirnames(-1)
		for _, n := range names {
			sub, err := unix.Openat(fd, n, unix.O_RDONLY|unix.O_DIRECTORY|unix.O_NOFOLLOW, 0)
			if err == nil {
				rm(sub)
				unix.Unlinkat(fd, n, unix.AT_REMOVEDIR)
			} else {
				unix.Unlinkat(fd, n, 0)
			}
		}
		f.Close()
	}
	if fd, err := unix.Open(dir, unix.O_RDONLY|unix.O_DIRECTORY, 0); err == nil {
		rm(fd)
	}
}
