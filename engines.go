package hashlanes

import (
	"crypto/md5"
	"crypto/sha1"
	"crypto/sha256"
	"crypto/sha3"
	"crypto/sha512"
	"fmt"
	"hash"
	"slices"

	"golang.org/x/crypto/blake2b"
	"golang.org/x/crypto/blake2s"
	"lukechampine.com/blake3"

	"github.com/hashlanes/hashlanes/internal/cpu"
	"github.com/hashlanes/hashlanes/internal/engine"
	"github.com/hashlanes/hashlanes/internal/tuning"
)

// newServer wires algorithm a to its engine at CPU level l, its kernels
// chosen by the rates src gives for its kernel family.
func newServer(a Algorithm, l cpu.Level, src func(*tuning.Family) tuning.Source) *Server {
	switch a {
	case MD5:
		return engineOrReference(a, l, md5Spec, md5Kernels(l), src(md5Family))
	case SHA1:
		return engineOrReference(a, l, sha1Spec, sha1Kernels(l), src(sha1Family))
	case SHA256:
		return engineOrReference(a, l, sha256Spec256, sha256Kernels(sha256Spec256, l), src(sha256Family))
	case SHA224:
		return engineOrReference(a, l, sha256Spec224, sha256Kernels(sha256Spec224, l), src(sha256Family))
	case SHA512:
		return engineOrReference(a, l, sha512Spec512, sha512Kernels(sha512Spec512, l), src(sha512Family))
	case SHA384:
		return engineOrReference(a, l, sha512Spec384, sha512Kernels(sha512Spec384, l), src(sha512Family))
	case SHA512_224:
		return engineOrReference(a, l, sha512Spec512224, sha512Kernels(sha512Spec512224, l), src(sha512Family))
	case SHA512_256:
		return engineOrReference(a, l, sha512Spec512256, sha512Kernels(sha512Spec512256, l), src(sha512Family))
	}
	return referenceServer(a) // not on the engine yet
}

// engineOrReference serves a on the engine, unless the only single-stream
// kernel there is the pure-Go reference while the tier was not forced down
// to generic: on other GOARCHes, with -tags purego, or on a CPU without
// SHA-NI, a lone stream would run slower than the standard library's own
// assembly, and a lone stream must never be slower. A generic tier chosen
// by HASHLANES_CPU or WithCPU still runs the engine's pure-Go path; that is
// how it is tested.
func engineOrReference[S any](a Algorithm, l cpu.Level, spec *engine.Spec[S], k engine.Kernels[S], src tuning.Source) *Server {
	forcedGeneric := l == cpu.Generic && cpu.Detected > cpu.Generic
	if k.Single.Reference && !forcedGeneric {
		return referenceServer(a)
	}
	return fromEngine(a, engine.NewServer(spec, k, src), src)
}

// referenceServer serves a through its reference implementation; its
// Kernel is the package's import path.
func referenceServer(a Algorithm) *Server {
	s := newServerOf(a, servedNew(a), func() error { return nil }, references[a].pkg)
	s.reference = true
	return s
}

// servedNew makes a reference server's hashers: the reference
// implementation's, wrapped where its library lacks part of the contract
// every hasher keeps (libhashers.go).
func servedNew(a Algorithm) func() hash.Hash {
	switch a {
	case BLAKE2b, BLAKE2s:
		return func() hash.Hash { return newBLAKE2(a) }
	case BLAKE3:
		return newBLAKE3
	}
	return references[a].new
}

func newServerOf(a Algorithm, newHash func() hash.Hash, close func() error, kernel string) *Server {
	s := &Server{alg: a, newHash: newHash, close: close, kernel: kernel}
	s.pool.New = func() any { return newHash() }
	s.many = s.sumManyLoop
	return s
}

// ReferenceHash returns the implementation hashlanes is tested against for
// a: the standard library's (crypto/md5, crypto/sha1, crypto/sha256,
// crypto/sha512, crypto/sha3), golang.org/x/crypto's BLAKE2 or
// lukechampine.com/blake3. Benchmarks compare with it.
func ReferenceHash(a Algorithm) hash.Hash {
	a.mustInfo()
	return references[a].new()
}

