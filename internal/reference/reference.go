// Package reference is the implementations hashlanes is tested and
// measured against: the standard library's (crypto/md5, crypto/sha1,
// crypto/sha256, crypto/sha512, crypto/sha3), golang.org/x/crypto's BLAKE2
// and lukechampine.com/blake3. The library serves the algorithms it runs
// no kernels for through them; its tests, the command's benchmark and the
// benchmarks beside it compare with them.
//
// BLAKE3's is installed by importing ./blake3ref, which the tests and the
// command do and the library does not: it serves BLAKE3 on its own tree,
// and lukechampine.com/blake3 would bring its CPU detection, dozens of
// CPUID instructions (each a trap to the hypervisor in a VM) at the start
// of every program that imports hashlanes (docs/engine.md, "Start-up").
package reference

import (
	"crypto/md5"
	"crypto/sha1"
	"crypto/sha256"
	"crypto/sha3"
	"crypto/sha512"
	"hash"

	"golang.org/x/crypto/blake2b"
	"golang.org/x/crypto/blake2s"
)

// ID names an algorithm. The values are hashlanes.Algorithm's (a test of
// the root package keeps them so), so that the library converts rather
// than looks up.
type ID int

const (
	MD5 ID = iota + 1
	SHA1
	SHA224
	SHA256
	SHA384
	SHA512
	SHA512_224
	SHA512_256
	SHA3_224
	SHA3_256
	SHA3_384
	SHA3_512
	BLAKE2b // BLAKE2b-512
	BLAKE2s // BLAKE2s-256
	BLAKE3  // 256-bit output
	end
)

var impls = [end]struct {
	name, pkg string
	new       func() hash.Hash
}{
	MD5:        {"md5", "crypto/md5", md5.New},
	SHA1:       {"sha1", "crypto/sha1", sha1.New},
	SHA224:     {"sha224", "crypto/sha256", sha256.New224},
	SHA256:     {"sha256", "crypto/sha256", sha256.New},
	SHA384:     {"sha384", "crypto/sha512", sha512.New384},
	SHA512:     {"sha512", "crypto/sha512", sha512.New},
	SHA512_224: {"sha512-224", "crypto/sha512", sha512.New512_224},
	SHA512_256: {"sha512-256", "crypto/sha512", sha512.New512_256},
	SHA3_224:   {"sha3-224", "crypto/sha3", func() hash.Hash { return sha3.New224() }},
	SHA3_256:   {"sha3-256", "crypto/sha3", func() hash.Hash { return sha3.New256() }},
	SHA3_384:   {"sha3-384", "crypto/sha3", func() hash.Hash { return sha3.New384() }},
	SHA3_512:   {"sha3-512", "crypto/sha3", func() hash.Hash { return sha3.New512() }},
	BLAKE2b:    {"blake2b", "golang.org/x/crypto/blake2b", func() hash.Hash { return must(blake2b.New512(nil)) }},
	BLAKE2s:    {"blake2s", "golang.org/x/crypto/blake2s", func() hash.Hash { return must(blake2s.New256(nil)) }},
	BLAKE3:     {"blake3", "lukechampine.com/blake3", nil}, // SetBLAKE3
}

// blake3Sum256 is BLAKE3's one-shot function, installed with its hasher.
var blake3Sum256 func([]byte) [32]byte

// SetBLAKE3 installs BLAKE3's reference implementation, its hasher and
// one-shot function (see the package documentation). It is not safe to
// call while the package is in use.
func SetBLAKE3(newHash func() hash.Hash, sum256 func([]byte) [32]byte) {
	impls[BLAKE3].new, blake3Sum256 = newHash, sum256
}

// must unwraps constructors that fail only for bad keys, and no key is
// given.
func must(h hash.Hash, err error) hash.Hash {
	if err != nil {
		panic(err)
	}
	return h
}

func (id ID) valid() bool { return id >= MD5 && id < end }

