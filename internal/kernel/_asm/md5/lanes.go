package main

// The lane kernels: 16 lanes in AVX2 registers, 16 or 32 in AVX-512 YMM or
// ZMM registers, the message transposed in step with the rounds.

import (
	"fmt"

	"github.com/hashlanes/hashlanes/internal/kernel/_asm/stack"
	"github.com/hashlanes/hashlanes/internal/kernel/_asm/transpose"
	"github.com/hashlanes/hashlanes/internal/kernel/_asm/warm"
	. "github.com/mmcloughlin/avo/build"
	. "github.com/mmcloughlin/avo/operand"
	"github.com/mmcloughlin/avo/reg"
)

// avx2 hashes 16 lanes as two groups of 8 in YMM registers, interleaved step
// by step: one group alone waits on the six-instruction dependency chain of
// an MD5 step, two fill the vector pipes. The message is transposed into a
// 1 KiB stack buffer and read as memory operands, since AVX2 has only 16
// vector registers.
// Its 1.25 KiB frame is over the nosplit limit, so it keeps the stack check.
func avx2() {
	TEXT("blockAVX2x16", 0, "func(s *[4][16]uint32, ptrs *[16]*byte, nblocks int)")
	Pragma("noescape")
	Doc("blockAVX2x16 hashes nblocks blocks of 16 lanes with AVX2.")
	msg := stack.Aligned(16*2*32 + 4*2*32) // word j of group g at (2j+g)*32
	saved := msg.Offset(16 * 2 * 32)
	sp := Load(Param("s"), GP64())
	pp := Load(Param("ptrs"), GP64())
	n := Load(Param("nblocks"), GP64())
	kt := GP64()
	LEAQ(broadcastConsts(), kt)
	off := GP64()
	XORQ(off, off)
	for w := range 4 {
		for g := range 2 {
			t := YMM()
			VMOVDQU(Mem{Base: sp, Disp: 64*w + 32*g}, t)
			VMOVDQU(t, saved.Offset(32*(2*w+g)))
		}
	}
	Label("avx2_loop")
	warm.Code("blockAVX2x16", 9<<10, 64, n)
	for g := range 2 {
		for h := range 2 {
			w := transpose.Words8x8(pp, off, 8*g, 32*h)
			for j, r := range w {
				VMOVDQU(r, msg.Offset(32*(2*(8*h+j)+g)))
			}
		}
	}
	// The next block of one lane every fourth step: its transpose loads
	// all 16 lanes at once at the top of the loop, and misses there cost
	// more than spread through the steps. Lanes 8-15 first: on lanes at
	// equal offsets modulo 4 KiB the 16 blocks share an 8-way L1 set, and
	// the transpose takes lanes 0-7 first (docs/kernel-design.md,
	// "Loading the lanes"). A prefetch past a lane's end never faults.
	blockStepsAVX2(msg, saved, kt, func(i int) {
		if i%4 == 0 {
			PREFETCHT0(Mem{Base: transpose.LanePtr(pp, (i/4+8)%16), Index: off, Scale: 1, Disp: 64})
		}
	})
	ADDQ(U8(64), off)
	DECQ(n)
	JNZ(LabelRef("avx2_loop"))
	for w := range 4 {
		for g := range 2 {
			t := YMM()
			VMOVDQU(saved.Offset(32*(2*w+g)), t)
			VMOVDQU(t, Mem{Base: sp, Disp: 64*w + 32*g})
		}
	}
	VZEROUPPER()
	RET()
}

