//go:build !purego

package md5

import (
	"github.com/hashlanes/hashlanes/internal/cpu"
	"github.com/hashlanes/hashlanes/internal/kernel"
)

//go:generate go run -C ../_asm ./md5 -out ../md5/md5block_amd64.s -stubs ../md5/md5block_amd64_stubs.go -pkg md5

var singles = []kernel.Single[State]{
	{Name: "generic", Level: cpu.Generic, Fn: blockGeneric},
	// Base x86-64 only, so it also serves HASHLANES_CPU=generic.
	{Name: "amd64", Level: cpu.Generic, Fn: blockScalar},
}

var multis = []kernel.Multi[State]{
	generic,
	{Name: "avx2x16", Level: cpu.AVX2, Lanes: Lanes, Fn: blocksAVX2},
	{Name: "avx512x16", Level: cpu.AVX512, Lanes: Lanes, Fn: blocksAVX512},
}

func blockScalar(s *State, p []byte) { blockAMD64((*[4]uint32)(s), p) }

func blocksAVX2(states *[kernel.MaxLanes]*State, ptrs *[kernel.MaxLanes]*byte, mask uint32, nblocks int) {
	var ls laneStates
	var p [Lanes]*byte
	if toLanes(&ls, &p, states, ptrs, mask, nblocks) {
		blockAVX2((*[4][16]uint32)(&ls), &p, nblocks)
		fromLanes(&ls, states, mask)
	}
}

func blocksAVX512(states *[kernel.MaxLanes]*State, ptrs *[kernel.MaxLanes]*byte, mask uint32, nblocks int) {
	var ls laneStates
	var p [Lanes]*byte
	if toLanes(&ls, &p, states, ptrs, mask, nblocks) {
		blockAVX512((*[4][16]uint32)(&ls), &p, nblocks)
		fromLanes(&ls, states, mask)
	}
}
