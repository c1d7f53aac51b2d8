package hashlanes

import (
	"fmt"
	"hash"
	"slices"

	"github.com/hashlanes/hashlanes/internal/cpu"
	"github.com/hashlanes/hashlanes/internal/engine"
	"github.com/hashlanes/hashlanes/internal/reference"
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
	s := newServerOf(a, servedNew(a), func() error { return nil }, reference.ID(a).Package())
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
	return reference.ID(a).New
}

func newServerOf(a Algorithm, newHash func() hash.Hash, close func() error, kernel string) *Server {
	s := &Server{alg: a, newHash: newHash, close: close, kernel: kernel}
	s.pool.New = func() any { return newHash() }
	s.many = s.sumManyLoop
	return s
}

// oneShot appends the reference implementation's one-shot digest of m
// (md5.Sum, ...), or panics on a bad Algorithm.
func oneShot(a Algorithm, dst, m []byte) []byte {
	a.mustInfo()
	return reference.ID(a).Sum(dst, m)
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
