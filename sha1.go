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
//	avx2x8        8    3500   b/8 x 3500: below the hybrid whatever b
//	avx512x16    16    5800   b/16 x 5800: above the others from b = 15
//	shanix2+     10    5400   (2*min(b,2) + min(b,10) - min(b,2))/12 x 5400:
//	avx512x8                  above shanix2 from b = 6, above avx512x16
//	                          up to b = 14
//
// So rounds with 2 to 5 ready streams run two SHA-NI streams, 6 to 14 the
// hybrid, 15 or more 16 AVX-512 lanes; without AVX-512 (HASHLANES_CPU=avx2)
// avx2x8 takes over from 8.
//
// The 16-lane medians swung between 5.3 and 6.8 GB/s with the input layout
// and the run on this shared machine; 5800 is their middle. The hybrid's
// rate is 0.94x avx512x16's, as measured side by side in one run
// (bench/results/2026-11-22/kernel-sha1-hybrid.txt: 6289 against 6714
// MB/s, all lanes busy; 0.97x in another). With b of its streams busy,
// the SHA-NI pair first, it hashes the blocks above of its 12 per lane
// block: measured at b = 8 5359 MB/s against avx2x8's 3496, at b = 4 3210
// against shanix2's 3330.
//
// All lanes busy, the hybrid is no faster than the 16 lanes: SHA-1's lane
// rounds already keep the vector pipes busy (rotations issue 2 a cycle,
// and a round needs 3). What it buys is fill: it is full with 10 streams
// where avx512x16 needs 16, so rounds short of streams keep most of the
// rate. That matters at two cores, where each core's share of the streams
// falls to 8 as the burst ends: 8 streams on avx2x8 ran at 0.52x of a
// full 16-lane round, on the hybrid at 0.80x.
var sha1Rates = map[string]float64{"generic": 450, "shani": 1880, "shanix2": 3300, "avx2x8": 3500, "avx512x16": 5800, "shanix2+avx512x8": 5400}

func sha1Kernels(l cpu.Level) engine.Kernels[sha1.State] {
	return withBatches(kernelsFor(sha1.Singles(), sha1.Multis(), sha1Rates, l), sha1.Batches(), l)
}
