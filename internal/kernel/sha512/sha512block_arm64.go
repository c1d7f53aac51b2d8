//go:build !purego

package sha512

import (
	"github.com/hashlanes/hashlanes/internal/cpu"
	"github.com/hashlanes/hashlanes/internal/kernel"
)

// A lone stream runs crypto/sha512's arm64 assembly (the SHA-512
// instructions where the CPU has them); two concurrent ones can interleave
// on those instructions.
var singles = []kernel.Single[State]{
	{Name: "generic", Level: cpu.Generic, Reference: true, Fn: blockGeneric},
	{Name: "stdlib", Level: cpu.Generic, Fn: blockStdlib},
}

// multis: the reference, then the generated kernel.
var multis = append([]kernel.Multi[State]{generic}, laneKernels...)

func batches(*State, int) []kernel.Batch { return nil }

// blockStdlib runs whole blocks through crypto/sha512: its block function
// serves every SHA-512 variant, which differ only in the initial value.
var blockStdlib = kernel.LibBlocks(Spec512)