// Named returns the ID of the algorithm of that name (hashlanes'
// Algorithm.String: "md5", "sha512-256", "blake3", ...).
func Named(name string) (ID, bool) {
	for id := MD5; id < end; id++ {
		if impls[id].name == name {
			return id, true
		}
	}
	return 0, false
}

// Name is the algorithm's name.
func (id ID) Name() string { id.must(); return impls[id].name }

// Package is the import path of its implementation.
func (id ID) Package() string { id.must(); return impls[id].pkg }

// New returns a hasher of the reference implementation.
func (id ID) New() hash.Hash { id.mustLinked(); return impls[id].new() }

func (id ID) must() {
	if !id.valid() {
		panic("reference: unknown algorithm")
	}
}

// mustLinked is must, and that the implementation is installed.
func (id ID) mustLinked() {
	id.must()
	if impls[id].new == nil {
		panic("reference: " + impls[id].pkg + " is not linked: import github.com/hashlanes/hashlanes/internal/reference/blake3ref")
	}
}

// Sum appends the reference implementation's digest of m to dst, through
// its one-shot function (md5.Sum, ...): a switch of direct calls, as
// AppendSum's short messages take it (SumEach for a batch).
func (id ID) Sum(dst, m []byte) []byte {
	switch id {
	case MD5:
		s := md5.Sum(m)
		return append(dst, s[:]...)
	case SHA1:
		s := sha1.Sum(m)
		return append(dst, s[:]...)
	case SHA224:
		s := sha256.Sum224(m)
		return append(dst, s[:]...)
	case SHA256:
		s := sha256.Sum256(m)
		return append(dst, s[:]...)
	case SHA384:
		s := sha512.Sum384(m)
		return append(dst, s[:]...)
	case SHA512:
		s := sha512.Sum512(m)
		return append(dst, s[:]...)
	case SHA512_224:
		s := sha512.Sum512_224(m)
		return append(dst, s[:]...)
	case SHA512_256:
		s := sha512.Sum512_256(m)
		return append(dst, s[:]...)
	case SHA3_224:
		s := sha3.Sum224(m)
		return append(dst, s[:]...)
	case SHA3_256:
		s := sha3.Sum256(m)
		return append(dst, s[:]...)
	case SHA3_384:
		s := sha3.Sum384(m)
		return append(dst, s[:]...)
	case SHA3_512:
		s := sha3.Sum512(m)
		return append(dst, s[:]...)
	case BLAKE2b:
		s := blake2b.Sum512(m)
		return append(dst, s[:]...)
	case BLAKE2s:
		s := blake2s.Sum256(m)
		return append(dst, s[:]...)
	case BLAKE3:
		id.mustLinked()
		s := blake3Sum256(m)
		return append(dst, s[:]...)
	}
	h := id.New() // panics on an unknown ID
	h.Write(m)
	return h.Sum(dst)
}

// SumEach appends the one-shot digest of each message to dst in order: for
// the algorithms of the lanes, a loop of the one-shot function chosen once,
// which the compiler inlines, where Sum's switch per message costs a call
// and a large frame (a few percent of a short message's hashing).
func (id ID) SumEach(dst []byte, msgs [][]byte) []byte {
	switch id {
	case MD5:
		for _, m := range msgs {
			s := md5.Sum(m)
			dst = append(dst, s[:]...)
		}
	case SHA1:
		for _, m := range msgs {
			s := sha1.Sum(m)
			dst = append(dst, s[:]...)
		}
	case SHA224:
		for _, m := range msgs {
			s := sha256.Sum224(m)
			dst = append(dst, s[:]...)
		}
	case SHA256:
		for _, m := range msgs {
			s := sha256.Sum256(m)
			dst = append(dst, s[:]...)
		}
	case SHA384:
		for _, m := range msgs {
			s := sha512.Sum384(m)
			dst = append(dst, s[:]...)
		}
	case SHA512:
		for _, m := range msgs {
			s := sha512.Sum512(m)
			dst = append(dst, s[:]...)
		}
	default:
		for _, m := range msgs {
			dst = id.Sum(dst, m)
		}
	}
	return dst
}
