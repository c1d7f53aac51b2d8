// Package warm emits the refresh of a lane kernel's own code in the L2.
//
// A lane kernel streams its lanes' data through the L2, 0.5-1 MiB a call,
// while it runs from the L1i and the op cache. Zen 4's L2 is inclusive of
// the L1i; the likely story is that its replacement, which does not see
// the hits in the L1i, takes the kernel's lines for unused and evicts
// them (from the L1i too), to be fetched again. Reading the code as data
// every 8 KiB of each lane made the kernels faster on streams of 1 MiB:
//   - SHA-1 16 lanes alone (one call per 32 KiB of 16 lanes of 1 MiB,
//     MB/s, medians of 6 alternations): 5620 without, 6080 read every
//     128 blocks, 6050 every 256 (+8%); PREFETCHT0 of it every 64 blocks
//     5870; PREFETCHT1 (into the L2 only, on Zen 4) every 8, 64 or 512
//     blocks 5280, 5520, 5520 against 5490-5670: no gain.
//   - The same for MD5's 32-lane kernel: 7010 without, 7290 (+4%).
//   - The stream workload, SHA-1, N=16 x 1 MiB, one core, 12 runs each,
//     alternating: 3.28x crypto/sha1 without, 3.59x with.
//
// With the lanes in the L2 it costs ~240 loads every 128 blocks, about
// 0.1% of a kernel's instructions; measured there, old and new were within
// this machine's noise.
package warm

import (
	"fmt"

	. "github.com/mmcloughlin/avo/build"
	. "github.com/mmcloughlin/avo/operand"
	"github.com/mmcloughlin/avo/reg"
)

// LaneBytes is how many bytes of each lane a kernel hashes between two
// refreshes of its code.
const LaneBytes = 8 << 10

// Code emits, at the top of fn's block loop, a read of every cache line
// of fn's first codeBytes bytes, run whenever the count of blocks left, n,
// is a multiple of LaneBytes/blockBytes: every LaneBytes of each lane
// in a long call, never in a call too short for the code to go cold.
// codeBytes must cover fn's code (TestCodeWarmed in internal/kernel checks
// it against the test binary's function table); the comment it emits
// records the figure.
func Code(fn string, codeBytes, blockBytes int, n reg.Register) {
	Comment(fmt.Sprintf("warm: the first %d bytes of %s, every %d blocks", codeBytes, fn, LaneBytes/blockBytes))
	skip := fn + "_warm_skip"
	TESTQ(U32(LaneBytes/blockBytes-1), n)
	JNZ(LabelRef(skip))
	p, c, sink := GP64(), GP64(), GP32()
	LEAQ(NewDataAddr(Symbol{Name: "·" + fn}, 0), p)
	MOVQ(U32((codeBytes+255)/256), c)
	Label(fn + "_warm")
	for i := range 4 {
		MOVL(Mem{Base: p, Disp: 64 * i}, sink)
	}
	ADDQ(U32(256), p)
	DECQ(c)
	JNZ(LabelRef(fn + "_warm"))
	Label(skip)
}
