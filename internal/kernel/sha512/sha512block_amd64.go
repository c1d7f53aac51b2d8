//go:build !purego

package sha512

import (
	"unsafe"

	"github.com/hashlanes/hashlanes/internal/cpu"
	"github.com/hashlanes/hashlanes/internal/kernel"
)

//go:generate go run -C ../_asm ./sha512 -out ../sha512/sha512block_amd64.s -stubs ../sha512/sha512block_amd64_stubs.go -lanes ../sha512/sha512block_lanes_amd64.go -pkg sha512

var singles = []kernel.Single[State]{
	{Name: "generic", Level: cpu.Generic, Reference: true, Fn: blockGeneric},
	{Name: "stdlib", Level: cpu.Generic, Fn: blockStdlib},
}

func batches(init *State, size int) []kernel.Batch {
	return batchKernels((*byte)(unsafe.Pointer(init)), size)
}

// multis: the reference, then the generated kernels.
var multis = append([]kernel.Multi[State]{generic}, laneKernels...)

// blockStdlib runs whole blocks through crypto/sha512, whose AVX2
// assembly is the fastest single stream on amd64 (the scalar round is
// bound by its dependency chain, so one stream gains nothing from wider
// registers). Loading and saving the state costs about what one block
// does, so the engine calls it with as many blocks at once as it has.
var blockStdlib = kernel.LibBlocks(Spec512)
