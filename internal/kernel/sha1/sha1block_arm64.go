//go:build !purego

package sha1

import (
	"slices"

	"github.com/hashlanes/hashlanes/internal/kernel"
)

// A lone stream runs crypto/sha1's arm64 assembly (the crypto extensions
// where the CPU has them); two or three concurrent ones can interleave on
// those extensions.
func singles() []kernel.Single[State] { return kernel.LibSingles(blockGeneric, &Spec) }

// multis: the reference, then the generated kernels.
func multis() []kernel.Multi[State] {
	return slices.Concat([]kernel.Multi[State]{generic()}, laneKernels)
}

var batches []kernel.Batch
