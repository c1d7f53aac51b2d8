//go:build !purego

package md5

import (
	"github.com/hashlanes/hashlanes/internal/cpu"
	"github.com/hashlanes/hashlanes/internal/kernel"
)

// A lone stream runs crypto/md5's arm64 assembly; the NEON lanes (every
// arm64 CPU has NEON) run concurrent ones.
var singles = []kernel.Single[State]{
	{Name: "generic", Level: cpu.Generic, Reference: true, Fn: blockGeneric},
	{Name: "stdlib", Level: cpu.Generic, Fn: blockStdlib},
}

// multis: the reference, then the generated kernels.
var multis = append([]kernel.Multi[State]{generic}, laneKernels...)

var batches []kernel.Batch

// blockStdlib runs whole blocks through crypto/md5. Loading and saving
// the state costs about a block, so the engine calls it with as many
// blocks at once as it has.
var blockStdlib = kernel.LibBlocks(Spec)