// blockStepsAVX2 hashes one block of two groups of 8 lanes, their steps
// interleaved: the message word j of group g at msg+(2j+g)*32, the state
// word w of group g at saved+(2w+g)*32 (and the block's result there
// after), the step constants broadcast at kt; ride, if not nil, is
// emitted before each step.
func blockStepsAVX2(msg, saved Mem, kt reg.Register, ride func(step int)) {
	var st [2][4]reg.VecVirtual
	for g := range 2 {
		for w := range 4 {
			st[g][w] = YMM()
			VMOVDQU(saved.Offset(32*(2*w+g)), st[g][w])
		}
	}
	ones := YMM()
	VPCMPEQD(ones, ones, ones)
	for i := range 64 {
		if ride != nil {
			ride(i)
		}
		for g := range 2 {
			a, b, c, d := st[g][0], st[g][1], st[g][2], st[g][3]
			t := YMM()
			VPADDD(Mem{Base: kt, Disp: 32 * i}, a, a)
			VPADDD(msg.Offset(32*(2*word(i)+g)), a, a)
			switch i / 16 {
			case 0:
				VPXOR(d, c, t)
				VPAND(b, t, t)
				VPXOR(d, t, t)
				VPADDD(t, a, a)
			case 1:
				t2 := YMM()
				VPANDN(c, d, t) // c &^ d
				VPADDD(t, a, a)
				VPAND(d, b, t2)
				VPADDD(t2, a, a)
			case 2:
				VPXOR(d, c, t)
				VPXOR(b, t, t)
				VPADDD(t, a, a)
			case 3:
				VPXOR(ones, d, t)
				VPOR(b, t, t)
				VPXOR(c, t, t)
				VPADDD(t, a, a)
			}
			s := shifts[i/16][i%4]
			r := YMM()
			VPSLLD(U8(s), a, r)
			VPSRLD(U8(32-s), a, a)
			VPOR(r, a, a)
			VPADDD(b, a, a)
			st[g] = [4]reg.VecVirtual{d, a, b, c}
		}
	}
	for g := range 2 {
		for w := range 4 {
			m := saved.Offset(32 * (2*w + g))
			VPADDD(m, st[g][w], st[g][w])
			VMOVDQU(st[g][w], m)
		}
	}
}

// avx512 hashes 8*groups lanes as interleaved groups of 8 in YMM registers,
// using the AVX-512 forms VPTERNLOGD (each round function in one
// instruction), VPROLD and broadcast operands, with the next block's
// transpose software-pipelined into this block's rounds.
//
// The transpose is spread through the rounds because a block is too long
// for the out-of-order window to overlap it with the previous block's
// chain; two YMM groups rather than one ZMM group because 512-bit
// operations issue at half the rate on some cores; no prefetch and no
// gathers, which did not pay. On cores that issue 512-bit operations
// nearly as often, the ZMM shapes; two groups fill the ports there. The
// measurements: docs/kernel-design.md, "MD5's AVX-512 lanes".
func avx512(sh shape) {
	groups, lanes := sh.groups, sh.lanes()
	name := sh.name("block")
	TEXT(name, 0, fmt.Sprintf("func(s *[4][%d]uint32, ptrs *[%d]*byte, nblocks int)", lanes, lanes))
	Pragma("noescape")
	Doc(fmt.Sprintf("%s hashes nblocks blocks of %d lanes with %d-bit AVX-512 instructions.", name, lanes, 8*sh.bytes))
	row := 4 * lanes                        // bytes of one state word across the lanes, and of one message word
	bufs := stack.Aligned(2*16*row + 4*row) // two message buffers; word j of group g at row*j+g*sh.bytes
	saved := bufs.Offset(2 * 16 * row)
	sp := Load(Param("s"), GP64())
	pp := Load(Param("ptrs"), GP64())
	n := Load(Param("nblocks"), GP64())
	kt := GP64()
	LEAQ(scalarConsts(), kt)
	pl := transpose.NewPipeline(bufs, 16*row, 64, n)

	st := make([][4]reg.VecVirtual, groups)
	for g := range groups {
		for w := range 4 {
			st[g][w] = sh.vec()
			VMOVDQU32(Mem{Base: sp, Disp: row*w + sh.bytes*g}, st[g][w])
		}
	}
	// Block 0's message, transposed up front.
	var first transpose.Deferred
	deferMessage(&first, sh, pp, pl.Off, pl.Cur)
	first.Flush()

	loop := name + "_loop"
	Label(loop)
	warm.Code(name, sh.codeBytes(), 64, n)
	pl.Begin()
	var pipe transpose.Deferred
	deferMessage(&pipe, sh, pp, pl.Next, pl.Nxt)
	// The block after the next, one lane every 64/lanes steps: with 32
	// streams from memory the loads of the next block's transpose waited
	// on the memory, as if the hardware's prefetch followed fewer
	// streams (docs/kernel-design.md, "Loading the lanes"). A prefetch
	// past a lane's end never faults.
	every := 64 / lanes
	hashBlock(sh, st, saved, kt, pl.Cur, row, &pipe, func(i int) {
		if i%every == 0 {
			PREFETCHT0(Mem{Base: transpose.LanePtr(pp, i/every), Index: pl.Next, Scale: 1, Disp: 64})
		}
	})
	pl.End()
	DECQ(n)
	JNZ(LabelRef(loop))
	for g := range groups {
		for w := range 4 {
			VMOVDQU32(st[g][w], Mem{Base: sp, Disp: row*w + sh.bytes*g})
		}
	}
	VZEROUPPER()
	RET()
}

