package blake3tree

import (
	"testing"

	"github.com/hashlanes/hashlanes/internal/cpu/cputest"
)

// kernelSets are the ways this package can run: on the compression
// function in Go alone, on the AVX2 kernels (8 lanes a call, two calls for
// 16), and on the AVX-512 ones.
type kernelSet struct {
	name        string
	use16, use8 bool
	flag        string
	have        func() bool
}

var kernelSets = []kernelSet{
	{"generic", false, false, "", func() bool { return true }},
	{"avx2", false, true, "avx2", func() bool { return haveKernels && cpuHasKernels8() }},
	{"avx512", true, false, "avx512", func() bool { return haveKernels && cpuHasKernels() }},
}

// forEachKernelSet runs f with each set of kernels this CPU has in force,
// skipping (or with HASHLANES_TEST_REQUIRE failing) the others.
func forEachKernelSet(t *testing.T, f func(t *testing.T)) { forEachKernelSetOf(t, kernelSets, f) }

func forEachKernelSetOf(t *testing.T, sets []kernelSet, f func(t *testing.T)) {
	for _, k := range sets {
		t.Run(k.name, func(t *testing.T) {
			if k.flag != "" {
				cputest.RequireFlag(t, k.have(), k.flag)
			}
			defer func(u16, u8 bool) { use16, use8 = u16, u8 }(use16, use8)
			use16, use8 = k.use16, k.use8
			f(t)
		})
	}
}
