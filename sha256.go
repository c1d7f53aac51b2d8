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

// sha256Rates are the kernels' throughputs in MB/s, from BenchmarkKernel
// in internal/kernel/sha256. AMD Zen 4 (medians of 6, raw output in
// bench/results/2026-11-21/kernel-sha256-hybrid.txt):
//
//	kernel            lanes  MB/s   with b streams ready
//	shani               1    1780   1780 whatever b (crypto/sha256: 1790)
//	shanix2             2    3250   3250 from b = 2: SHA256RNDS2 issues faster
//	                                than its latency, so two streams fill the
//	                                SHA unit
//	avx2x8              8    1840   b/8 x 1840: never above shanix2 here
//	avx512x16          16    3300   b/16 x 3300: never above the hybrid here
//	shanix2+avx512x8  2+8    3960   (4 min(b,2) + b-2)/16 x 3960 (fast lanes
//	                                hash 4 blocks to a lane's 1): above
//	                                shanix2 from b = 8 (measured 3430 at 8)
//
// So with b streams ready a round runs: b = 1 shani; b = 2..6 shanix2
// (b = 6: 3250 against 2970 for the hybrid); b >= 7 the hybrid (b = 16:
// 3960 against 3300 for avx512x16), the streams beyond its 10 lanes
// waiting for the next round. b = 7 is a tie on the rates (3218 for the
// hybrid against 3250), which goes to the kernel that takes every ready
// stream (engine.waitMargin).
//
// The hybrid kernel runs two SHA-NI streams and 8 AVX-512 lanes in one
// instruction stream: the SHA unit and the vector pipes work side by side,
// for 1.1-1.2x either kernel alone (a second run, kernel-sha256-final.txt:
// 3680 against 3350 and 3360). The lanes swing ±20% between runs (an
// earlier run had avx512x16 at 2880, below shanix2); the choice between
// shanix2 and the hybrid does not hang on them. Without SHA-NI the lanes
// run alone (avx512x16 or avx2x8). Four SHA-NI streams (shanix4) were not
// measured on Zen 4, whose SHA256RNDS2 issued no faster with four chains
// than with two, so it is not run there.
//
// AMD Zen 3 (3.2 GHz, no AVX-512; medians of 6,
// bench/results/2026-11-24/kernel-zen3-sha256.txt):
//
//	kernel   lanes  MB/s   with b streams ready
//	shani      1    1590   1590 whatever b (crypto/sha256: 1540)
//	shanix2    2    3170   from b = 2 (1585 with one busy: a tie at b = 1)
//	shanix4    4    3340   b/4 x 3340: above shanix2 from b = 4
//	avx2x8     8    1650   b/8 x 1650: never above the SHA-NI kernels
//
// So a round runs: b = 1 shani, b = 2 or 3 shanix2, b >= 4 shanix4, the
// streams beyond its 4 waiting. Here SHA256RNDS2 issues once a cycle with
// four chains in flight, but the message helpers share the SHA unit and
// SHA256MSG2 takes it 2 cycles: a block of one stream needs the unit about
// 63 cycles however many streams run, so four gain only 5% over two (the
// counts are in internal/kernel/_asm/sha256).
//
// Every count measured (scripts/crossover, kernels alone, medians of 6,
// bench/results/2026-11-24/crossover-table.md), MB/s with b ready:
//
//	b          1     2     3     4     6     8    16
//	shani    1560  1560  1560  1560  1560  1560  1560
//	shanix2  1562  3125  3125  3125  3125  3125  3125
//	shanix4     -  1646  2471  3256  3256  3256  3256
//	avx2x8      -   406   612   792  1192  1541  1541
//
// Intel Xeon with AMX (Golden Cove class, 2.6 GHz; scripts/crossover,
// kernels alone, medians of 6,
// bench/results/2026-11-25/goldencove-zmm-crossover-table.md; an earlier
// run without the ZMM kernels, goldencove-crossover-table.md, was within
// 6% but for SHA-1's shanix4, 2504), MB/s with b ready:
//
//	b          1     2     3     4     6     8    16
//	shani    1987  1987  1987  1987  1987  1987  1987
//	shanix2  1351  2706  2706  2706  2706  2706  2706
//	shanix4     -  1359  2057  2722  2722  2722  2722
//	avx2x8      -   455   682   904  1357  1810  1810
//	shanix2+    -  1838  2064  2290  2746  3202  3661 (10 lanes)
//	avx512x8
//	avx512x16   -   441   663   885  1338  1773  3523
//	zmmx16      -   533   797  1067  1598  2116  4215
//	  since     -   543   817  1087  1640  2169  4284 (512-bit transpose,
//	                                              goldencove-zmm-transpose-crossover-table.md)
//
// So a round runs shani for one stream, shanix2 for 2 or 3, shanix4 for 4
// or 5 (at 4 a tie with shanix2), the hybrid from 6 to 13 (from 11 leaving
// streams waiting) and zmmx16 from 14. Two SHA-NI streams move 1.36x one, four no more than two. The
// hybrid ran at 1% of its rate (29 MB/s) until its lanes kept to
// registers 16-31 (highvec); the engine, on Zen 4's rates, ran it from 8
// streams, at 0.03x crypto/sha256 (goldencove-before-highvec-*).
var sha256Rates = rateTable{
	cpu.Zen4:       {"generic": 260, "shani": 1780, "shanix2": 3250, "avx2x8": 1840, "avx512x16": 3300, "shanix2+avx512x8": 3960},
	cpu.Zen3:       {"generic": 204, "shani": 1590, "shanix2": 3170, "shanix4": 3340, "avx2x8": 1650},
	cpu.GoldenCove: {"generic": 273, "shani": 1987, "shanix2": 2706, "shanix4": 2722, "avx2x8": 1810, "shanix2+avx512x8": 3661, "avx512x16": 3523, "zmmx16": 4284},
}

// sha256Fills are the kernels' shares of their full rate with fewer lanes
// busy, measured (crossover-table.md, above).
var sha256Fills = fillTable{
	cpu.Zen3: {
		"shanix2": {1: 0.500},
		"shanix4": {2: 0.505, 3: 0.759},
		"avx2x8":  {2: 0.264, 3: 0.397, 4: 0.514, 6: 0.774},
	},
}

// sha256Kernels are the family's kernels for level l, with the batch
// kernels set up for spec's algorithm (its initial value and digest size).
func sha256Kernels(spec *engine.Spec[sha256.State], l cpu.Level, m cpu.Microarch) engine.Kernels[sha256.State] {
	k := kernelsFor(sha256.Singles(), sha256.Multis(), sha256Rates, sha256Fills, l, m)
	return withBatches(k, sha256.Batches(&spec.Init, spec.Size), l, sha256Rates, m)
}
