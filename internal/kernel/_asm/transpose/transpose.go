// Package transpose emits the loads that turn one block from each of many
// lanes into lane-major vectors: vector j holds message word j of every lane.
// Contiguous loads and register shuffles beat gathers on the CPUs measured
// (see the kernels' comments for the figures).
package transpose

import (
	"math/bits"

	. "github.com/mmcloughlin/avo/build"
	. "github.com/mmcloughlin/avo/operand"
	"github.com/mmcloughlin/avo/reg"
)

// LanePtr loads lane i's block pointer from the ptrs array.
func LanePtr(ptrs reg.Register, i int) reg.GPVirtual {
	p := GP64()
	MOVQ(Mem{Base: ptrs, Disp: 8 * i}, p)
	return p
}

// Words8x8 loads 32 bytes at ptrs[first+i]+off+disp for lanes i = 0..7 and
// returns 8 YMM registers, the j-th holding 32-bit word j (of those 32 bytes)
// of the 8 lanes: 8 loads and 24 shuffles, VEX forms only (AVX2).
func Words8x8(ptrs, off reg.Register, first, disp int) [8]reg.VecVirtual {
	var w [8]reg.VecVirtual
	var d Deferred
	words8x8(&d, false, rowLoads(false, ptrs, off, first, disp), func(j int, r reg.VecVirtual) { w[j] = r })
	d.Flush()
	return w
}

// Rows8x8 is Words8x8 on the rows load gives (row i into its register),
// run at once, handing each finished word to done: for AVX2 kernels that
// load their rows padded.
func Rows8x8(load func(i int, r reg.VecVirtual), done func(j int, r reg.VecVirtual)) {
	var d Deferred
	words8x8(&d, false, load, done)
	d.Flush()
}

// Words8x8EVEX is Words8x8 in EVEX forms, run at once, handing each
// finished word to done (which may store it), for AVX-512 kernels whose
// registers may be Y16-Y31.
func Words8x8EVEX(ptrs, off reg.Register, first, disp int, done func(j int, r reg.VecVirtual)) {
	var d Deferred
	words8x8(&d, true, rowLoads(true, ptrs, off, first, disp), done)
	d.Flush()
}

// Pipeline is the bookkeeping of a lane kernel that transposes the next
// block while it hashes this one: two message buffers that swap roles
// every block, this block's offset in every lane, and the next block's,
// held at the last block so that the early loads never go past the lanes
// (on the last block the next transpose re-reads it and goes unused).
type Pipeline struct {
	Cur, Nxt  reg.GPVirtual // buffers of this block and of the next
	Off, Next reg.GPVirtual // offsets of this block and of the next
	last      reg.GPVirtual
	block     int
}

// NewPipeline sets up the buffers, at bufs and bufs+half, for nblocks
// blocks of block bytes, starting at offset 0.
func NewPipeline(bufs Mem, half, block int, nblocks reg.Register) *Pipeline {
	p := &Pipeline{Cur: GP64(), Nxt: GP64(), last: GP64(), Off: GP64(), block: block}
	LEAQ(bufs, p.Cur)
	LEAQ(bufs.Offset(half), p.Nxt)
	MOVQ(nblocks, p.last)
	DECQ(p.last)
	SHLQ(U8(bits.TrailingZeros(uint(block))), p.last) // offset of the last block
	XORQ(p.Off, p.Off)
	return p
}

// Begin computes the next block's offset at the top of the block loop.
func (p *Pipeline) Begin() {
	p.Next = GP64()
	LEAQ(Mem{Base: p.Off, Disp: p.block}, p.Next)
	CMPQ(p.Next, p.last)
	CMOVQGT(p.last, p.Next)
}

// End moves to the next block: its offset, and the buffers swapped.
func (p *Pipeline) End() {
	MOVQ(p.Next, p.Off)
	XCHGQ(p.Cur, p.Nxt)
}

// Deferred is a stream of instructions emitted later, a few at a time, so
// that one block's transpose can be spread through the previous block's
// rounds (software pipelining) instead of stalling ahead of them.
type Deferred []func()

