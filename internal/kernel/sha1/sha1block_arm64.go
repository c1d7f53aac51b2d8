//go:build !purego

package sha1

import (
	"github.com/hashlanes/hashlanes/internal/cpu"
	"github.com/hashlanes/hashlanes/internal/kernel"
)

// A lone stream runs crypto/sha1's arm64 assembly (the crypto extensions
// where the CPU has them); two or three concurrent ones can interleave on
// those extensions.
var singles = []kernel.Single[State]{
	{Name: "generic", Level: cpu.Generic, Reference: true, Fn: blockGeneric},
	{Name: "stdlib", Level: cpu.Generic, Fn: blockStdlib},
}

// multis: the reference, then the generated kernels.
var multis = append([]kernel.Multi[State]{generic}, laneKernels...)

var batches []kernel.Batch

// blockStdlib runs whole blocks through crypto/sha1.
var blockStdlib = kernel.LibBlocks(Spec)
