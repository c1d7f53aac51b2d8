//go:build !purego

package sha512

import (
	"slices"

	"github.com/hashlanes/hashlanes/internal/kernel"
)

// A lone stream runs crypto/sha512's arm64 assembly (the SHA-512
// instructions where the CPU has them); two concurrent ones can interleave
// on those instructions.
func singles() []kernel.Single[State] { return kernel.LibSingles(blockGeneric, &Spec512) }

// multis: the reference, then the generated kernel.
func multis() []kernel.Multi[State] {
	return slices.Concat([]kernel.Multi[State]{generic()}, laneKernels)
}

func batches(*State, int) []kernel.Batch { return nil }
