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

// sha1Rates are the kernels' throughputs in MB/s, from BenchmarkKernel in
// internal/kernel/sha1, every lane busy, kernels alternating process by
// process. AMD Zen 4 (medians of 5 to 10; raw output in
// bench/results/2026-11-22/kernel-stack-aligned.txt):
//
//	kernel      lanes  MB/s   with b streams ready
//	shani         1    1880   1880 whatever b (crypto/sha1 also uses SHA-NI)
//	shanix2       2    3350   3350 from b = 2
//	avx2x8        8    3800   b/8 x 3800: below the hybrid whatever b
//	avx512x16    16    7100   b/16 x 7100: 6656 at b = 15, a tie with the hybrid
//	shanix2+     10    6700   (2*min(b,2) + min(b,10) - min(b,2))/12 x 6700:
//	avx512x8                  above shanix2 from b = 4
//
// A kernel that leaves ready streams waiting must move 3% more than one
// that takes them all (engine.waitMargin). So rounds with 2 or 3 ready
// streams run two SHA-NI streams, 4 to 14 the hybrid, 15 or more 16
// AVX-512 lanes; without AVX-512 (HASHLANES_CPU=avx2) avx2x8 takes over
// from 8. Both edges were ties on the rates alone, and measured: the
// hybrid with 4 of its streams busy moved 3447 MB/s against shanix2's
// 3358; with 15 ready, the hybrid's 6700 against 6656 for 15 of the 16
// lanes, and at two Ps, where that count is common, choosing the hybrid
// moved 4.6% less (streams-procs-choice.txt).
//
// Side by side, 10 alternating pairs, the hybrid ran 0.96x avx512x16
// (6894 against 7195 MB/s), 0.92x in another 6 (6438 against 7013);
// 6700 is 0.94x. Before the kernels' stack rings were aligned to 64
// bytes, the 16-lane kernel swung between 5.3 and 7.4 GB/s with where
// the callers' frames put its rings (kernel-sha1-stack-offset.txt).
//
// All lanes busy, the hybrid is no faster than the 16 lanes: SHA-1's lane
// rounds already keep the vector pipes busy (rotations issue 2 a cycle,
// and a round needs 3). What it buys is fill: it is full with 10 streams
// where avx512x16 needs 16, so rounds short of streams keep most of the
// rate. That matters at two cores, where each core's share of the streams
// falls to 8 as the burst ends: 8 streams on avx2x8 ran at 0.52x of a
// full 16-lane round, on the hybrid at 0.80x (5562 against 7013 MB/s
// now, 0.79x). Four SHA-NI streams (shanix4) were not measured on Zen 4,
// so they are not run there.
//
// AMD Zen 3 (3.2 GHz, no AVX-512; medians of 6,
// bench/results/2026-11-24/kernel-zen3-sha1.txt):
//
//	kernel   lanes  MB/s   with b streams ready
//	shani      1    1700   1700 whatever b (crypto/sha1: 1640)
//	shanix2    2    3010   from b = 2
//	shanix4    4    4630   b/4 x 4630: above shanix2 from b = 3
//	avx2x8     8    3430   b/8 x 3430: never above shanix4
//
// So a round runs: b = 1 shani, b = 2 shanix2, b >= 3 shanix4, the streams
// beyond its 4 waiting. SHA1RNDS4 has 6 cycles of latency and issues every
// 2 here, so four streams keep the SHA unit busy where two leave a third
// of it idle; with them, SHA-NI moves more than the AVX2 lanes do with
// twice as many streams.
//
// Every count measured (scripts/crossover, kernels alone, medians of 6,
// bench/results/2026-11-24/crossover-table.md), MB/s with b ready:
//
//	b          1     2     3     4     6     8    16
//	shani    1675  1675  1675  1675  1675  1675  1675
//	shanix2  1527  3005  3005  3005  3005  3005  3005
//	shanix4     -  2251  3392  4526  4526  4526  4526
//	avx2x8      -   851  1263  1684  2529  3365  3365
//
// Intel Xeon with AMX (Golden Cove class, 2.6 GHz; scripts/crossover,
// kernels alone, medians of 6,
// bench/results/2026-11-25/goldencove-zmm-crossover-table.md; an earlier
// run without the ZMM kernels, goldencove-crossover-table.md, was within
// 6% but for SHA-1's shanix4, 2504), MB/s with b ready:
//
//	b          1     2     3     4     6     8    16
//	shani    2180  2180  2180  2180  2180  2180  2180 (crypto/sha1 also SHA-NI)
//	shanix2  1201  2397  2397  2397  2397  2397  2397
//	shanix4     -  1110  1672  2238  2238  2238  2238
//	avx2x8      -   956  1435  1901  2849  3804  3804
//	shanix2+    -  1660  2075  2484  3315  4150  4971 (10 lanes)
//	avx512x8
//	avx512x16   -   871  1302  1741  2601  3473  6948
//	zmmx16      -  1009  1524  2042  3047  4040  8053
//	  since     -  1079  1618  2153  3238  4281  8430 (512-bit transpose)
//
// One SHA-NI stream nearly fills the SHA unit here (two move 1.10x one,
// four no more), so the lanes carry SHA-1: a round runs shani for one
// stream, shanix2 for 2 to 4 and zmmx16 from 5. The hybrid is left out
// of these rates: alone it moves more than zmmx16 from 4 to 7 streams
// (2487 against 2153 at 4, 3299 against 3238 at 6), but in the engine,
// where its fast lanes pull ahead of the others and the rounds run short,
// it lost at every count it took. Paired against crypto/sha1, one P, 1 MiB
// streams, medians of 5 alternating processes, with it and without:
// 4 streams 1.055x and 1.062x, 6 streams 1.245x and 1.397x, 8 (zmmx16
// either way from here) 1.783x and 1.836x; at two Ps, 16 streams
// 1.05x as fast and 32 scaled 1.841x against 1.820x
// (goldencove-sha1-without-hybrid.txt). zmmx16 moved 8430 MB/s, 8053
// before it transposed its message in 512-bit registers (scripts/crossover
// at 4 rounds, goldencove-zmm-transpose-crossover-table.md).
// zmmx16 (512-bit forms) replaces avx512x16
// here; Zen 4, where it was not measured, keeps the 256-bit one. The
// hybrid ran at 1% of its rate (50 MB/s) until its lanes kept to
// registers 16-31 (highvec, in internal/kernel/_asm).
var sha1Rates = rateTable{
	cpu.Zen4:       {"generic": 450, "shani": 1880, "shanix2": 3350, "avx2x8": 3800, "avx512x16": 7100, "shanix2+avx512x8": 6700},
	cpu.Zen3:       {"generic": 293, "shani": 1700, "shanix2": 3010, "shanix4": 4630, "avx2x8": 3430},
	cpu.GoldenCove: {"generic": 346, "shani": 2180, "shanix2": 2397, "shanix4": 2238, "avx2x8": 3804, "avx512x16": 6948, "zmmx16": 8430},
}

// sha1Fills are the kernels' shares of their full rate with fewer lanes
// busy, measured (crossover-table.md, above).
var sha1Fills = fillTable{
	cpu.Zen3: {
		"shanix2": {1: 0.508},
		"shanix4": {2: 0.497, 3: 0.750},
		"avx2x8":  {2: 0.253, 3: 0.375, 4: 0.501, 6: 0.752},
	},
}

func sha1Kernels(l cpu.Level, m cpu.Microarch) engine.Kernels[sha1.State] {
	return withBatches(kernelsFor(sha1.Singles(), sha1.Multis(), sha1Rates, sha1Fills, l, m), sha1.Batches(), l, sha1Rates, m)
}
