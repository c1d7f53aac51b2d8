//go:build !purego

package md5

import (
	"slices"

	"github.com/hashlanes/hashlanes/internal/kernel"
)

// A lone stream runs crypto/md5's arm64 assembly; two streams interleaved
// in general registers and the NEON lanes (every arm64 CPU has NEON) run
// concurrent ones.
func singles() []kernel.Single[State] { return kernel.LibSingles(blockGeneric, &Spec) }

// multis: the reference, then the generated kernels.
func multis() []kernel.Multi[State] {
	return slices.Concat([]kernel.Multi[State]{generic()}, laneKernels)
}

var batches []kernel.Batch
