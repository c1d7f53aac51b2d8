package main

// The lane kernels: 8 lanes in AVX2 registers, 16 in AVX-512 YMM or ZMM
// registers, the message transposed in step with the rounds.

import (
	"fmt"

	"github.com/hashlanes/hashlanes/internal/kernel/_asm/stack"
	"github.com/hashlanes/hashlanes/internal/kernel/_asm/transpose"
	"github.com/hashlanes/hashlanes/internal/kernel/_asm/warm"
	. "github.com/mmcloughlin/avo/build"
	. "github.com/mmcloughlin/avo/operand"
	. "github.com/mmcloughlin/avo/reg"
)

// avx2 hashes 8 lanes in one group of YMM registers with the rounds of
// the AVX-512 kernel spelled in AVX2: each rotation is two shifts and an
// OR, Ch and Maj take three and four instructions. Only 16 registers: the
// state waits in memory while the message is transposed, and the round
// constants are memory operands.
func avx2() {
	TEXT("blockAVX2x8", 0, "func(s *[5][8]uint32, ptrs *[8]*byte, nblocks int)")
	Pragma("noescape")
	Doc("blockAVX2x8 hashes nblocks blocks of 8 lanes with AVX2.")
	const row = 32 // bytes of one word across the lanes
	ring := stack.Aligned(16*row + 5*row)
	saved := ring.Offset(16 * row) // the chaining state between blocks
	sp := Load(Param("s"), GP64())
	pp := Load(Param("ptrs"), GP64())
	n := Load(Param("nblocks"), GP64())
	kt := GP64()
	LEAQ(constTable8(), kt)
	off := GP64()
	XORQ(off, off)
	copyState(Mem{Base: sp}, saved, row, false)
	Label("avx2_loop")
	warm.Code("blockAVX2x8", 10<<10, 64, n)
	for h := range 2 {
		w := transpose.Words8x8(pp, off, 0, 32*h)
		bswap := YMM()
		VMOVDQU(byteSwapMask(), bswap)
		for j, r := range w {
			VPSHUFB(bswap, r, r)
			VMOVDQU(r, ring.Offset(row*(8*h+j)))
		}
	}
	l := &lanes{w: ring, row: row}
	l.block(saved, func(t int) Op { return Mem{Base: kt, Disp: row * (t / 20)} }, nil)
	ADDQ(U8(64), off)
	DECQ(n)
	JNZ(LabelRef("avx2_loop"))
	copyState(saved, Mem{Base: sp}, row, false)
	VZEROUPPER()
	RET()
}

// avx512 hashes 16 lanes as two interleaved groups of 8 in YMM registers
// with the AVX-512 forms: VPROLD for the rotations, VPTERNLOGD for the
// round functions and for the schedule's three-way XOR, the four round
// constants broadcast into registers once. A round is 7 instructions a
// group and the schedule 4 more; the chain from one a to the next is
// VPROLD and VPADDD. 256-bit operations, since 512-bit ones issue at
// half the rate on some cores (see the MD5 generator). The message
// is byte-swapped into a 16-word ring on the stack, where the schedule
// overwrites w[t-16] with w[t]; the next block's transpose, into a second
// ring, is spread through this block's rounds, as in the MD5 kernel.
//
// The rings sit at a 64-byte boundary (stack.Aligned): a row split across
// cache lines is a store the schedule's loads cannot forward from. The
// rotations are the scarce resource (docs/kernel-design.md, "SHA-1's
// AVX-512 lanes").
func avx512() { lanes16("blockAVX512YMMx16", "256-bit", false) }

// zmm is avx512 with the 16 lanes in one group of ZMM registers: half the
// instructions, for CPUs whose 512-bit operations issue nearly as often
// as 256-bit ones (Intel's, on two ports; see sha2.Words.ZMM). The message
// lands in the same rows, 64 bytes a word.
func zmm() { lanes16("blockAVX512ZMMx16", "512-bit", true) }

func lanes16(name, forms string, wide bool) {
	TEXT(name, 0, "func(s *[5][16]uint32, ptrs *[16]*byte, nblocks int)")
	Pragma("noescape")
	Doc(fmt.Sprintf("%s hashes nblocks blocks of 16 lanes with %s AVX-512 instructions.", name, forms))
	const row = 64                           // bytes of one word across the lanes of both groups
	rings := stack.Aligned(2*16*row + 5*row) // this block's message ring and the next block's
	saved := rings.Offset(2 * 16 * row)
	sp := Load(Param("s"), GP64())
	pp := Load(Param("ptrs"), GP64())
	n := Load(Param("nblocks"), GP64())
	pl := transpose.NewPipeline(rings, 16*row, 64, n)
	k := broadcastConsts(wide)
	message, bswap := deferMessage, VecVirtual(nil)
	if wide {
		message, bswap = deferMessageZMM, ZMM()
		VBROADCASTI32X4(byteSwapMask(), bswap) // the 16-byte mask in every chunk
	} else {
		bswap = YMM()
		VMOVDQU32(byteSwapMask(), bswap)
	}
	g := newGroups(wide)
	st := make([][5]VecVirtual, g.n)
	for j := range st {
		for i := range 5 {
			st[j][i] = g.vec()
			VMOVDQU32(Mem{Base: sp, Disp: row*i + g.bytes*j}, st[j][i])
		}
	}
	var first transpose.Deferred
	message(&first, pp, pl.Off, pl.Cur, bswap)
	first.Flush()

	Label("avx512_loop")
	warm.Code(name, 15<<10, 64, n)
	pl.Begin()
	var pipe transpose.Deferred
	message(&pipe, pp, pl.Next, pl.Nxt, bswap)
	hashBlock(st, g, saved, k, pl.Cur, &pipe)
	pl.End()
	DECQ(n)
	JNZ(LabelRef("avx512_loop"))
	for j := range st {
		for i := range 5 {
			VMOVDQU32(st[j][i], Mem{Base: sp, Disp: row*i + g.bytes*j})
		}
	}
	VZEROUPPER()
	RET()
}

