//go:build !purego

package sha1

import (
	"slices"

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

// multis: the reference, then the generated kernels (the hybrid last).
func multis() []kernel.Multi[State] {
	return slices.Concat([]kernel.Multi[State]{generic()}, laneKernels)
}

func blockSHANIState(s *State, p []byte) { blockSHANI((*[5]uint32)(s), p) }
