//go:build !purego

package sha512

import (
	"slices"
	"unsafe"

	"github.com/hashlanes/hashlanes/internal/cpu"
	"github.com/hashlanes/hashlanes/internal/kernel"
)

//go:generate go run -C ../_asm ./sha512 -out ../sha512/sha512block_amd64.s -stubs ../sha512/sha512block_amd64_stubs.go -lanes ../sha512/sha512block_lanes_amd64.go -pkg sha512

// A lone stream runs hashlanes' own kernel, rounds in the general-purpose
// registers and the message schedule in vector ones, as crypto/sha512's
// assembly does: with AVX2 as fast as the library's, with AVX-512's
// rotates and three-way XOR faster, as the schedule then takes fewer of
// the ports the rounds need. Short: a new stream is a Front, one
// allocation, where the library's hasher in a Hasher is two
// (docs/engine.md, "A new stream's front").
func singles() []kernel.Single[State] {
	return append(kernel.LibSingles(blockGeneric, &Spec512),
		kernel.Single[State]{Name: "avx2", Level: cpu.AVX2, Short: true, Fn: blockAVX2State},
		kernel.Single[State]{Name: "avx512", Level: cpu.AVX512, Short: true, Fn: blockAVX512State})
}

func blockAVX2State(s *State, p []byte)   { blockAVX2((*[8]uint64)(s), p) }
func blockAVX512State(s *State, p []byte) { blockAVX512((*[8]uint64)(s), p) }

func batches(init *State, size int) []kernel.Batch {
	return batchKernels((*byte)(unsafe.Pointer(init)), size)
}

// multis: the reference, then the generated kernels.
func multis() []kernel.Multi[State] {
	return slices.Concat([]kernel.Multi[State]{generic()}, laneKernels)
}
