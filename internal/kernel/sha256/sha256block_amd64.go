//go:build !purego

package sha256

import (
	"unsafe"

	"github.com/hashlanes/hashlanes/internal/cpu"
	"github.com/hashlanes/hashlanes/internal/kernel"
)

//go:generate go run -C ../_asm ./sha256 -out ../sha256/sha256block_amd64.s -stubs ../sha256/sha256block_amd64_stubs.go -pkg sha256

var singles = []kernel.Single[State]{
	{Name: "generic", Level: cpu.Generic, Fn: blockGeneric},
	{Name: "shani", Level: cpu.Generic, Needs: cpu.SHA, Fn: blockSHANIState},
}

var multis = []kernel.Multi[State]{
	generic,
	{Name: "shanix2", Level: cpu.Generic, Needs: cpu.SHA, Lanes: 2, Fn: blocksSHANIx2},
	{Name: "avx512x16", Level: cpu.AVX512, Lanes: 16, Fn: blocksAVX512x16},
}

func blockSHANIState(s *State, p []byte) { blockSHANI((*[8]uint32)(s), p) }

func blocksAVX512x16(states *[kernel.MaxLanes]*State, ptrs *[kernel.MaxLanes]*byte, mask uint32, nblocks int) {
	var ls [8][16]uint32
	var p [16]*byte
	if kernel.ToLanes32(unsafe.Slice(&ls[0][0], 8*16), p[:], states, ptrs, mask, nblocks, maxBlocks, &zeroLanes[0]) {
		blockAVX512x16(&ls, &p, nblocks)
		kernel.FromLanes32(unsafe.Slice(&ls[0][0], 8*16), 16, states, mask)
	}
}

func blocksSHANIx2(states *[kernel.MaxLanes]*State, ptrs *[kernel.MaxLanes]*byte, mask uint32, nblocks int) {
	var ls [2][8]uint32
	var p [2]*byte
	if nblocks <= 0 || mask&3 == 0 {
		return
	}
	if nblocks > maxBlocks {
		panic("sha256: too many blocks for one kernel call")
	}
	for i := range 2 {
		if mask&(1<<i) != 0 {
			ls[i], p[i] = *states[i], ptrs[i]
		} else {
			p[i] = &zeroLanes[0]
		}
	}
	blockSHANIx2(&ls, &p, nblocks)
	for i := range 2 {
		if mask&(1<<i) != 0 {
			*states[i] = ls[i]
		}
	}
}
