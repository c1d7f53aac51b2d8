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
	{Name: "avx512x16", Level: cpu.AVX512, Lanes: 16, Fn: blocksAVX512x16},
	{Name: "avx512x32", Level: cpu.AVX512, Lanes: 32, Fn: blocksAVX512x32},
	// The same lanes in ZMM registers: half the instructions, for cores
	// whose 512-bit operations issue nearly as often as 256-bit ones.
	{Name: "zmmx16", Level: cpu.AVX512, Lanes: 16, Fn: blocksZMMx16},
	{Name: "zmmx32", Level: cpu.AVX512, Lanes: 32, Fn: blocksZMMx32},
}

// The batch kernels were measured on URL paths (SumMany, one block each);
// the 32-lane one is the faster per message, the 16-lane one wastes fewer
// lanes on a last short lane-full. Of two of one width, SumMany runs the
// one whose block kernel of the same name moves more here.
var batches = []kernel.Batch{
	{Name: "avx512x16", Level: cpu.AVX512, Lanes: 16, Fn: sumAVX512x16},
	{Name: "zmmx16", Level: cpu.AVX512, Lanes: 16, Fn: sumZMMx16},
	{Name: "avx512x32", Level: cpu.AVX512, Lanes: 32, Fn: sumAVX512x32},
	{Name: "zmmx32", Level: cpu.AVX512, Lanes: 32, Fn: sumZMMx32},
}

func blockScalar(s *State, p []byte) { blockAMD64((*[4]uint32)(s), p) }
