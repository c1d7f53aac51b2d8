package hashlanes

import (
	"github.com/hashlanes/hashlanes/internal/cpu"
	"github.com/hashlanes/hashlanes/internal/engine"
	"github.com/hashlanes/hashlanes/internal/kernel/sha512"
)

func sha512Spec(name string, size int, init sha512.State, magic string) *engine.Spec[sha512.State] {
	return &engine.Spec[sha512.State]{
		Name: name, Size: size, BlockSize: sha512.BlockSize, Init: init, LenBytes: 16, BigEndian: true,
		AppendDigest: digestBE[uint64, sha512.State](size),
		Magic:        magic,
		AppendState:  appendWordsBE[uint64, sha512.State],
		ReadState:    readWordsBE[uint64, sha512.State],
	}
}

var (
	sha512Spec512    = sha512Spec("sha512", 64, sha512.Init512, "sha\x07")
	sha512Spec384    = sha512Spec("sha384", 48, sha512.Init384, "sha\x04")
	sha512Spec512224 = sha512Spec("sha512-224", 28, sha512.Init512_224, "sha\x05")
	sha512Spec512256 = sha512Spec("sha512-256", 32, sha512.Init512_256, "sha\x06")
)

// sha512Rates are the kernels' throughputs in MB/s, from BenchmarkKernel
// in internal/kernel/sha512. AMD Zen 4 (medians of 6, raw output in
// bench/results/2026-11-21/kernel-sha512.txt; avx2x4 from the second run
// appended there):
//
//	kernel     lanes  MB/s   with b streams ready
//	generic      1     347   the pure-Go reference
//	stdlib       1     681   crypto/sha512's AVX2 code, whatever b
//	avx2x4       4    1350   b/4 x 1350: above stdlib from b = 3, never
//	                         above avx512x8 (measured before its VPSHUFB
//	                         rotation and three-instruction Maj, which
//	                         gained 4.5% on Zen 3)
//	avx512x8     8    2810   b/8 x 2810: measured 687 at b = 2 (a tie with
//	                         stdlib), 1390 at b = 4
//
// SHA-512 has no hash extension on this CPU, so lanes pay off from two or
// three streams, where SHA-256's SHA-NI pair is hard to beat.
//
// AMD Zen 3 (medians of 6,
// bench/results/2026-11-24/kernel-zen3-sha512-maj-shuffle.txt):
//
//	kernel     lanes  MB/s   with b streams ready
//	stdlib       1     672   672 whatever b
//	avx2x4       4    1360   b/4 x 1360: from b = 2 (measured 681 at 2,
//	                         1% above stdlib; 1310 and a tie at 2 before
//	                         the VPSHUFB rotation and three-instruction Maj)
//
// Every count measured (scripts/crossover, kernels alone, medians of 6,
// bench/results/2026-11-24/crossover-table.md), MB/s with b ready:
//
//	b          1     2     3     4     6     8    16
//	stdlib    648   648   648   648   648   648   648
//	avx2x4      -   668   998  1261  1261  1261  1261
//
// Intel Xeon with AMX (Golden Cove class, 2.6 GHz; scripts/crossover,
// kernels alone, medians of 6,
// bench/results/2026-11-25/goldencove-zmm-crossover-table.md; an earlier
// run without the ZMM kernels, goldencove-crossover-table.md, was within
// 6% but for SHA-1's shanix4, 2504), MB/s with b ready:
//
//	b          1     2     3     4     6     8    16
//	stdlib    780   780   780   780   780   780   780
//	avx2x4      -   744  1120  1495  1495  1495  1495
//	avx512x8    -   708  1066  1420  2129  2846  2846
//	zmmx8       -   844  1267  1682  2509  3345  3345
//
// So a round runs stdlib for one stream and zmmx8 (512-bit forms, which
// replace avx512x8 here) from 2. Zen 4's rates, which this CPU took before
// it had its own, ran avx512x8 on two streams: 0.91x crypto/sha512.
var sha512Rates = rateTable{
	cpu.Zen4:       {"generic": 347, "stdlib": 681, "avx2x4": 1350, "avx512x8": 2810},
	cpu.Zen3:       {"generic": 322, "stdlib": 672, "avx2x4": 1360},
	cpu.GoldenCove: {"generic": 430, "stdlib": 780, "avx2x4": 1495, "avx512x8": 2846, "zmmx8": 3345},
}

// sha512Fills are the kernels' shares of their full rate with fewer lanes
// busy, measured (crossover-table.md, above).
var sha512Fills = fillTable{
	cpu.Zen3: {"avx2x4": {2: 0.529, 3: 0.791}},
}

// sha512Kernels are the family's kernels for level l, with the batch
// kernels set up for spec's algorithm (its initial value and digest size).
func sha512Kernels(spec *engine.Spec[sha512.State], l cpu.Level, m cpu.Microarch) engine.Kernels[sha512.State] {
	k := kernelsFor(sha512.Singles(), sha512.Multis(), sha512Rates, sha512Fills, l, m)
	return withBatches(k, sha512.Batches(&spec.Init, spec.Size), l, sha512Rates, m)
}
