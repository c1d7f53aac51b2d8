// Package files reaches files by name however long the name: it walks
// trees in order, opens files with plain system calls, and takes paths
// longer than the kernel resolves in one call a part at a time.
package files

import (
	"io/fs"
	"strings"
)

// Walk visits the regular files under root in sorted order (each
// directory's entries by name), and the problems met on the way (an
// unreadable directory, a link that leads nowhere) in their place, with
// err set. Symbolic links met inside are skipped unless follow, as are
// devices, FIFOs and sockets; a root that is not a directory is visited as
// it is, size -1. With sizes, each file's size is looked up (else -1).
func Walk(root string, follow, sizes bool, visit func(path string, size int64, err error)) {
	visited := map[ID]bool{}
	var walkDir func(dir string)
	walkDir = func(dir string) {
		entries, err := ReadDir(dir)
		if err != nil {
			visit(dir, 0, err)
		}
		for _, e := range entries {
			path := dir + "/" + e.Name() // as find prints it: "./x", "dir//x" stays "dir/x"
			if strings.HasSuffix(dir, "/") {
				path = dir + e.Name()
			}
			typ := e.Type()
			if typ&fs.ModeSymlink != 0 {
				if !follow {
					continue
				}
				fi, err := Stat(path)
				if err != nil {
					visit(path, 0, err)
					continue
				}
				typ = fi.Mode().Type()
			}
			switch {
			case typ.IsDir():
				if id, ok := IDOf(path); ok {
					if visited[id] {
						continue // a link back up the tree
					}
					visited[id] = true
				}
				walkDir(path)
			case typ.IsRegular():
				size := int64(-1)
				if sizes {
					if fi, err := Stat(path); err == nil {
						size = fi.Size()
					}
				}
				visit(path, size, nil)
			}
		}
	}
	fi, err := Stat(root)
	if err != nil || !fi.IsDir() {
		visit(root, -1, nil)
		return
	}
	if id, ok := IDOf(root); ok {
		visited[id] = true
	}
	walkDir(root)
}
