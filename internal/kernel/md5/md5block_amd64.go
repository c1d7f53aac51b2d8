//go:build !purego

package md5

import (
	"github.com/hashlanes/hashlanes/internal/cpu"
	"github.com/hashlanes/hashlanes/internal/kernel"
)

//go:generate go run -C ../_asm ./md5 -out ../md5/md5block_amd64.s -stubs ../md5/md5block_amd64_stubs.go -lanes ../md5/md5block_lanes_amd64.go -pkg md5

var singles = []kernel.Single[State]{
	{Name: "generic", Level: cpu.Generic, Reference: true, Fn: blockGeneric},
	// Base x86-64 only, so it also serves HASHLANES_CPU=generic.
	{Name: "amd64", Level: cpu.Generic, Fn: blockScalar},
}

var multis = []kernel.Multi[State]{
	generic,
	// Base x86-64 only, like amd64: two streams a core without SIMD.
	{Name: "amd64x2", Level: cpu.Generic, Lanes: 2, Fn: blocksAMD64x2},
	{Name: "avx2x16", Level: cpu.AVX2, Lanes: 16, Fn: blocksAVX2},
	{Name: "avx512ymmx16", Level: cpu.AVX512, Lanes: 16, Fn: blocksAVX512YMMx16},
	{Name: "avx512ymmx32", Level: cpu.AVX512, Lanes: 32, Fn: blocksAVX512YMMx32},
	// The same lanes in ZMM registers: half the instructions, for cores
	// whose 512-bit operations issue nearly as often as 256-bit ones.
	{Name: "avx512zmmx16", Level: cpu.AVX512, Lanes: 16, Fn: blocksAVX512ZMMx16},
	{Name: "avx512zmmx32", Level: cpu.AVX512, Lanes: 32, Fn: blocksAVX512ZMMx32},
}

// The batch kernels were measured on URL paths (SumMany, one block each);
// the 32-lane one is the faster per message, the 16-lane one wastes fewer
// lanes on a last short lane-full. Of two of one width, SumMany runs the
// one whose block kernel of the same name moves more here.
var batches = []kernel.Batch{
	{Name: "avx512ymmx16", Level: cpu.AVX512, Lanes: 16, Fn: sumAVX512YMMx16},
	{Name: "avx512zmmx16", Level: cpu.AVX512, Lanes: 16, Fn: sumAVX512ZMMx16},
	{Name: "avx512ymmx32", Level: cpu.AVX512, Lanes: 32, Fn: sumAVX512YMMx32},
	{Name: "avx512zmmx32", Level: cpu.AVX512, Lanes: 32, Fn: sumAVX512ZMMx32},
}

func blockScalar(s *State, p []byte) { blockAMD64((*[4]uint32)(s), p) }
