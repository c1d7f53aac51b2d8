package hashlanes

// Making a Server: NewServer, and the two kinds it makes, one on the
// engine (fromEngine) and one serving the reference implementation
// (referenceServer), both through newServerOf.

import (
	"fmt"
	"hash"
	"math/bits"

	"github.com/hashlanes/hashlanes/internal/blake3tree"
	"github.com/hashlanes/hashlanes/internal/cpu"
	"github.com/hashlanes/hashlanes/internal/engine"
	"github.com/hashlanes/hashlanes/internal/reference"
	"github.com/hashlanes/hashlanes/internal/tuning"
)

// NewServer returns a Server for algorithm a. It panics if a is not an
// Algorithm.
func NewServer(a Algorithm, opts ...Option) *Server {
	a.mustInfo()
	o := options{cpu: ActiveCPU(), tuning: tuning.EnvMode}
	for _, opt := range opts {
		opt(&o)
	}
	return newServer(a, cpu.Level(o.cpu), func(f *tuning.Family) tuning.Source { return ratesIn(f, o.tuning) })
}

// newServer wires algorithm a to its engine at CPU level l, or to its
// reference implementation if it has none.
func newServer(a Algorithm, l cpu.Level, src func(*tuning.Family) tuning.Source) *Server {
	if e := a.mustInfo().engine; e != nil {
		return e.server(a, l, src)
	}
	return referenceServer(a)
}

// server serves a on the engine, unless the only single-stream kernel
// there is the pure-Go reference while the tier was not forced down to
// generic: on other GOARCHes, with -tags purego, or on a CPU without
// SHA-NI, a lone stream would run slower than the standard library's own
// assembly, and a lone stream must never be slower. A generic tier chosen
// by HASHLANES_CPU or WithCPU still runs the engine's pure-Go path; that is
// how it is tested.
func (e *engineAlgorithm[S]) server(a Algorithm, l cpu.Level, src func(*tuning.Family) tuning.Source) *Server {
	k := e.kernels(l)
	forcedGeneric := l == cpu.Generic && cpu.Detected > cpu.Generic
	if k.Single.Reference && !forcedGeneric {
		return referenceServer(a)
	}
	fs := src(e.fam.get())
	return fromEngine(a, engine.NewServer(e.spec, k, fs), fs)
}

func fromEngine[S any](a Algorithm, e *engine.Server[S], src tuning.Source) *Server {
	s := newServerOf(a, e.NewStream, e.Close, func() string { return describe(e.Kernels()) })
	s.stats = func() Stats { return Stats(e.Stats()) }
	s.many = e.SumMany
	s.choice, s.src = e.Choice, src
	single := e.Kernels().Single
	s.oneShot, s.oneShotLevel = single.Short, single.Level
	return s
}

// describe names an engine's kernels for Server.Kernel, formatted when
// asked for (not when the server is made: a fresh process's first hasher
// need not pay for it): "avx512ymmx16 (16 lanes) + ... + shani (single
// stream)".
func describe[S any](k engine.Kernels[S]) string {
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
	s.many = s.sumManyLoop
	if a == BLAKE3 && blake3tree.HaveMany() {
		// In lanes across the messages (blake3tree.SumMany).
		s.many = func(dst []byte, msgs [][]byte) []byte {
			return blake3tree.SumMany(dst, blake3tree.Hash(), msgs, 32)
		}
	}
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

// newServerOf makes what both kinds of Server share; the caller sets many,
// SumMany's path.
func newServerOf(a Algorithm, newHash func() hash.Hash, close func() error, kernel func() string) *Server {
	s := &Server{alg: a, newHash: newHash, close: close, kernel: kernel, blockShift: uint8(bits.TrailingZeros(uint(a.BlockSize())))}
	s.pool.New = func() any { return newHash() }
	return s
}
