// Package interleave holds what the SHA-NI kernels of several interleaved
// streams share: their parameters, and the registers they hand out by
// hand, since the SHA instructions' legacy encoding names X0-X15 only and
// a kernel of four streams needs nearly all of them.
package interleave

import (
	"fmt"

	"github.com/hashlanes/hashlanes/internal/kernel/_asm/stack"
	"github.com/hashlanes/hashlanes/internal/kernel/_asm/transpose"
	. "github.com/mmcloughlin/avo/build"
	. "github.com/mmcloughlin/avo/operand"
	. "github.com/mmcloughlin/avo/reg"
)

// Kernel declares blockSHANIx<n>, the kernel of n interleaved streams
// whose parameters Params loads, and lays out on its stack an area of
// area bytes a stream, 64-byte aligned: at(l, off) is byte off of stream
// l's area.
func Kernel(n, area int) (at func(l, off int) Mem) {
	name := fmt.Sprintf("blockSHANIx%d", n)
	TEXT(name, 0, fmt.Sprintf("func(s *[%d][8]uint32, ptrs *[%d]*byte, nblocks int)", n, n))
	Pragma("noescape")
	Doc(fmt.Sprintf("%s hashes nblocks blocks of %d streams with SHA-NI.", name, n))
	frame := stack.Aligned(area * n)
	return func(l, off int) Mem { return frame.Offset(area*l + off) }
}

// Batch declares sumSHANIx<n>, the batch kernel of n interleaved streams
// (transpose.DeclareBatch: size 0 for one that takes the initial value
// and digest size), and lays out its stack as Kernel does, with 32 bytes
// of scratch for the padded loads after the streams' areas. It returns
// the areas, the scratch and the walk through the messages' blocks.
func Batch(n, area, size int) (at func(l, off int) Mem, scratch Mem, bs *transpose.BatchStream) {
	name := fmt.Sprintf("sumSHANIx%d", n)
	transpose.DeclareBatch(name, n, size)
	frame := stack.Aligned(area*n + 32)
	return func(l, off int) Mem { return frame.Offset(area*l + off) }, frame.Offset(area * n), transpose.NewBatchStream(name, n, 64)
}

// Params loads the parameters of a kernel of n streams,
// func(s *[n][8]uint32, ptrs *[n]*byte, nblocks int): the states' base,
// the block count and each stream's pointer.
func Params(n int) (states, nblocks Register, ptrs []GPVirtual) {
	states = Load(Param("s"), GP64())
	pp := Load(Param("ptrs"), GP64())
	nblocks = Load(Param("nblocks"), GP64())
	ptrs = make([]GPVirtual, n)
	for l := range ptrs {
		ptrs[l] = GP64()
		MOVQ(Mem{Base: pp, Disp: 8 * l}, ptrs[l])
	}
	return states, nblocks, ptrs
}

// Pool is a set of free registers for values that move from register to
// register as a kernel's groups go by (SHA-1's E, the newest group of a
// message schedule).
type Pool struct{ free []VecPhysical }

// NewPool makes a pool of the registers given.
func NewPool(regs ...VecPhysical) *Pool { return &Pool{free: regs} }

// Take hands out a free register.
func (p *Pool) Take() VecPhysical {
	if len(p.free) == 0 {
		panic("interleave: no register left in the pool")
	}
	x := p.free[len(p.free)-1]
	p.free = p.free[:len(p.free)-1]
	return x
}

// Put returns registers whose values are dead.
func (p *Pool) Put(regs ...VecPhysical) { p.free = append(p.free, regs...) }
