// Package stack allocates a kernel's locals where its vector accesses
// never cross a cache line.
package stack

import (
	. "github.com/mmcloughlin/avo/build"
	. "github.com/mmcloughlin/avo/operand"
)

// Aligned allocates size bytes of the frame at a 64-byte boundary and
// returns them addressed from a register. Go aligns frames to 8 bytes
// only, so a local's alignment, and with it whether its 32- and 64-byte
// accesses split across cache lines, would otherwise change with every
// caller's frame: a store that crosses a line is not forwarded to the
// load that reads it back, and the kernels that keep a message schedule
// on the stack reload most of what they store.
func Aligned(size int) Mem {
	m := AllocLocal(size + 56)
	p := GP64()
	LEAQ(m, p)
	ADDQ(U8(56), p)
	ANDQ(I32(-64), p)
	return Mem{Base: p}
}
