//go:build !purego

package md5

import (
	"slices"

	"github.com/hashlanes/hashlanes/internal/cpu"
	"github.com/hashlanes/hashlanes/internal/kernel"
)

//go:generate go run -C ../_asm ./md5 -out ../md5/md5block_amd64.s -stubs ../md5/md5block_amd64_stubs.go -lanes ../md5/md5block_lanes_amd64.go -pkg md5

func singles() []kernel.Single[State] {
	return []kernel.Single[State]{
		{Name: "generic", Level: cpu.Generic, Reference: true, Fn: blockGeneric},
		// Base x86-64 only, so it also serves HASHLANES_CPU=generic. Short:
		// as fast as crypto/md5's block function, and a new stream's Front
		// saves the library's hasher's allocation (docs/engine.md, "A new
		// stream's front").
		{Name: "amd64", Level: cpu.Generic, Fn: blockScalar, Short: true},
	}
}

// multis: the reference, then the generated kernels.
func multis() []kernel.Multi[State] {
	return slices.Concat([]kernel.Multi[State]{generic()}, laneKernels)
}

// The batch kernels were measured on URL paths (SumMany, one block each);
// the 32-lane one is the faster per message, the 16-lane one wastes fewer
// lanes on a last short lane-full. Of two of one width, SumMany runs the
// one whose block kernel of the same name moves more here.
var batches = batchKernels

func blockScalar(s *State, p []byte) { blockAMD64((*[4]uint32)(s), p) }