// Emit runs up to k pending instructions and reports how many are left.
func (d *Deferred) Emit(k int) int {
	for ; k > 0 && len(*d) > 0; k-- {
		(*d)[0]()
		*d = (*d)[1:]
	}
	return len(*d)
}

// Flush runs whatever is left.
func (d *Deferred) Flush() { d.Emit(len(*d)) }

// DeferWords8x8 is Words8x8 as a deferred stream that hands word j of the
// 8 lanes to done (which may transform and store it) as soon as it is
// finished. Registers are taken only when each instruction runs, so at most
// ten are live at once. It uses EVEX forms only (VSHUFI64X2 for
// VPERM2I128), for AVX-512 kernels whose registers may be Y16-Y31.
func DeferWords8x8(d *Deferred, ptrs, off reg.Register, first, disp int, done func(j int, r reg.VecVirtual)) {
	words8x8(d, true, rowLoads(true, ptrs, off, first, disp), done)
}

// DeferRows16 queues the transpose of the 64-byte blocks at ptrs[i]+off,
// lanes i = first..first+15, into 16 rows of 64 bytes at dst(j), row j
// holding 32-bit word j of every lane (lane i at byte 4(i-first)); swap,
// if not nil, is a VPSHUFB mask applied to each block as it loads (a
// byte swap within words).
//
// Each block is one 64-byte load. Blocks at equal offsets modulo 4 KiB
// share an L1 set (page-aligned buffers, as Go allocates from 4 KiB up,
// put every lane there), and 16 lanes overflow its 8 ways: a transpose
// that loads each block in pieces at different times fetches it again
// for each piece (docs/kernel-design.md, "Loading the lanes"). Each half
// of the lanes is transposed as two groups of four by unpacks within
// 128-bit chunks; then one two-table permute a pair of words puts the
// two groups' pieces of each side by side, stored as the 32-byte halves
// of two rows. About ten registers are live at once.
func DeferRows16(d *Deferred, ptrs, off reg.Register, first int, swap reg.VecVirtual, dst func(j int) Mem) {
	pairs := pairTable()
	for half := range 2 {
		// u[s][m], chunk c: word 4c+m of the half's lanes 4s..4s+3.
		var u [2][4]reg.VecVirtual
		for s := range 2 {
			var r [4]reg.VecVirtual
			for i := range 4 {
				*d = append(*d, func() {
					r[i] = ZMM()
					VMOVDQU32(Mem{Base: LanePtr(ptrs, first+8*half+4*s+i), Index: off, Scale: 1}, r[i])
					if swap != nil {
						VPSHUFB(swap, r[i], r[i])
					}
				})
			}
			var lo01, hi01, lo23, hi23 reg.VecVirtual
			*d = append(*d,
				func() { lo01 = ZMM(); VPUNPCKLDQ(r[1], r[0], lo01) },
				func() { hi01 = ZMM(); VPUNPCKHDQ(r[1], r[0], hi01) },
				func() { lo23 = ZMM(); VPUNPCKLDQ(r[3], r[2], lo23) },
				func() { hi23 = ZMM(); VPUNPCKHDQ(r[3], r[2], hi23) },
				func() { u[s][0] = ZMM(); VPUNPCKLQDQ(lo23, lo01, u[s][0]) },
				func() { u[s][1] = ZMM(); VPUNPCKHQDQ(lo23, lo01, u[s][1]) },
				func() { u[s][2] = ZMM(); VPUNPCKLQDQ(hi23, hi01, u[s][2]) },
				func() { u[s][3] = ZMM(); VPUNPCKHQDQ(hi23, hi01, u[s][3]) },
			)
		}
		for m := range 4 {
			for p := range 2 { // chunks 2p and 2p+1: words 8p+m and 8p+4+m
				*d = append(*d, func() {
					w := ZMM()
					VMOVDQU64(pairs.Offset(64*p), w)
					VPERMI2Q(u[1][m], u[0][m], w)
					VMOVDQU32(w.AsY(), dst(8*p+m).Offset(32*half))
					VEXTRACTI64X4(U8(1), w, dst(8*p+4+m).Offset(32*half))
				})
			}
		}
	}
}

