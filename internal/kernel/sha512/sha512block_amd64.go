//go:build !purego

package sha512

import (
	"slices"
	"unsafe"

	"github.com/hashlanes/hashlanes/internal/kernel"
)

//go:generate go run -C ../_asm ./sha512 -out ../sha512/sha512block_amd64.s -stubs ../sha512/sha512block_amd64_stubs.go -lanes ../sha512/sha512block_lanes_amd64.go -pkg sha512

// A lone stream runs crypto/sha512's assembly, the fastest single stream
// on amd64: one stream's rounds are a dependency chain that wider
// registers do not shorten.
func singles() []kernel.Single[State] { return kernel.LibSingles(blockGeneric, &Spec512) }

func batches(init *State, size int) []kernel.Batch {
	return batchKernels((*byte)(unsafe.Pointer(init)), size)
}

// multis: the reference, then the generated kernels.
func multis() []kernel.Multi[State] {
	return slices.Concat([]kernel.Multi[State]{generic()}, laneKernels)
}
