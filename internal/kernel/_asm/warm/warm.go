// Package warm emits the refresh of a lane kernel's own code in the L2.
//
// A lane kernel streams its lanes' data through the L2, 0.5-1 MiB a call,
// while it runs from the L1i and the op cache. On a core whose L2 is
// inclusive of the L1i, the L2's replacement, which does not see the hits
// in the L1i, can take the kernel's lines for unused and evict them;
// reading the code as data every 128 blocks of each lane made the kernels
// faster on streams of 1 MiB, at about 0.1% of their instructions
// (docs/kernel-design.md, "Refreshing a kernel's code in the L2").
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