// groups is how 16 lanes sit in registers: two groups of YMM registers
// or one of ZMM registers.
type groups struct {
	n, bytes int // groups, and bytes of lanes in each
	wide     bool
}

func newGroups(wide bool) groups {
	if wide {
		return groups{n: 1, bytes: 64, wide: true}
	}
	return groups{n: 2, bytes: 32}
}

// vec allocates a lane register.
func (g groups) vec() VecVirtual { return laneReg(g.wide) }

// laneReg allocates a register of lanes: ZMM if wide, else YMM.
func laneReg(wide bool) VecVirtual {
	if wide {
		return ZMM()
	}
	return YMM()
}

// hashBlock emits one block's 80 rounds for the groups of lanes gr on the
// message ring buf, with pipe (the next block's transpose) spread through
// them, and adds the result into st.
func hashBlock(st [][5]VecVirtual, gr groups, saved Mem, k [4]VecVirtual, buf Register, pipe *transpose.Deferred) {
	const row = 64
	for g := range st {
		for i := range 5 {
			VMOVDQU32(st[g][i], saved.Offset(row*i+gr.bytes*g))
		}
	}
	gs := make([]*lanes, len(st))
	for g := range gs {
		gs[g] = &lanes{evex: true, wide: gr.wide, w: Mem{Base: buf, Disp: gr.bytes * g}, row: row, x: map[int]VecVirtual{}}
		l := gs[g]
		l.v = st[g]
		l.start(k[0])
	}
	perRound := (len(*pipe) + 79) / 80
	for t := range 80 {
		for g, l := range gs {
			l.step(t, k[min(t+1, 79)/20], saved.Offset(row*4+gr.bytes*g), st[g][4])
		}
		pipe.Emit(perRound)
	}
	pipe.Flush()
	for g, l := range gs {
		for i := range 4 {
			VPADDD(saved.Offset(row*i+gr.bytes*g), l.v[i], st[g][i])
		}
	}
}

// lanes is one group of 8 lanes in a lane kernel: its state a..d (v[4] is
// only the chaining e at the start of a block), the sum e + w[t] + k[t] for
// the round to come, the message ring (one word of the 8 lanes every row
// bytes) and, with AVX-512, the schedule's words still in registers. evex
// selects the AVX-512 forms (VPROLD, VPTERNLOGD, 32 registers) over AVX2's.
type lanes struct {
	evex bool
	wide bool // ZMM registers (AVX-512 only)
	v    [5]VecVirtual
	acc  VecVirtual
	w    Mem
	row  int
	x    map[int]VecVirtual
}

func (l *lanes) at(t int) Mem { return l.w.Offset(l.row * (t % 16)) }

// vec allocates a lane register.
func (l *lanes) vec() VecVirtual { return laneReg(l.wide) }

// rol sets dst to x rotated left by k; AVX2 has no rotation: two shifts
// and an OR.
func (l *lanes) rol(k int, x, dst VecVirtual) {
	if l.evex {
		VPROLD(U8(k), x, dst)
		return
	}
	t := YMM()
	VPSLLD(U8(k), x, t)
	VPSRLD(U8(32-k), x, dst)
	VPOR(t, dst, dst)
}

// block emits one block's 80 rounds for a group of lanes whose chaining
// state waits in saved (word i at saved+row*i) and adds the result back
// into it: the AVX2 kernel's lanes and the hybrid's. k(t) is round t's
// constant; ride, if not nil, is emitted after each round.
func (l *lanes) block(saved Mem, k func(t int) Op, ride func(t int)) {
	for i := range 5 {
		l.v[i] = YMM()
		l.mov(saved.Offset(l.row*i), l.v[i])
	}
	l.start(k(0))
	e := YMM()
	for t := range 80 {
		l.step(t, k(t+1), saved.Offset(l.row*4), e)
		if ride != nil {
			ride(t)
		}
	}
	l.mov(e, saved.Offset(l.row*4))
	for i := range 4 {
		VPADDD(saved.Offset(l.row*i), l.v[i], l.v[i])
		l.mov(l.v[i], saved.Offset(l.row*i))
	}
}

