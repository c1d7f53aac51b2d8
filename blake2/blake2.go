// Package blake2 links BLAKE2b-512 and BLAKE2s-256 into hashlanes:
// programs that hash hashlanes.BLAKE2b or hashlanes.BLAKE2s import it for
// its side effect.
//
//	import _ "github.com/hashlanes/hashlanes/blake2"
//
// hashlanes serves BLAKE2 through golang.org/x/crypto's implementations,
// and they bring golang.org/x/sys/cpu, whose start reads six CPUIDs: each
// a trap to the hypervisor in a VM, about 80 µs of a program that hashes
// one small file. The root package does not import them, so that programs
// hashing anything else do not pay it; without this package, hashing
// BLAKE2 panics with the line to add, and hashlanes.BLAKE2b.Available()
// reports false.
package blake2

import (
	"hash"

	"github.com/hashlanes/hashlanes/internal/reference"
	"golang.org/x/crypto/blake2b"
	"golang.org/x/crypto/blake2s"
)

func init() {
	reference.Install(reference.BLAKE2b, newBLAKE2b, func(dst, m []byte) []byte {
		s := blake2b.Sum512(m)
		return append(dst, s[:]...)
	})
	reference.Install(reference.BLAKE2s, newBLAKE2s, func(dst, m []byte) []byte {
		s := blake2s.Sum256(m)
		return append(dst, s[:]...)
	})
}

// The constructors fail only for keys that are too long; no key is given.

func newBLAKE2b() hash.Hash {
	h, err := blake2b.New512(nil)
	if err != nil {
		panic(err)
	}
	return h
}

func newBLAKE2s() hash.Hash {
	h, err := blake2s.New256(nil)
	if err != nil {
		panic(err)
	}
	return h
}
