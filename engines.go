package hashlanes

import (
	"fmt"
	"hash"
	"slices"
	"sync"

	"github.com/hashlanes/hashlanes/internal/blake3tree"
	"github.com/hashlanes/hashlanes/internal/cpu"
	"github.com/hashlanes/hashlanes/internal/engine"
	"github.com/hashlanes/hashlanes/internal/kernel"
	"github.com/hashlanes/hashlanes/internal/kernel/md5"
	"github.com/hashlanes/hashlanes/internal/kernel/sha1"
	"github.com/hashlanes/hashlanes/internal/kernel/sha256"
	"github.com/hashlanes/hashlanes/internal/kernel/sha512"
	"github.com/hashlanes/hashlanes/internal/reference"
	"github.com/hashlanes/hashlanes/internal/tuning"
)

// The kernel families of the algorithms on the engine, as the tuning
// measures them: SHA-224 shares SHA-256's kernels, SHA-384 and SHA-512/t
// SHA-512's.
var (
	md5Family    = newFamily("md5", md5.BlockSize, md5.Singles(), md5.Multis())
	sha1Family   = newFamily("sha1", sha1.BlockSize, sha1.Singles(), sha1.Multis())
	sha256Family = newFamily("sha256", sha256.BlockSize, sha256.Singles(), sha256.Multis())
	sha512Family = newFamily("sha512", sha512.BlockSize, sha512.Singles(), sha512.Multis())
)

// onEngine is how an algorithm runs on the engine, its entry in
// algorithmInfo: its Spec (from its kernel package), its kernel family and
// its kernels. An engineAlgorithm of any state type.
type onEngine interface {
	family() *tuning.Family
	// server wires algorithm a to its engine at CPU level l, its kernels
	// chosen by the rates src gives for its family.
	server(a Algorithm, l cpu.Level, src func(*tuning.Family) tuning.Source) *Server
}

type engineAlgorithm[S any] struct {
	spec    *kernel.Spec[S]
	fam     *tuning.Family
	singles []kernel.Single[S]
	multis  []kernel.Multi[S]
	batches []kernel.Batch // set up for spec's algorithm
}

func (e engineAlgorithm[S]) family() *tuning.Family { return e.fam }

// kernels lists the kernels that run at level l.
func (e engineAlgorithm[S]) kernels(l cpu.Level) engine.Kernels[S] {
	return kernelsAt(e.singles, e.multis, e.batches, l)
}

// server serves a on the engine, unless the only single-stream kernel
// there is the pure-Go reference while the tier was not forced down to
// generic: on other GOARCHes, with -tags purego, or on a CPU without
// SHA-NI, a lone stream would run slower than the standard library's own
// assembly, and a lone stream must never be slower. A generic tier chosen
// by HASHLANES_CPU or WithCPU still runs the engine's pure-Go path; that is
// how it is tested.
func (e engineAlgorithm[S]) server(a Algorithm, l cpu.Level, src func(*tuning.Family) tuning.Source) *Server {
	k := e.kernels(l)
	forcedGeneric := l == cpu.Generic && cpu.Detected > cpu.Generic
	if k.Single.Reference && !forcedGeneric {
		return referenceServer(a)
	}
	fs := src(e.fam)
	return fromEngine(a, engine.NewServer(e.spec, k, fs), fs)
}

// newServer wires algorithm a to its engine at CPU level l, or to its
// reference implementation if it has none.
func newServer(a Algorithm, l cpu.Level, src func(*tuning.Family) tuning.Source) *Server {
	if e := a.mustInfo().engine; e != nil {
		return e.server(a, l, src)
	}
	return referenceServer(a)
}

// referenceServer serves a through its reference implementation; its
// Kernel is the package's import path.
func referenceServer(a Algorithm) *Server {
	pkg := reference.ID(a).Package()
	if a == BLAKE3 { // hashlanes' own tree, on its kernels (libhashers.go)
		pkg = blake3tree.Kernels()
	}
	s := newServerOf(a, servedNew(a), func() error { return nil }, func() string { return pkg })
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

func newServerOf(a Algorithm, newHash func() hash.Hash, close func() error, kernel func() string) *Server {
	s := &Server{alg: a, newHash: newHash, close: close, kernel: kernel}
	s.pool.New = func() any { return newHash() }
	s.many = s.sumManyLoop
	if a == BLAKE3 && blake3tree.HaveMany() {
		// In lanes across the messages (blake3tree.SumMany).
		s.many = func(dst []byte, msgs [][]byte) []byte {
			return blake3tree.SumMany(dst, blake3tree.Hash(), msgs, 32)
		}
	}
	return s
}

// oneShot appends the reference implementation's one-shot digest of m
// (md5.Sum, ...), or panics on a bad Algorithm.
func oneShot(a Algorithm, dst, m []byte) []byte {
	a.mustInfo()
	if a == BLAKE3 && blake3tree.HaveSmall() {
		// On hashlanes' kernels: one chunk in vector rows, where its
		// library compresses a lone chunk in Go; more, 16 chunks at a
		// time (docs/figures.md, "BLAKE3").
		return blake3tree.Sum256(dst, m)
	}
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
	// Written when asked for: a fresh process's first hasher need not pay
	// for formatting it.
	desc := sync.OnceValue(func() string {
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
		return desc
	})
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