// mov moves 32 bytes: the EVEX form reaches Y16-Y31.
func (l *lanes) mov(src, dst Op) {
	if l.evex {
		VMOVDQU32(src, dst)
	} else {
		VMOVDQU(src, dst)
	}
}

// copyState copies a chaining state of one group of lanes, 5 words of row
// bytes, from one place in memory to another.
func copyState(from, to Mem, row int, evex bool) {
	l := &lanes{evex: evex}
	for i := range 5 {
		x := YMM()
		l.mov(from.Offset(row*i), x)
		l.mov(x, to.Offset(row*i))
	}
}

// schedule returns w[t]: from the ring for t < 16, else (w[t-3] ^ w[t-8] ^
// w[t-14] ^ w[t-16]) <<< 1, stored in the ring's slot of w[t-16]. With
// AVX-512 it is kept in a register for w[t+3], which takes it over as its
// destination, and one VPTERNLOGD does two of the XORs.
func (l *lanes) schedule(t int) Op {
	if t < 16 {
		return l.at(t)
	}
	if !l.evex {
		wt := YMM()
		VMOVDQU(l.at(t-3), wt)
		VPXOR(l.at(t-8), wt, wt)
		VPXOR(l.at(t-14), wt, wt)
		VPXOR(l.at(t-16), wt, wt)
		l.rol(1, wt, wt)
		VMOVDQU(wt, l.at(t))
		return wt
	}
	wt, ok := l.x[t-3]
	if !ok {
		wt = l.vec()
		VMOVDQU32(l.at(t-3), wt)
	}
	delete(l.x, t-3)
	y := l.vec()
	VMOVDQU32(l.at(t-8), y)
	VPTERNLOGD(U8(0x96), l.at(t-14), y, wt)
	VPXORD(l.at(t-16), wt, wt)
	l.rol(1, wt, wt)
	VMOVDQU32(wt, l.at(t))
	l.x[t] = wt
	return wt
}

// start begins a block: the first round's e + w[0] + k[0].
func (l *lanes) start(k0 Op) {
	l.acc = l.vec()
	VPADDD(l.at(0), l.v[4], l.acc)
	VPADDD(k0, l.acc, l.acc)
}

// step does round t, first computing the next round's e + w + k from d
// with the next round's constant kn. The last round's d is the block's
// new e: added to the saved one into final.
func (l *lanes) step(t int, kn Op, savedE Mem, final VecVirtual) {
	next := final
	if t < 79 {
		next = l.vec()
		VPADDD(l.schedule(t+1), l.v[3], next)
		VPADDD(kn, next, next)
	} else {
		VPADDD(savedE, l.v[3], next)
	}
	l.round(t, next)
}

// round does round t, given next = the next round's e + w + k (computed
// from d before this round overwrites it): d is dead after the round, so
// F(b, c, d) goes in place and no register is copied. The new a is the
// sum; b is rotated in place and the roles shift.
func (l *lanes) round(t int, next VecVirtual) {
	a, b, c, d := l.v[0], l.v[1], l.v[2], l.v[3]
	l.f(t, b, c, d)
	VPADDD(d, l.acc, l.acc)
	r := l.vec()
	l.rol(5, a, r)
	VPADDD(r, l.acc, l.acc)
	l.rol(30, b, b)
	l.v = [5]VecVirtual{l.acc, a, b, c, next}
	l.acc = next
}

// f sets d to round t's function of b, c, d. VPTERNLOGD does each in one
// instruction; with operands d, b, c, 0xb8 is b ? c : d, 0x96 the parity
// and 0xe8 the majority. AVX2 spells them out.
func (l *lanes) f(t int, b, c, d VecVirtual) {
	if l.evex {
		VPTERNLOGD(U8([4]uint8{0xb8, 0x96, 0xe8, 0x96}[t/20]), c, b, d)
		return
	}
	switch t / 20 {
	case 0: // d ^ ((c ^ d) & b)
		x := YMM()
		VPXOR(c, d, x)
		VPAND(b, x, x)
		VPXOR(x, d, d)
	case 2: // (b & c) | ((b | c) & d)
		x, y := YMM(), YMM()
		VPAND(b, c, x)
		VPOR(b, c, y)
		VPAND(y, d, d)
		VPOR(x, d, d)
	default:
		VPXOR(b, d, d)
		VPXOR(c, d, d)
	}
}

// roundConsts broadcasts the four round constants into registers and
// loads the byte-swap mask, for the AVX-512 kernels.
func roundConsts(wide bool) (k [4]VecVirtual, bswap VecVirtual) {
	k = broadcastConsts(wide)
	bswap = YMM()
	VMOVDQU32(byteSwapMask(), bswap)
	return k, bswap
}

// broadcastConsts broadcasts the four round constants into registers.
func broadcastConsts(wide bool) (k [4]VecVirtual) {
	kt := GP64()
	LEAQ(constTable(), kt)
	for p := range k {
		k[p] = laneReg(wide)
		VPBROADCASTD(Mem{Base: kt, Disp: 4 * p}, k[p])
	}
	return k
}
