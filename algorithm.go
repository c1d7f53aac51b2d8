package hashlanes

import (
	"crypto/md5"
	"crypto/sha1"
	"crypto/sha256"
	"crypto/sha512"
	"fmt"
	"strings"
	"unicode"

	"github.com/hashlanes/hashlanes/internal/reference"
)

// Algorithm names a hash function.
type Algorithm int

const (
	MD5 Algorithm = iota + 1
	SHA1
	SHA224
	SHA256
	SHA384
	SHA512
	SHA512_224
	SHA512_256
	// The algorithms below are not on the multi-lane engine: SHA-3 and
	// BLAKE2 run their libraries' code (the standard library's crypto/sha3,
	// golang.org/x/crypto's BLAKE2, linked by importing
	// github.com/hashlanes/hashlanes/blake2), BLAKE3 hashlanes' chunk-tree
	// hasher on its own AVX-512 and AVX2 kernels (internal/blake3tree), so
	// that the one API and the checksum command cover them too.
	SHA3_224
	SHA3_256
	SHA3_384
	SHA3_512
	BLAKE2b // BLAKE2b-512, as b2sum
	BLAKE2s // BLAKE2s-256
	BLAKE3  // 256-bit output
	maxAlgorithm
)

// algorithmDef is what the package knows of an algorithm: its name and
// sizes, and how it runs on the engine (nil: served by its reference
// implementation, internal/reference's entry of the same ID).
type algorithmDef struct {
	name            string
	size, blockSize int
	engine          onEngine
}

// algorithmInfo is the one table of the algorithms; servers are built from
// it (NewServer).
var algorithmInfo = [maxAlgorithm]algorithmDef{
	MD5:        engineDef("md5", md5.Size, md5.BlockSize, &md5Engine),
	SHA1:       engineDef("sha1", sha1.Size, sha1.BlockSize, &sha1Engine),
	SHA224:     engineDef("sha224", sha256.Size224, sha256.BlockSize, &sha224Engine),
	SHA256:     engineDef("sha256", sha256.Size, sha256.BlockSize, &sha256Engine),
	SHA384:     engineDef("sha384", sha512.Size384, sha512.BlockSize, &sha384Engine),
	SHA512:     engineDef("sha512", sha512.Size, sha512.BlockSize, &sha512Engine),
	SHA512_224: engineDef("sha512-224", sha512.Size224, sha512.BlockSize, &sha512_224Engine),
	SHA512_256: engineDef("sha512-256", sha512.Size256, sha512.BlockSize, &sha512_256Engine),
	SHA3_224:   {name: "sha3-224", size: 28, blockSize: 144},
	SHA3_256:   {name: "sha3-256", size: 32, blockSize: 136},
	SHA3_384:   {name: "sha3-384", size: 48, blockSize: 104},
	SHA3_512:   {name: "sha3-512", size: 64, blockSize: 72},
	BLAKE2b:    {name: "blake2b", size: 64, blockSize: 128},
	BLAKE2s:    {name: "blake2s", size: 32, blockSize: 64},
	BLAKE3:     {name: "blake3", size: 32, blockSize: 64},
}

// engineDef is the row of an algorithm on the engine. Its sizes are the
// standard library's constants, not read from the spec, so that the table
// is static data: reading another package's variable at start would be
// code run, and a page of the binary written, in every process
// (TestAlgorithmSizesAreTheSpecs checks they agree).
func engineDef[S any](name string, size, blockSize int, e *engineAlgorithm[S]) algorithmDef {
	return algorithmDef{name: name, size: size, blockSize: blockSize, engine: e}
}

// Algorithms lists every algorithm, in the order of the constants.
func Algorithms() []Algorithm {
	all := make([]Algorithm, 0, maxAlgorithm-1)
	for a := MD5; a < maxAlgorithm; a++ {
		all = append(all, a)
	}
	return all
}

func (a Algorithm) valid() bool { return a >= MD5 && a < maxAlgorithm }

// Available reports whether the algorithm can hash in this program, as
// crypto.Hash.Available does: every one but BLAKE2b and BLAKE2s, which
// need an import of github.com/hashlanes/hashlanes/blake2 (see that
// package); hashing them without it panics with the line to add.
func (a Algorithm) Available() bool {
	switch a {
	case BLAKE2b, BLAKE2s:
		return reference.ID(a).Linked()
	}
	return a.valid()
}

// String returns the algorithm's name as ParseAlgorithm accepts it: "md5",
// "sha256", "sha512-256".
func (a Algorithm) String() string {
	if !a.valid() {
		return fmt.Sprintf("Algorithm(%d)", int(a))
	}
	return algorithmInfo[a].name
}

// Size returns the digest length in bytes.
func (a Algorithm) Size() int { return a.mustInfo().size }

// BlockSize returns the block length in bytes.
func (a Algorithm) BlockSize() int { return a.mustInfo().blockSize }

func (a Algorithm) mustInfo() *algorithmDef {
	if !a.valid() {
		panic(fmt.Sprintf("hashlanes: unknown algorithm %d", int(a)))
	}
	return &algorithmInfo[a]
}

// nameRune folds a rune of a name as ParseAlgorithm matches it: lower case,
// and the separators people write ("_", "/") as "-". A function rather
// than a strings.Replacer, which a package variable would build at every
// process's start.
func nameRune(r rune) rune {
	if r == '_' || r == '/' {
		return '-'
	}
	return unicode.ToLower(r)
}

// ParseAlgorithm returns the algorithm with the given name. Case and the
// punctuation people write ("SHA-256", "sha512/256", "sha512_256") do not
// matter.
func ParseAlgorithm(name string) (Algorithm, error) {
	n := strings.Map(nameRune, name)
	if strings.HasPrefix(n, "sha-") {
		n = "sha" + n[len("sha-"):]
	}
	switch n {
	case "blake2b-512", "b2":
		return BLAKE2b, nil
	case "blake2s-256":
		return BLAKE2s, nil
	}
	for a := MD5; a < maxAlgorithm; a++ {
		if algorithmInfo[a].name == n {
			return a, nil
		}
	}
	return 0, fmt.Errorf("hashlanes: unknown algorithm %q", name)
}
