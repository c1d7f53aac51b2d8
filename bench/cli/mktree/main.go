// Command mktree writes the checksum command's benchmark trees: N files of
// random sizes in [min, max] bytes, spread over nested directories, with
// deterministic contents.
package main

import (
	"flag"
	"fmt"
	"math/rand/v2"
	"os"
	"path/filepath"
)

func main() {
	n := flag.Int("n", 10000, "number of files")
	minSize := flag.Int("min", 1<<10, "smallest file, bytes")
	maxSize := flag.Int("max", 64<<10, "largest file, bytes")
	flag.Parse()
	if flag.NArg() != 1 {
		fmt.Fprintln(os.Stderr, "usage: mktree [-n N] [-min B] [-max B] DIR")
		os.Exit(2)
	}
	root := flag.Arg(0)
	r := rand.New(rand.NewPCG(2026, 11))
	buf := make([]byte, *maxSize)
	for i := range *n {
		dir := filepath.Join(root, fmt.Sprintf("d%02d", i%50), fmt.Sprintf("s%d", i%7))
		if err := os.MkdirAll(dir, 0o755); err != nil {
			fmt.Fprintln(os.Stderr, err)
			os.Exit(1)
		}
		size := *minSize + r.IntN(*maxSize-*minSize+1)
		for j := range buf[:size] {
			buf[j] = byte(r.Uint32())
		}
		if err := os.WriteFile(filepath.Join(dir, fmt.Sprintf("f%06d", i)), buf[:size], 0o644); err != nil {
			fmt.Fprintln(os.Stderr, err)
			os.Exit(1)
		}
	}
}