// pairTable is DeferRows16's two VPERMI2Q indices: chunks 0 and 1, then 2
// and 3, of the first table and the second, interleaved.
func pairTable() Mem {
	if pairIndex.Symbol.Name != "" {
		return pairIndex // one table a file
	}
	pairIndex = GLOBL("transpose16pairs", RODATA|NOPTR)
	for i, q := range []uint64{0, 1, 8, 9, 2, 3, 10, 11, 4, 5, 12, 13, 6, 7, 14, 15} {
		DATA(8*i, U64(q))
	}
	return pairIndex
}

var pairIndex Mem

// DeferRows8x8 is DeferWords8x8 with the rows loaded by load, which fills
// register r with the 32 bytes of lane i (0..7) that become its column:
// for kernels that pad the messages themselves as they load them.
func DeferRows8x8(d *Deferred, load func(i int, r reg.VecVirtual), done func(j int, r reg.VecVirtual)) {
	words8x8(d, true, load, done)
}

// rowLoads loads row i from ptrs[first+i]+off+disp, in VEX or EVEX form.
func rowLoads(evex bool, ptrs, off reg.Register, first, disp int) func(i int, r reg.VecVirtual) {
	return func(i int, r reg.VecVirtual) {
		m := Mem{Base: LanePtr(ptrs, first+i), Index: off, Scale: 1, Disp: disp}
		if evex {
			VMOVDQU32(m, r)
		} else {
			VMOVDQU(m, r)
		}
	}
}

// words8x8 queues the 8x8 transpose in VEX (AVX2) or EVEX (AVX-512) forms;
// right after the shuffle that finishes word j it queues done(j, register).
func words8x8(d *Deferred, evex bool, load func(i int, r reg.VecVirtual), done func(j int, r reg.VecVirtual)) {
	lanes2 := func(hi bool, b, a, out reg.VecVirtual) {
		if hi {
			VPERM2I128(U8(0x31), b, a, out)
		} else {
			VPERM2I128(U8(0x20), b, a, out)
		}
	}
	if evex {
		lanes2 = func(hi bool, b, a, out reg.VecVirtual) {
			if hi {
				VSHUFI64X2(U8(3), b, a, out)
			} else {
				VSHUFI64X2(U8(0), b, a, out)
			}
		}
	}
	var r [8]reg.VecVirtual
	for i := range 8 {
		*d = append(*d, func() {
			r[i] = YMM()
			load(i, r[i])
		})
	}
	// t: dword interleave of lane pairs; u[q][m]: in each 128-bit half h,
	// word 4h+m of lanes 4q..4q+3.
	var u [2][4]reg.VecVirtual
	for q := range 2 {
		var lo01, hi01, lo23, hi23 reg.VecVirtual
		*d = append(*d,
			func() { lo01 = YMM(); VPUNPCKLDQ(r[4*q+1], r[4*q], lo01) },
			func() { hi01 = YMM(); VPUNPCKHDQ(r[4*q+1], r[4*q], hi01) },
			func() { lo23 = YMM(); VPUNPCKLDQ(r[4*q+3], r[4*q+2], lo23) },
			func() { hi23 = YMM(); VPUNPCKHDQ(r[4*q+3], r[4*q+2], hi23) },
			func() { u[q][0] = YMM(); VPUNPCKLQDQ(lo23, lo01, u[q][0]) },
			func() { u[q][1] = YMM(); VPUNPCKHQDQ(lo23, lo01, u[q][1]) },
			func() { u[q][2] = YMM(); VPUNPCKLQDQ(hi23, hi01, u[q][2]) },
			func() { u[q][3] = YMM(); VPUNPCKHQDQ(hi23, hi01, u[q][3]) },
		)
	}
	for m := range 4 {
		*d = append(*d,
			func() { w := YMM(); lanes2(false, u[1][m], u[0][m], w); done(m, w) },  // low halves: word m
			func() { w := YMM(); lanes2(true, u[1][m], u[0][m], w); done(4+m, w) }, // high halves: word 4+m
		)
	}
}
