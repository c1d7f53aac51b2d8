package hashlanes

import (
	"encoding/binary"

	"github.com/hashlanes/hashlanes/internal/cpu"
	"github.com/hashlanes/hashlanes/internal/engine"
	"github.com/hashlanes/hashlanes/internal/kernel/md5"
)

var md5Spec = &engine.Spec[md5.State]{
	Name: "md5", Size: md5.Size, BlockSize: md5.BlockSize, Init: md5.Init, LenBytes: 8,
	AppendDigest: func(b []byte, s *md5.State) []byte {
		for _, w := range s {
			b = binary.LittleEndian.AppendUint32(b, w)
		}
		return b
	},
	Magic:       "md5\x01",
	AppendState: appendWordsBE[uint32, md5.State],
	ReadState:   readWordsBE[uint32, md5.State],
}

// md5Rates are the kernels' throughputs in MB/s, from BenchmarkKernel in
// internal/kernel/md5 (busy = all lanes, aligned layout, the kernels
// alternating process by process): the engine runs, each round, the kernel
// that moves the most bytes for the streams ready, a kernel with L lanes
// moving ready/L of its rate.
//
// AMD Zen 4 (3.7 GHz), medians of 5 (raw output in
// bench/results/2026-11-22/kernel-stack-aligned.txt):
//
//	kernel     lanes  MB/s   with b streams ready
//	amd64        1     810   810 whatever b
//	avx2x16     16    7300   b/16 x 7300: beats amd64 from b = 2
//	avx512x16   16    9900   b/16 x 9900: from b = 2
//	avx512x32   32   12700   b/32 x 12700: beats x16 (on 16 of the b) from b = 25
//
// With their stack buffers aligned to 64 bytes the 32-lane kernel gained
// 10% and the 16-lane one 6% (11468 and 9380 MB/s before, same run); the
// crossover moved from b = 28.
//
// A masked lane costs as much as a busy one (the kernel's time does not
// depend on the mask), which is why b/L is the right scale on Zen 4.
//
// AMD Zen 3 (3.2 GHz, AVX2 and SHA-NI), medians of 6 (raw output in
// bench/results/2026-11-24/kernel-zen3-md5.txt):
//
//	kernel     lanes  MB/s   with b streams ready
//	amd64        1     710   710 whatever b
//	amd64x2      2    1270   b = 2 (avx2x16 moves 880 at b = 2)
//	avx2x16     16    6300   from b = 3 (measured 1735 at 4; below 16
//	                         lanes, more than b/16 x 6300: md5Fills)
//
// Two scalar streams interleaved (kernel-zen3-md5-x2.txt) took 2 streams
// of 1 MiB from 816 to 1197 MiB/s, 1.79x crypto/md5 (zen3-streams-md5-x2-*,
// processes alternating, medians of 6). At b = 3, measured that way, the
// two kernels tied: 1189 MiB/s with one stream waiting against 1211 on 3
// of the 16 AVX2 lanes (p = 0.065).
//
// Every count measured (scripts/crossover, kernels alone, medians of 6,
// bench/results/2026-11-24/crossover-table.md), MB/s with b ready:
//
//	b          1     2     3     4     6     8    16
//	amd64     700   700   700   700   700   700   700
//	amd64x2   623  1243  1243  1243  1243  1243  1243
//	avx2x16     -   879  1279  1746  2495  3282  5960
//
// A partly filled avx2x16 moves 10-18% more than b/16 of its full rate
// (0.215 of it at b = 3, not 0.1875), which the loads of 16 aligned lanes
// from one 8-way L1 set hold down. Counting those shares (md5Fills), the
// engine runs the 16 lanes from b = 3, where alone they edge amd64x2 by
// 3%, and on 3 streams of 1 MiB the two choices, alternating in one
// process, moved 1.022x (10 processes of 30 pairs; 2 streams, the same
// kernel either way, 0.997x; streams-md5-fill-choice-paired.txt).
//
// Intel Xeon with AMX (Golden Cove class, 2.6 GHz; scripts/crossover,
// kernels alone, medians of 6,
// bench/results/2026-11-25/goldencove-zmm-crossover-table.md; an earlier
// run without the ZMM kernels, goldencove-crossover-table.md, was within
// 6% but for SHA-1's shanix4, 2504), MB/s with b ready:
//
//	b            1     2     3     4     6     8    16
//	amd64      898   898   898   898   898   898   898
//	amd64x2    788  1587  1587  1587  1587  1587  1587
//	avx2x16      -  1025  1535  2049  3055  4081  7976
//	avx512x16    -  1579  2362  3138  4745  6298 12613
//	avx512x32    -   885  1321  1757  2652  3538  6752   (13261 at 32)
//
// Partly filled lanes move b/L of the full rate here (no fills), so a
// round runs amd64 for one stream, amd64x2 for two (a tie with 2 of the
// 16 lanes), avx512x16 from 3 and avx512x32 from 30.
var md5Rates = rateTable{
	cpu.Zen4:       {"amd64": 810, "generic": 420, "avx2x16": 7300, "avx512x16": 9900, "avx512x32": 12700},
	cpu.Zen3:       {"amd64": 710, "generic": 275, "amd64x2": 1270, "avx2x16": 6300},
	cpu.GoldenCove: {"amd64": 898, "generic": 339, "amd64x2": 1587, "avx2x16": 7976, "avx512x16": 12613, "avx512x32": 13261},
}

// md5Fills are the kernels' shares of their full rate with fewer lanes
// busy, measured (crossover-table.md, above).
var md5Fills = fillTable{
	cpu.Zen3: {"amd64x2": {1: 0.501}, "avx2x16": {2: 0.147, 3: 0.215, 4: 0.293, 6: 0.419, 8: 0.551}},
}

// md5Kernels picks the kernels for level l by their rates on m.
func md5Kernels(l cpu.Level, m cpu.Microarch) engine.Kernels[md5.State] {
	return withBatches(kernelsFor(md5.Singles(), md5.Multis(), md5Rates, md5Fills, l, m), md5.Batches(), l, md5Rates, m)
}
