// Package blake3ref installs lukechampine.com/blake3 as BLAKE3's
// reference implementation in package reference, for the tests and the
// command, which compare hashlanes' BLAKE3 with it; the library does not
// import it (see package reference).
package blake3ref

import (
	"hash"

	"github.com/hashlanes/hashlanes/internal/reference"
	"lukechampine.com/blake3"
)

func init() {
	reference.Install(reference.BLAKE3, func() hash.Hash { return blake3.New(32, nil) }, func(dst, m []byte) []byte {
		s := blake3.Sum256(m)
		return append(dst, s[:]...)
	})
}
