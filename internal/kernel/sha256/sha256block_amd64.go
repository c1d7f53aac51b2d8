//go:build !purego

package sha256

import (
	"slices"
	"unsafe"

	"github.com/hashlanes/hashlanes/internal/cpu"
	"github.com/hashlanes/hashlanes/internal/kernel"
)

//go:generate go run -C ../_asm ./sha256 -out ../sha256/sha256block_amd64.s -stubs ../sha256/sha256block_amd64_stubs.go -lanes ../sha256/sha256block_lanes_amd64.go -pkg sha256

func singles() []kernel.Single[State] {
	return []kernel.Single[State]{
		{Name: "generic", Level: cpu.Generic, Reference: true, Fn: blockGeneric},
		{Name: "shani", Level: cpu.Generic, Needs: cpu.SHA, Short: true, Fn: blockSHANIState},
	}
}

func batches(init *State, size int) []kernel.Batch {
	return batchKernels((*byte)(unsafe.Pointer(init)), size)
}

// multis: the reference, then the generated kernels (the hybrid last).
func multis() []kernel.Multi[State] {
	return slices.Concat([]kernel.Multi[State]{generic()}, laneKernels)
}

func blockSHANIState(s *State, p []byte) { blockSHANI((*[8]uint32)(s), p) }
