//go:build !purego

package sha1

import (
	"slices"
	"unsafe"

	"github.com/hashlanes/hashlanes/internal/cpu"
	"github.com/hashlanes/hashlanes/internal/kernel"
)

//go:generate go run -C ../_asm ./sha1 -out ../sha1/sha1block_amd64.s -stubs ../sha1/sha1block_amd64_stubs.go -lanes ../sha1/sha1block_lanes_amd64.go -pkg sha1

func singles() []kernel.Single[State] {
	return []kernel.Single[State]{
		{Name: "generic", Level: cpu.Generic, Reference: true, Fn: blockGeneric},
		{Name: "shani", Level: cpu.Generic, Needs: cpu.SHA, Short: true, Fn: blockSHANIState},
	}
}

var batches = batchKernels

// multis: the reference, the generated kernels, then the hybrid.
func multis() []kernel.Multi[State] {
	return slices.Concat([]kernel.Multi[State]{generic()}, laneKernels, []kernel.Multi[State]{{Name: "shanix2+avx512ymmx8", Level: cpu.AVX512, Needs: cpu.SHA, Lanes: 10, Fast: 2, FastBlocks: hybridFastBlocks, Fn: blocksHybrid}})
}

// hybridFastBlocks is the blocks each SHA-NI stream of the hybrid kernel
// hashes for every block of its lanes (the generator's hybridPasses).
const hybridFastBlocks = 2

func blockSHANIState(s *State, p []byte) { blockSHANI((*[5]uint32)(s), p) }

// blocksHybrid runs blockSHANIx2AVX512YMMx8: lanes 0 and 1 are its SHA-NI
// streams, lanes 2..9 its AVX-512 ones.
func blocksHybrid(states *[kernel.MaxLanes]*State, ptrs *[kernel.MaxLanes]*byte, mask uint32, nblocks int) {
	var h kernel.Hybrid32[State]
	if h.Load(states, ptrs, mask, nblocks, hybridFastBlocks, maxBlocks, &zeroLanes[0]) {
		blockSHANIx2AVX512YMMx8(&h.Rows, &h.Fast, (*[5][8]uint32)(unsafe.Pointer(&h.Lanes)), &h.Ptrs, nblocks)
		h.Store(states)
	}
}
