// Command std is the smallest whole program of the floor on the standard
// library: it hashes one file and prints the digest as sha256sum does, so
// that the floor can time a fresh process from exec to exit against the
// same program on hashlanes (../hashlanes), start-up included.
//
//	std md5|sha1|sha256|sha512 FILE
package main

import (
	"crypto/md5"
	"crypto/sha1"
	"crypto/sha256"
	"crypto/sha512"
	"encoding/hex"
	"fmt"
	"hash"
	"io"
	"os"
)

func main() {
	if len(os.Args) != 3 {
		fmt.Fprintln(os.Stderr, "usage: std md5|sha1|sha256|sha512 FILE")
		os.Exit(2)
	}
	var h hash.Hash
	switch os.Args[1] {
	case "md5":
		h = md5.New()
	case "sha1":
		h = sha1.New()
	case "sha256":
		h = sha256.New()
	case "sha512":
		h = sha512.New()
	default:
		fmt.Fprintln(os.Stderr, "std: unknown algorithm", os.Args[1])
		os.Exit(2)
	}
	f, err := os.Open(os.Args[2])
	if err != nil {
		fmt.Fprintln(os.Stderr, "std:", err)
		os.Exit(1)
	}
	if _, err := io.Copy(h, f); err != nil {
		fmt.Fprintln(os.Stderr, "std:", err)
		os.Exit(1)
	}
	fmt.Printf("%s  %s\n", hex.EncodeToString(h.Sum(nil)), os.Args[2])
	fmt.Fprintln(os.Stderr, 0, 0) // no engine: no waits, no yields (as ../hashlanes reports them)
}