// hashBlock emits one block's rounds on the message words in buf, with
// the instructions of pipe (the next block's transpose) spread through
// them and ride, if not nil, before each step, and adds the result into
// st.
func hashBlock(sh shape, st [][4]reg.VecVirtual, saved Mem, kt, buf reg.Register, row int, pipe *transpose.Deferred, ride func(int)) {
	for g := range sh.groups {
		for w := range 4 {
			VMOVDQU32(st[g][w], saved.Offset(row*w+sh.bytes*g))
		}
	}
	// The 512-bit transpose (transpose.DeferRows16) ends each row with
	// a 32-byte store late in the block, which the next block's first
	// steps read: spread over the first 48 steps it measured faster
	// (docs/kernel-design.md, "Loading the lanes").
	steps := 64
	if sh.wide {
		steps = 48
	}
	perStep := (len(*pipe) + steps - 1) / steps
	final := newRoundState(sh, st, kt, buf, row)
	for i := range 64 {
		if ride != nil {
			ride(i)
		}
		final.step(i)
		pipe.Emit(perStep)
	}
	pipe.Flush()
	for g := range sh.groups {
		for w := range 4 {
			VPADDD(saved.Offset(row*w+sh.bytes*g), final.x[g][w], st[g][w]) // back into the loop's registers
		}
	}
}

// roundState emits MD5 steps for interleaved groups of 8 lanes whose
// message words are read from a transposed buffer.
//
// VPTERNLOGD's destination is also an input: the kernel copies b and
// computes into the copy, which measured faster than computing into d at
// two groups (docs/kernel-design.md, "Feeding VPTERNLOGD in MD5's lanes").
//
// With two groups the step's dependency chain decides, and the destination
// input is the one-cycle path, so b goes there (its copy costs a slot, not
// latency). With four the pipes are full and the copy's slot matters more:
// the accumulator of the next step is then started from d (d + K, three
// operands) before the ternlog overwrites d.
type roundState struct {
	sh        shape
	noCopy    bool
	kt, buf   reg.Register
	row       int
	x         [][4]reg.VecVirtual // a, b, c, d per group (a: accumulator)
	accumPrep bool                // x[g][0] already holds a + K[i] (no-copy form)
}

func newRoundState(sh shape, st [][4]reg.VecVirtual, kt, buf reg.Register, row int) *roundState {
	return &roundState{sh: sh, noCopy: sh.noCopy(), kt: kt, buf: buf, row: row,
		x: append([][4]reg.VecVirtual(nil), st...)}
}

