package hashlanes

import (
	"github.com/hashlanes/hashlanes/internal/cpu"
	"github.com/hashlanes/hashlanes/internal/engine"
	"github.com/hashlanes/hashlanes/internal/kernel/sha1"
)

var sha1Spec = &engine.Spec[sha1.State]{
	Name: "sha1", Size: 20, BlockSize: sha1.BlockSize, Init: sha1.Init, LenBytes: 8, BigEndian: true,
	AppendDigest: digestBE[uint32, sha1.State](20),
	Magic:        "sha\x01",
	AppendState:  appendWordsBE[uint32, sha1.State],
	ReadState:    readWordsBE[uint32, sha1.State],
}

// sha1Rates are the kernels' throughputs in MB/s on AMD Zen 4, from
// BenchmarkKernel in internal/kernel/sha1 (medians of 6; raw output, three
// runs, in bench/results/2026-11-21/kernel-sha1.txt):
//
//	kernel      lanes  MB/s   with b streams ready
//	shani         1    1880   1880 whatever b (crypto/sha1 also uses SHA-NI)
//	shanix2       2    3300   3300 from b = 2
//	avx2x8        8    3500   b/8 x 3500: above shanix2 from b = 8
//	avx512x16    16    5800   b/16 x 5800: above the others from b = 10
//
// The 16-lane medians swung between 5.3 and 6.8 GB/s with the input layout
// and the run on this shared machine; 5800 is their middle.
//
// Unlike SHA-256, SHA-1 has no hybrid kernel: SHA-NI streams carried among
// the lanes' rounds, as the SHA-256 one does, bought nothing, since the
// SHA-1 lanes already keep the vector pipes busy (rotations issue 2 a
// cycle, and a round needs 3). Measured side by side, all lanes busy:
// two SHA-NI streams with 8 lanes 7400 MB/s against 7400 for avx512x16
// (2 SHA-NI blocks a lane block; 1, 3 and 4 were slower), one SHA-NI
// stream with 16 lanes 5400-6500 against 5800-6700 (1, 2 or 4 blocks).
var sha1Rates = map[string]float64{"generic": 450, "shani": 1880, "shanix2": 3300, "avx2x8": 3500, "avx512x16": 5800}

func sha1Kernels(l cpu.Level) engine.Kernels[sha1.State] {
	return withBatches(kernelsFor(sha1.Singles(), sha1.Multis(), sha1Rates, l), sha1.Batches(), l)
}
