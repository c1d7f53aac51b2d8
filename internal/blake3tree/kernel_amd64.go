//go:build !purego

package blake3tree

import (
	"github.com/hashlanes/hashlanes/internal/cpu"
)

//go:generate go run -C ../kernel/_asm ./blake3 -out ../../blake3tree/blake3_amd64.s -stubs ../../blake3tree/blake3_amd64_stubs.go -pkg blake3tree

// useKernels follows the CPU tier: HASHLANES_CPU=avx2 or generic leaves
// the leaves to lukechampine.com/blake3's kernels.
var useKernels = haveKernels && cpu.Active >= cpu.AVX512

const haveKernels = true

func cpuHasKernels() bool { return cpu.Supports(cpu.AVX512) }
