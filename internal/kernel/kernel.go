// Package kernel is the contract between the block functions of each
// algorithm (in the packages below this one) and the engine that feeds them.
//
// A kernel is a pure function over lanes: it takes chaining states, one
// pointer per lane to that lane's next blocks, a mask of the lanes in use and
// a block count. It starts no goroutine, allocates nothing and knows nothing
// of streams, padding or lengths.
//
// A batch kernel is the exception that short messages pay for: it takes
// whole messages and returns digests, padding each message itself as it
// loads it, since for a message of one or two blocks staging a padded copy
// and moving states in and out of the lane layout cost more than the
// rounds.
package kernel

import (
	"unsafe"

	"github.com/hashlanes/hashlanes/internal/cpu"
)

// MaxLanes is the most lanes any multi-lane kernel takes.
const MaxLanes = 32

// MaxLaneBytes bounds the bytes one multi-lane call hashes per lane, so a
// goroutine inside a kernel call is soon preemptible again (the standard
// library bounds its assembly calls the same way).
const MaxLaneBytes = 64 << 10

// Single hashes whole blocks of one stream into its chaining state.
type Single[S any] struct {
	Name      string
	Level     cpu.Level   // lowest CPU level it needs
	Needs     cpu.Feature // extensions it needs besides the level's (SHA-NI)
	Reference bool        // the pure-Go reference, slower than the standard library's assembly
	// Short: a new stream starts on it (the engine's Front), and a stream
	// reused message after message hashes its short messages on it,
	// rather than in the standard library's hasher, because this kernel
	// with the engine's Sum costs less there (measured with
	// BenchmarkNewPerMessage and BenchmarkReused; docs/engine.md, "A new
	// stream's front" and "Short messages of a reused stream").
	Short bool
	Fn    func(s *S, p []byte)
}

// Multi hashes nblocks blocks in each lane whose bit is set in mask, reading
// lane i's blocks from ptrs[i] onwards and updating *states[i]. Lanes outside
// the mask are neither read nor written. No lane hashes more than
// MaxLaneBytes a call.
//
// A hybrid kernel runs its first Fast lanes on another unit than the rest
// (SHA-NI streams beside AVX-512 lanes), at a rate per stream so far
// above a lane's that they cannot share a block count: each of them
// hashes FastBlocks*nblocks blocks, which is what bounds nblocks.
type Multi[S any] struct {
	Name       string
	Level      cpu.Level
	Needs      cpu.Feature
	Lanes      int
	Fast       int  // the first Fast lanes are fast ones; 0 for a kernel of alike lanes
	FastBlocks int  // blocks a fast lane hashes for each block of the others
	Reference  bool // the pure-Go reference: for tests, never worth running
	Fn         func(states *[MaxLanes]*S, ptrs *[MaxLanes]*byte, mask uint32, nblocks int)
}

// LaneBlocks is the blocks lane i hashes in a call for nblocks.
func (m *Multi[S]) LaneBlocks(i, nblocks int) int {
	if i < m.Fast {
		return m.FastBlocks * nblocks
	}
	return nblocks
}

// MaxBlocks is the largest nblocks a call takes for blocks of blockSize
// bytes.
func (m *Multi[S]) MaxBlocks(blockSize int) int {
	return MaxLaneBytes / blockSize / max(1, m.FastBlocks)
}

// Blocks is the blocks lanes 0..used-1 hash together in a call for
// nblocks: a fast lane counts FastBlocks times.
func (m *Multi[S]) Blocks(used, nblocks int) int {
	fast := min(used, m.Fast)
	return (fast*m.FastBlocks + used - fast) * nblocks
}

// Weight is what lanes 0..used-1 are worth against all lanes busy: the
// share of the kernel's blocks per call they hash, used/Lanes for alike
// lanes.
func (m *Multi[S]) Weight(used int) float64 {
	return float64(m.Blocks(used, 1)) / float64(m.Blocks(m.Lanes, 1))
}

// MaxBatchBlocks bounds the padded length, in blocks, of the messages a
// batch kernel takes.
const MaxBatchBlocks = 4

// MaxBatchMsgs bounds the messages of one batch kernel call, so that the
// goroutine is soon preemptible again.
const MaxBatchMsgs = 256

// Batch hashes whole messages, Lanes at a time, from the initial value to
// the digest: message i is msgs[idx[i]], which the kernel pads as it loads
// it, and for i < n its digest (the algorithm's encoding, Size bytes) is
// written to out[Size*idx[i]:]. len(idx) is a multiple of Lanes, at most
// MaxBatchMsgs; every entry is hashed, so those from n on must name a
// message too (idx[0] will do). All messages pad to exactly nblocks
// blocks, 1 <= nblocks <= MaxBatchBlocks. No byte outside a message is
// read. Taking the message list and indices themselves, rather than
// pointers and lengths gathered in Go, saves SumMany three stores a
// message; taking many lane-fulls a call lets the kernel load the next
// one's blocks during this one's rounds.
type Batch struct {
	Name  string
	Level cpu.Level
	Needs cpu.Feature
	Lanes int
	Fn    func(msgs [][]byte, idx []int32, n int, out *byte, nblocks int)
}

func (b Batch) level() cpu.Level { return effectiveLevel(b.Level, b.Needs) }

// Usable reports whether the kernel can run at level l on this CPU.
func (b Batch) Usable(l cpu.Level) bool { return b.level() <= l }

// Best returns the last of the implementations the level allows; lists are
// ordered slowest first.
func Best[K interface{ level() cpu.Level }](impls []K, l cpu.Level) (K, bool) {
	var best K
	found := false
	for _, k := range impls {
		if k.level() <= l {
			best, found = k, true
		}
	}
	return best, found
}

func (s Single[S]) level() cpu.Level { return effectiveLevel(s.Level, s.Needs) }

// Usable reports whether the kernel can run at level l on this CPU.
func (s Single[S]) Usable(l cpu.Level) bool { return s.level() <= l }

// effectiveLevel is the tier a kernel needs: its level, or, if it needs an
// extension (SHA-NI), at least the AVX2 tier, so that the generic tier means
// no SIMD and no hash extensions whether it is chosen by HASHLANES_CPU or by
// a Server's cap; a kernel whose extension is missing is never usable.
func effectiveLevel(l cpu.Level, needs cpu.Feature) cpu.Level {
	switch {
	case needs == 0:
		return l
	case !cpu.Has(needs):
		return cpu.Level(1 << 30)
	}
	return max(l, cpu.AVX2)
}
func (m Multi[S]) level() cpu.Level { return effectiveLevel(m.Level, m.Needs) }

// Usable reports whether the kernel can run at level l on this CPU.
func (m Multi[S]) Usable(l cpu.Level) bool { return m.level() <= l }

// Reference makes the multi-lane reference kernel from a single-stream
// block function: lane after lane, the shape the assembly kernels are
// pinned to. It is marked Reference, so the engine never runs it.
func Reference[S any](block func(*S, []byte), blockSize int) Multi[S] {
	return Multi[S]{
		Name: "generic", Level: cpu.Generic, Lanes: MaxLanes, Reference: true,
		Fn: func(states *[MaxLanes]*S, ptrs *[MaxLanes]*byte, mask uint32, nblocks int) {
			for i := range MaxLanes {
				if mask&(1<<i) != 0 && nblocks > 0 {
					block(states[i], unsafe.Slice(ptrs[i], nblocks*blockSize))
				}
			}
		},
	}
}