// ReferenceSum appends the reference implementation's digest of data to
// dst, through its one-shot function where it has one (md5.Sum, ...): the
// loop SumMany is measured against.
func ReferenceSum(a Algorithm, dst, data []byte) []byte {
	a.mustInfo()
	return oneShot(a, dst, data)
}

// oneShot appends the standard library's one-shot digest of m: a switch of
// direct calls, since tiny batches are measured against exactly that loop.
func oneShot(a Algorithm, dst, m []byte) []byte {
	switch a {
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
		s := blake3.Sum256(m)
		return append(dst, s[:]...)
	}
	a.mustInfo()
	h := references[a].new()
	h.Write(m)
	return h.Sum(dst)
}

// sumManyLoop is SumMany for algorithms not yet on the engine: one pooled
// hasher, message after message.
func (s *Server) sumManyLoop(dst []byte, msgs [][]byte) []byte {
	dst = slices.Grow(dst, len(msgs)*s.alg.Size())
	h := s.pool.Get().(hash.Hash)
	for _, m := range msgs {
		h.Reset()
		h.Write(m)
		dst = h.Sum(dst)
	}
	s.pool.Put(h)
	return dst
}

// references are each algorithm's reference implementation, with the
// import path of the package it comes from: the fallback for algorithms
// not on the engine, and the baseline of the tests.
var references = [maxAlgorithm]struct {
	pkg string
	new func() hash.Hash
}{
	MD5:        {"crypto/md5", md5.New},
	SHA1:       {"crypto/sha1", sha1.New},
	SHA224:     {"crypto/sha256", sha256.New224},
	SHA256:     {"crypto/sha256", sha256.New},
	SHA384:     {"crypto/sha512", sha512.New384},
	SHA512:     {"crypto/sha512", sha512.New},
	SHA512_224: {"crypto/sha512", sha512.New512_224},
	SHA512_256: {"crypto/sha512", sha512.New512_256},
	SHA3_224:   {"crypto/sha3", func() hash.Hash { return sha3.New224() }},
	SHA3_256:   {"crypto/sha3", func() hash.Hash { return sha3.New256() }},
	SHA3_384:   {"crypto/sha3", func() hash.Hash { return sha3.New384() }},
	SHA3_512:   {"crypto/sha3", func() hash.Hash { return sha3.New512() }},
	BLAKE2b:    {"golang.org/x/crypto/blake2b", func() hash.Hash { return must(blake2b.New512(nil)) }},
	BLAKE2s:    {"golang.org/x/crypto/blake2s", func() hash.Hash { return must(blake2s.New256(nil)) }},
	BLAKE3:     {"lukechampine.com/blake3", func() hash.Hash { return blake3.New(32, nil) }},
}

// must unwraps constructors that fail only for bad keys, and no key is
// given.
func must(h hash.Hash, err error) hash.Hash {
	if err != nil {
		panic(err)
	}
	return h
}

func fromEngine[S any](a Algorithm, e *engine.Server[S], src tuning.Source) *Server {
	k := e.Kernels()
	desc := k.Single.Name + " (single stream)"
	for i := len(k.Multi) - 1; i >= 0; i-- {
		m := &k.Multi[i]
		lanes := fmt.Sprint(m.Lanes)
		if m.Fast > 0 { // a hybrid kernel: its fast lanes, then the others
			lanes = fmt.Sprintf("%d+%d", m.Fast, m.Lanes-m.Fast)
		}
		desc = fmt.Sprintf("%s (%s lanes) + %s", m.Name, lanes, desc)
	}
	s := newServerOf(a, func() hash.Hash { return e.NewHash() }, e.Close, desc)
	s.stats = func() Stats { return Stats(e.Stats()) }
	s.many = e.SumMany
	s.choice, s.src = e.Choice(), src
	return s
}

// appendSum appends the digest of one message, hashed on a pooled hasher
// of the server, to dst.
func (s *Server) appendSum(dst, data []byte) []byte {
	h := s.pool.Get().(hash.Hash)
	h.Reset()
	h.Write(data)
	dst = h.Sum(dst)
	s.pool.Put(h)
	return dst
}
