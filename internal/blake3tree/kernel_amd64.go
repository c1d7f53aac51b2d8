//go:build !purego

package blake3tree

import (
	"github.com/hashlanes/hashlanes/internal/cpu"
)

//go:generate go run -C ../kernel/_asm ./blake3 -out ../../blake3tree/blake3_amd64.s -stubs ../../blake3tree/blake3_amd64_stubs.go -pkg blake3tree

// The kernels follow the CPU tier: AVX-512's 16 lanes a call, or AVX2's 8
// lanes twice (HASHLANES_CPU=avx2 picks those); generic leaves the leaves
// to lukechampine.com/blake3's code.
var (
	use16 = haveKernels && cpu.Active >= cpu.AVX512
	use8  = haveKernels && !use16 && cpu.Active >= cpu.AVX2
)

const haveKernels = true

func cpuHasKernels() bool  { return cpu.Supports(cpu.AVX512) }
func cpuHasKernels8() bool { return cpu.Supports(cpu.AVX2) }
