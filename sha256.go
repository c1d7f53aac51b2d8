package hashlanes

import (
	"github.com/hashlanes/hashlanes/internal/cpu"
	"github.com/hashlanes/hashlanes/internal/engine"
	"github.com/hashlanes/hashlanes/internal/kernel/sha256"
)

func sha256Spec(name string, size int, init sha256.State, magic string) *engine.Spec[sha256.State] {
	return &engine.Spec[sha256.State]{
		Name: name, Size: size, BlockSize: sha256.BlockSize, Init: init, LenBytes: 8, BigEndian: true,
		AppendDigest: digestBE[uint32, sha256.State](size),
		Magic:        magic,
		AppendState:  appendWordsBE[uint32, sha256.State],
		ReadState:    readWordsBE[uint32, sha256.State],
	}
}

var (
	sha256Spec256 = sha256Spec("sha256", 32, sha256.Init256, "sha\x03")
	sha256Spec224 = sha256Spec("sha224", 28, sha256.Init224, "sha\x02")
)

// sha256Rates are the kernels' throughputs in MB/s on AMD Zen 4, from
// BenchmarkKernel in internal/kernel/sha256 (medians of 6, raw output in
// bench/results/2026-11-21/kernel-sha256.txt):
//
//	kernel      lanes  MB/s   with b streams ready
//	shani         1    1780   1780 whatever b (crypto/sha256: 1790)
//	shanix2       2    3350   3350 from b = 2: SHA256RNDS2 issues faster than
//	                          its latency, so two streams fill the SHA unit
//	avx2x8        8    1770   b/8 x 1770: never above shanix2 on this CPU
//	avx512x16    16    2880   b/16 x 2880: never above shanix2 on this CPU
//
// Two interleaved SHA-NI streams and 16 AVX-512 lanes are close here and
// the lanes swing ±20% between runs (an earlier run of the same build had
// them 7% above shanix2); the SHA unit's rate is steady, so it keeps the
// rounds. The lanes win clearly on a CPU without SHA-NI (then shani and
// shanix2 are not built into the choice) or with a slower SHA unit.
var sha256Rates = map[string]float64{"generic": 260, "shani": 1780, "shanix2": 3350, "avx2x8": 1770, "avx512x16": 2880}

func sha256Kernels(l cpu.Level) engine.Kernels[sha256.State] {
	return kernelsFor(sha256.Singles(), sha256.Multis(), sha256Rates, l)
}

// sha256KernelsFor are the family's kernels with the batch kernels set up
// for spec's algorithm (its initial value and digest size).
func sha256KernelsFor(spec *engine.Spec[sha256.State], l cpu.Level) engine.Kernels[sha256.State] {
	return withBatches(sha256Kernels(l), sha256.Batches(&spec.Init, spec.Size), l)
}