func (r *roundState) step(i int) {
	k := Mem{Base: r.kt, Disp: 4 * i}
	m := func(g int) Mem { return Mem{Base: r.buf, Disp: r.row*word(i) + r.sh.bytes*g} }
	for g := range r.sh.groups {
		a, b, c, d := r.x[g][0], r.x[g][1], r.x[g][2], r.x[g][3]
		if !r.noCopy || i == 63 { // the last step's d is final state: keep it
			if !(r.noCopy && i > 0) {
				acc := r.sh.vec()
				VPADDD_BCST(k, a, acc)
				a = acc
			}
			VPADDD(m(g), a, a)
			f := r.sh.vec()
			VMOVDQA32(b, f)
			VPTERNLOGD(U8(ternFuncs[i/16]), d, c, f)
			VPADDD(f, a, a)
			VPROLD(U8(shifts[i/16][i%4]), a, a)
			VPADDD(b, a, a)
			r.x[g] = [4]reg.VecVirtual{d, a, b, c}
			continue
		}
		if i == 0 {
			acc := r.sh.vec()
			VPADDD_BCST(k, a, acc)
			a = acc
		}
		VPADDD(m(g), a, a)
		next := r.sh.vec()
		VPADDD_BCST(Mem{Base: r.kt, Disp: 4 * (i + 1)}, d, next) // next step's a + K
		VPTERNLOGD(U8(ternFuncsDst[i/16]), b, c, d)              // d = F(b, c, d)
		VPADDD(d, a, a)
		VPROLD(U8(shifts[i/16][i%4]), a, a)
		VPADDD(b, a, a)
		r.x[g] = [4]reg.VecVirtual{next, a, b, c}
	}
}

// ternFuncsDst are F, G, H, I with (d, c, b) as (dst, src2, src3): bit index
// d<<2 | c<<1 | b.
var ternFuncsDst = [4]uint8{0xd8, 0xac, 0x96, 0x63}

// deferMessage queues the transpose of the block at off in every lane into
// buf: two 8x8 transposes (the halves of the block) per group of 8 lanes,
// or one 16x16 transpose of whole blocks per group of 16 (see
// transpose.DeferRows16).
func deferMessage(d *transpose.Deferred, sh shape, ptrs, off, buf reg.Register) {
	row := sh.bytes * sh.groups
	for g := range sh.groups {
		if sh.wide {
			transpose.DeferRows16(d, ptrs, off, 16*g, nil, func(j int) Mem { return Mem{Base: buf, Disp: row*j + 64*g} })
			continue
		}
		for h := range 2 {
			transpose.DeferWords8x8(d, ptrs, off, 8*g, 32*h, func(j int, r reg.VecVirtual) {
				VMOVDQU32(r, Mem{Base: buf, Disp: row*(8*h+j) + 32*g})
			})
		}
	}
}

// ternFuncs are F, G, H, I as VPTERNLOGD truth tables with (b, c, d) as
// (dst, src2, src3), bit index b<<2 | c<<1 | d. The destination is a copy of
// b, the value the previous step wrote; copying d instead (off the chain)
// measured slower, as the copy of b is eliminated at rename and the
// destination operand is the fast input.
var ternFuncs = [4]uint8{0xca, 0xe4, 0x96, 0x39}

// shape is how an AVX-512 kernel holds its lanes: groups of 8 in YMM
// registers, or of 16 in ZMM registers. The buffers are laid out alike
// either way (word j of lane i at row*j + 4*i), so a ZMM group's word is
// two YMM groups' words side by side.
type shape struct {
	groups int
	wide   bool // ZMM registers
	bytes  int  // of a group's lanes in one register
}

func ymmGroups(n int) shape { return shape{groups: n, bytes: 32} }

func zmmGroups(n int) shape { return shape{groups: n, wide: true, bytes: 64} }

func (sh shape) lanes() int { return sh.groups * sh.bytes / 4 }

// name is the kernel's function name: blockAVX512YMMx32, sumAVX512ZMMx16, ...
func (sh shape) name(prefix string) string {
	if sh.wide {
		return fmt.Sprintf("%sAVX512ZMMx%d", prefix, sh.lanes())
	}
	return fmt.Sprintf("%sAVX512YMMx%d", prefix, sh.lanes())
}

// vec allocates a register of one group's lanes.
func (sh shape) vec() reg.VecVirtual {
	if sh.wide {
		return ZMM()
	}
	return YMM()
}

// noCopy chooses roundState's form that starts the next step's sum from
// d instead of copying b: the one for pipes that are full.
func (sh shape) noCopy() bool { return sh.groups >= 4 }

// codeBytes bounds the block kernel's code, for warm.Code (TestCodeWarmed
// checks it).
func (sh shape) codeBytes() int {
	switch {
	case sh.wide:
		return sh.groups * 6 << 10
	case sh.groups >= 4:
		return 16 << 10
	}
	return 9 << 10
}
