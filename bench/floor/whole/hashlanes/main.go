// Command hashlanes is ../std on hashlanes: one file hashed and its digest
// printed, then the default engine's waits and yields on standard error.
//
//	hashlanes md5|sha1|sha256|sha512 FILE
package main

import (
	"encoding/hex"
	"fmt"
	"io"
	"os"

	"github.com/hashlanes/hashlanes"
)

func main() {
	if len(os.Args) != 3 {
		fmt.Fprintln(os.Stderr, "usage: hashlanes md5|sha1|sha256|sha512 FILE")
		os.Exit(2)
	}
	a, err := hashlanes.ParseAlgorithm(os.Args[1])
	if err != nil {
		fmt.Fprintln(os.Stderr, "hashlanes:", err)
		os.Exit(2)
	}
	h := hashlanes.New(a)
	f, err := os.Open(os.Args[2])
	if err != nil {
		fmt.Fprintln(os.Stderr, "hashlanes:", err)
		os.Exit(1)
	}
	if _, err := io.Copy(h, f); err != nil {
		fmt.Fprintln(os.Stderr, "hashlanes:", err)
		os.Exit(1)
	}
	fmt.Printf("%s  %s\n", hex.EncodeToString(h.Sum(nil)), os.Args[2])
	st := hashlanes.DefaultServer(a).Stats()
	fmt.Fprintln(os.Stderr, st.Awaits, st.Yields)
}
