package main

// The hybrid: two SHA-NI streams riding in the free slots of eight
// AVX-512 lanes.

import (
	"fmt"

	"github.com/hashlanes/hashlanes/internal/kernel/_asm/stack"
	"github.com/hashlanes/hashlanes/internal/kernel/_asm/transpose"
	"github.com/hashlanes/hashlanes/internal/kernel/_asm/warm"
	. "github.com/mmcloughlin/avo/build"
	. "github.com/mmcloughlin/avo/operand"
	. "github.com/mmcloughlin/avo/reg"
)

// hybrid hashes two streams with SHA-NI and 8 lanes with AVX-512 in one
// instruction stream, as the SHA-256 generator's hybrid does. At full
// occupancy it is no faster than avx512ymmx16 (docs/kernel-design.md,
// "SHA-1's hybrid"), since SHA-1's lane rounds already keep the vector pipes
// busy; what it buys is fill: it is full with 10 streams where
// avx512ymmx16 needs 16, so the rounds that run short of streams (the tail
// of a burst, each core's share at two cores) keep most of the rate. The
// SHA-NI streams take fixed registers X0-X14 (the SHA instructions'
// legacy encoding reaches no others), leaving the lanes Y15-Y31 and
// those of the others that are dead at the time (the register allocator
// sees the fixed ones' lifetimes): one group of 8 lanes, its chaining
// state waiting on the stack while each block is transposed. The streams hash hybridPasses blocks each for every
// lane block, their steps spread evenly over the 80 lane rounds.
func hybrid() {
	const name, row = "blockSHANIx2AVX512YMMx8", 32
	TEXT(name, 0, "func(fs *[2][8]uint32, fp *[2]*byte, s *[5][8]uint32, ptrs *[8]*byte, nblocks int)")
	Pragma("noescape")
	Doc(fmt.Sprintf("%s hashes nblocks blocks of 8 lanes with AVX-512 and, meanwhile, %d*nblocks blocks of two streams with SHA-NI.", name, hybridPasses))
	ring := stack.Aligned(16*row + 5*row)
	saved := ring.Offset(16 * row)
	r := newSHANIRider()
	r.begin()
	sp := Load(Param("s"), GP64())
	pp := Load(Param("ptrs"), GP64())
	n := Load(Param("nblocks"), GP64())
	off := GP64()
	XORQ(off, off)
	copyState(Mem{Base: sp}, saved, row, true)
	Label("hybrid_loop")
	warm.Code(name, 10<<10, 64, n)
	bswap := YMM()
	VMOVDQU32(byteSwapMask(), bswap)
	for h := range 2 {
		transpose.Words8x8EVEX(pp, off, 0, 32*h, func(j int, x VecVirtual) {
			VPSHUFB(bswap, x, x)
			VMOVDQU32(x, ring.Offset(row*(8*h+j)))
		})
	}
	k := broadcastConsts(false)
	l := &lanes{evex: true, w: ring, row: row, x: map[int]VecVirtual{}}
	r.plan()
	l.block(saved, func(t int) Op { return k[min(t, 79)/20] }, func(t int) { r.round(t, 80) })
	ADDQ(U8(64), off)
	DECQ(n)
	JNZ(LabelRef("hybrid_loop"))
	copyState(saved, Mem{Base: sp}, row, true)
	r.end()
	VZEROUPPER()
	RET()
}

// hybridPasses is the SHA-NI blocks of each stream per lane block: 2
// measured best (1, 3 and 4 were slower).
const hybridPasses = 2

// shaniRider is the SHA-NI side of hybrid: two streams whose blocks are
// cut into steps (the save of the state, 20 groups of four rounds, the
// final additions), each step both streams' share, so that their rounds
// interleave. The registers are fixed ones below X16, which the legacy
// encoding of the SHA instructions reaches; the other instructions take
// their VEX forms, which do not merge into the upper halves the lanes
// leave behind.
type shaniRider struct {
	st    [2]stream
	tmp   VecPhysical
	saved Mem
	steps []func()
}

func newSHANIRider() *shaniRider {
	r := &shaniRider{tmp: X14}
	regs := []VecPhysical{X0, X1, X2, X3, X4, X5, X6, X7, X8, X9, X10, X11, X12, X13}
	for l := range r.st {
		x := regs[7*l : 7*l+7]
		r.st[l].abcd, r.st[l].e = x[0], [2]Register{x[1], x[2]}
		r.st[l].m = [4]Register{x[3], x[4], x[5], x[6]}
		r.st[l].vex = true
	}
	return r
}

// begin loads the streams' states (rows of 8 words) and pointers.
func (r *shaniRider) begin() {
	r.saved = stack.Aligned(64)
	fs := Load(Param("fs"), GP64())
	fp := Load(Param("fp"), GP64())
	for l := range r.st {
		s := &r.st[l]
		s.ptr = GP64()
		MOVQ(Mem{Base: fp, Disp: 8 * l}, s.ptr)
		VMOVDQU(Mem{Base: fs, Disp: 32 * l}, s.abcd)
		VPSHUFD(U8(0x1b), s.abcd, s.abcd) // A in the top dword
		VPXOR(s.e[0], s.e[0], s.e[0])
		VPINSRD(U8(3), Mem{Base: fs, Disp: 32*l + 16}, s.e[0], s.e[0]) // E in the top dword
	}
}

// end stores the streams' states back.
func (r *shaniRider) end() {
	fs := Load(Param("fs"), GP64())
	for l := range r.st {
		s := &r.st[l]
		VPSHUFD(U8(0x1b), s.abcd, s.abcd)
		VMOVDQU(s.abcd, Mem{Base: fs, Disp: 32 * l})
		VPEXTRD(U8(3), s.e[0], Mem{Base: fs, Disp: 32*l + 16})
	}
}

// plan lays out the steps of one lane block: hybridPasses blocks of both
// streams.
func (r *shaniRider) plan() {
	r.steps = r.steps[:0]
	for range hybridPasses {
		r.steps = append(r.steps, func() {
			for l := range r.st {
				VMOVDQU(r.st[l].abcd, r.saved.Offset(32*l))
				VMOVDQU(r.st[l].e[0], r.saved.Offset(32*l+16))
			}
		})
		for g := range 20 {
			r.steps = append(r.steps, func() {
				for l := range r.st {
					group(&r.st[l], g, reverseMask())
				}
			})
		}
		r.steps = append(r.steps, func() {
			for l := range r.st {
				s := &r.st[l]
				VMOVDQU(r.saved.Offset(32*l+16), r.tmp)
				SHA1NEXTE(r.tmp, s.e[0])
				VPADDD(r.saved.Offset(32*l), s.abcd, s.abcd)
				ADDQ(U8(64), s.ptr)
			}
		})
	}
}

// round emits the steps that go after lane round t of rounds.
func (r *shaniRider) round(t, rounds int) {
	n := len(r.steps)
	for _, step := range r.steps[t*n/rounds : (t+1)*n/rounds] {
		step()
	}
}
