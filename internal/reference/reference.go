// Package reference is the implementations hashlanes is tested and
// measured against: the standard library's (crypto/md5, crypto/sha1,
// crypto/sha256, crypto/sha512, crypto/sha3), golang.org/x/crypto's BLAKE2
// and lukechampine.com/blake3. The library serves the algorithms it runs
// no kernels for through them; its tests, the command's benchmark and the
// benchmarks beside it compare with them.
//
// BLAKE2's and BLAKE3's are installed by importing a package that calls
// Install: github.com/hashlanes/hashlanes/blake2, which programs that hash
// BLAKE2 import, and ./blake3ref, which the tests and the command import
// (the library serves BLAKE3 on its own tree). Linked into every program
// that imports hashlanes, either would bring a CPU detection that runs at
// start, CPUID instructions that are each a trap to the hypervisor in a
// VM: golang.org/x/sys/cpu's six, klauspost/cpuid's dozens
// (docs/engine.md, "Start-up").
package reference

import (
	"crypto/md5"
	"crypto/sha1"
	"crypto/sha256"
	"crypto/sha3"
	"crypto/sha512"
	"hash"
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
	// Installed implementations: their one-shot function, and the package
	// whose import installs them.
	sum       func(dst, m []byte) []byte
	installer string
}{
	MD5:        {name: "md5", pkg: "crypto/md5", new: md5.New},
	SHA1:       {name: "sha1", pkg: "crypto/sha1", new: sha1.New},
	SHA224:     {name: "sha224", pkg: "crypto/sha256", new: sha256.New224},
	SHA256:     {name: "sha256", pkg: "crypto/sha256", new: sha256.New},
	SHA384:     {name: "sha384", pkg: "crypto/sha512", new: sha512.New384},
	SHA512:     {name: "sha512", pkg: "crypto/sha512", new: sha512.New},
	SHA512_224: {name: "sha512-224", pkg: "crypto/sha512", new: sha512.New512_224},
	SHA512_256: {name: "sha512-256", pkg: "crypto/sha512", new: sha512.New512_256},
	SHA3_224:   {name: "sha3-224", pkg: "crypto/sha3", new: func() hash.Hash { return sha3.New224() }},
	SHA3_256:   {name: "sha3-256", pkg: "crypto/sha3", new: func() hash.Hash { return sha3.New256() }},
	SHA3_384:   {name: "sha3-384", pkg: "crypto/sha3", new: func() hash.Hash { return sha3.New384() }},
	SHA3_512:   {name: "sha3-512", pkg: "crypto/sha3", new: func() hash.Hash { return sha3.New512() }},
	BLAKE2b:    {name: "blake2b", pkg: "golang.org/x/crypto/blake2b", installer: "github.com/hashlanes/hashlanes/blake2"},
	BLAKE2s:    {name: "blake2s", pkg: "golang.org/x/crypto/blake2s", installer: "github.com/hashlanes/hashlanes/blake2"},
	BLAKE3:     {name: "blake3", pkg: "lukechampine.com/blake3", installer: "github.com/hashlanes/hashlanes/internal/reference/blake3ref"},
}

// Install installs an implementation linked apart (see the package
// documentation): its hasher and its one-shot function, which appends the
// digest of m to dst. It is for the init of the installing package, not
// safe while the package is in use.
func Install(id ID, newHash func() hash.Hash, sum func(dst, m []byte) []byte) {
	id.must()
	if impls[id].installer == "" {
		panic("reference: " + impls[id].name + " is always linked")
	}
	impls[id].new, impls[id].sum = newHash, sum
}

// Linked reports whether the algorithm's implementation is in the program:
// always, but for those Install installs.
func (id ID) Linked() bool { id.must(); return impls[id].new != nil }

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
		panic("hashlanes: " + impls[id].name + " is not linked into this program: import _ \"" + impls[id].installer + "\"")
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
	case BLAKE2b, BLAKE2s, BLAKE3:
		id.mustLinked()
		return impls[id].sum(dst, m)
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
