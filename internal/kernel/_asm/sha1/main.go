// Command sha1 generates the amd64 SHA-1 kernels of internal/kernel/sha1.
package main

import (
	"fmt"

	"github.com/hashlanes/hashlanes/internal/kernel/_asm/highvec"
	"github.com/hashlanes/hashlanes/internal/kernel/_asm/interleave"
	"github.com/hashlanes/hashlanes/internal/kernel/_asm/lanewrap"
	"github.com/hashlanes/hashlanes/internal/kernel/_asm/sha2"
	"github.com/hashlanes/hashlanes/internal/kernel/_asm/stack"
	"github.com/hashlanes/hashlanes/internal/kernel/_asm/transpose"
	"github.com/hashlanes/hashlanes/internal/kernel/_asm/warm"
	. "github.com/mmcloughlin/avo/build"
	. "github.com/mmcloughlin/avo/operand"
	. "github.com/mmcloughlin/avo/reg"
)

func main() {
	ConstraintExpr("amd64,!purego")
	shani(1)
	shani(2)
	shaniX4()
	avx2()
	avx512()
	zmm()
	hybrid()
	highvec.For("blockSHANIx2AVX512YMMx8")
	batchAVX512()
	batchZMM()
	// The Go side of the kernels: wrappers and the package's lists (the
	// hybrid's wrapper and entry are written by hand).
	lanewrap.Rows(lanewrap.Kernel{Go: "SHANIx2", Level: "Generic", Needs: "SHA", Lanes: 2}, 8)
	lanewrap.Rows(lanewrap.Kernel{Go: "SHANIx4", Level: "Generic", Needs: "SHA", Lanes: 4}, 8)
	lanewrap.Lanes(lanewrap.Kernel{Go: "AVX2x8", Level: "AVX2", Lanes: 8}, 5, 32)
	lanewrap.Lanes(lanewrap.Kernel{Go: "AVX512YMMx16", Level: "AVX512", Lanes: 16}, 5, 32)
	lanewrap.Lanes(lanewrap.Kernel{Go: "AVX512ZMMx16", Level: "AVX512", Lanes: 16}, 5, 32)
	lanewrap.Batch(lanewrap.Kernel{Go: "AVX512YMMx16", Level: "AVX512", Lanes: 16}, false)
	lanewrap.Batch(lanewrap.Kernel{Go: "AVX512ZMMx16", Level: "AVX512", Lanes: 16}, false)
	Generate()
	lanewrap.Write("sha1")
}

// stream is one SHA-1 stream's registers in a SHA-NI kernel: ABCD (A in
// the top dword), the two E registers that SHA1NEXTE and SHA1RNDS4
// alternate, and the four message registers of the schedule.
type stream struct {
	abcd Register
	e    [2]Register
	m    [4]Register
	ptr  GPVirtual
	vex  bool // fixed registers, VEX forms but for the SHA instructions (the hybrid kernel)
}

// The moves, additions, XORs and shuffles of a stream's rounds: legacy SSE
// forms, or VEX ones, which do not merge into the upper halves of
// registers that lanes use around them.
func (s *stream) mov(src, dst Op) {
	if s.vex {
		VMOVDQU(src, dst)
	} else {
		MOVOU(src, dst)
	}
}

func (s *stream) add(x, y Op) {
	if s.vex {
		VPADDD(x, y, y)
	} else {
		PADDD(x, y)
	}
}

func (s *stream) xor(x, y Op) {
	if s.vex {
		VPXOR(x, y, y)
	} else {
		PXOR(x, y)
	}
}

func (s *stream) shuffle(mask, x Op) {
	if s.vex {
		VPSHUFB(mask, x, x)
	} else {
		PSHUFB(mask, x)
	}
}

// shani hashes `streams` streams with the SHA extensions, their
// instructions interleaved group by group: SHA1RNDS4 has several cycles of
// latency but issues more often, so one stream leaves the unit idle. The
// 20 groups of 4 rounds follow Intel's SHA-NI schedule; saved states live
// on the stack (legacy-SSE memory operands would need 16-byte alignment,
// which Go's stack does not give, so they go through a register).
func shani(streams int) {
	name := "blockSHANI"
	sig := "func(s *[5]uint32, p []byte)"
	if streams > 1 {
		name = fmt.Sprintf("blockSHANIx%d", streams)
		sig = fmt.Sprintf("func(s *[%d][8]uint32, ptrs *[%d]*byte, nblocks int)", streams, streams)
	}
	TEXT(name, 0, sig)
	Pragma("noescape")
	Doc(fmt.Sprintf("%s hashes whole blocks of %d stream(s) with SHA-NI.", name, streams))
	saved := stack.Aligned(32 * streams)
	sp := Load(Param("s"), GP64())
	n := GP64()
	st := make([]stream, streams)
	if streams == 1 {
		st[0].ptr = GP64()
		Load(Param("p").Base(), st[0].ptr)
		Load(Param("p").Len(), n)
		SHRQ(U8(6), n)
		JZ(LabelRef(name + "_done"))
	} else {
		pp := Load(Param("ptrs"), GP64())
		Load(Param("nblocks"), n)
		for l := range st {
			st[l].ptr = GP64()
			MOVQ(Mem{Base: pp, Disp: 8 * l}, st[l].ptr)
		}
	}
	row := 32 // bytes between states in the multi-stream layout
	for l := range st {
		s := &st[l]
		s.abcd, s.e[0], s.e[1] = XMM(), XMM(), XMM()
		MOVOU(Mem{Base: sp, Disp: row * l}, s.abcd)
		PSHUFD(U8(0x1b), s.abcd, s.abcd) // A in the top dword
		PXOR(s.e[0], s.e[0])
		PINSRD(U8(3), Mem{Base: sp, Disp: row*l + 16}, s.e[0]) // E in the top dword
	}
	Label(name + "_loop")
	mask := XMM()
	MOVOU(reverseMask(), mask)
	for l := range st {
		MOVOU(st[l].abcd, saved.Offset(32*l))
		MOVOU(st[l].e[0], saved.Offset(32*l+16))
	}
	for g := range 20 {
		for l := range st {
			group(&st[l], g, mask)
		}
	}
	for l := range st {
		s := &st[l]
		t := XMM()
		MOVOU(saved.Offset(32*l+16), t)
		SHA1NEXTE(t, s.e[0])
		MOVOU(saved.Offset(32*l), t)
		PADDD(t, s.abcd)
		ADDQ(U8(64), s.ptr)
	}
	DECQ(n)
	JNZ(LabelRef(name + "_loop"))
	for l := range st {
		s := &st[l]
		PSHUFD(U8(0x1b), s.abcd, s.abcd)
		MOVOU(s.abcd, Mem{Base: sp, Disp: row * l})
		PEXTRD(U8(3), s.e[0], Mem{Base: sp, Disp: row*l + 16})
	}
	Label(name + "_done")
	RET()
}

// group emits rounds 4g..4g+3 of one stream and the message schedule work
// that goes with them, with mask the byte reversal of the message words.
func group(s *stream, g int, mask Op) {
	cur := s.m[g%4]
	if g < 4 {
		if !s.vex {
			s.m[g%4] = XMM()
			cur = s.m[g%4]
		}
		s.mov(Mem{Base: s.ptr, Disp: 16 * g}, cur)
		s.shuffle(mask, cur) // big-endian words, w0 in the top dword
	}
	ea, eb := s.e[g%2], s.e[(g+1)%2]
	if g == 0 {
		s.add(cur, ea)
	} else {
		SHA1NEXTE(cur, ea)
	}
	s.mov(s.abcd, eb)
	if g >= 3 && g <= 18 {
		SHA1MSG2(cur, s.m[(g+1)%4])
	}
	SHA1RNDS4(U8(g/5), ea, s.abcd)
	if g >= 1 && g <= 16 {
		SHA1MSG1(cur, s.m[(g+3)%4])
	}
	if g >= 2 && g <= 17 {
		s.xor(cur, s.m[(g+2)%4])
	}
}

// shaniX4 hashes four streams with the SHA extensions, their groups of
// four rounds interleaved. Measured on AMD Zen 3 (3.2 GHz), SHA1RNDS4 has
// 6 cycles of latency and issues every 2 (3.0 cycles each with two chains
// in flight, 2.0 with four), so two streams leave the SHA unit a third
// idle: they take 3.41 cycles a group of four rounds (3000 MB/s), four
// streams 2.22 (4610 MB/s), close to SHA1RNDS4's bound of 2. SHA1MSG1
// spelled as a VPALIGNR and a VPXOR, to take it off the SHA unit, gained
// nothing for any share of the groups (some shares ran 26% slower).
// Nor can AVX2 lanes ride along, as AVX-512 ones do on Zen 4 (hybrid):
// an AVX2 lane round's mix (VPSLLD, VPSRLD, VPOR, VPXOR, free of any
// chain) put after each SHA1RNDS4 cost its full count in 128-bit forms:
// with 4, 8, 12 and 16 of them a step (320 to 1,280 a pass of four
// blocks) the kernel ran at 0.70, 0.56, 0.47 and 0.33 of its rate, and a
// block of lanes takes ~1,450 of them (8 lanes in AVX2, 4 in 128-bit
// forms). In 256-bit forms it ran at 1% of its rate: the legacy-encoded
// SHA instructions meet the dirty upper halves of registers 0-15 (Zen 4's
// hybrid keeps its lanes in 16-31). Medians of 3, a noisy hour;
// bench/results/2026-11-24/kernel-zen3-sha1-vector-riders.txt.
//
// Four streams' ABCD, E and newest schedule group fill 12 of the 16
// registers the SHA instructions' legacy encoding reaches, so the rest of
// the schedule lives in a 16-word ring a stream on the stack, which
// SHA1NEXTE, SHA1MSG1 and the XOR take as memory operands (64-byte
// aligned, as legacy SSE memory operands must be). Each group of the
// schedule is computed whole, four groups ahead of its rounds:
// w[g+4] = SHA1MSG2(SHA1MSG1(w[g], w[g+1]) ^ w[g+2], w[g+3]), with w[g+3]
// still in a register, so that the schedule's chain never waits on
// store-to-load forwarding. E and the newest group move between registers
// from group to group; E crosses from one block to the next on the stack,
// so that the loop's registers are the same on every pass.
func shaniX4() {
	const streams = 4
	// A stream's area: ABCD and E at the block's start (32 bytes), its
	// message ring (64).
	const area, savedE, ring = 96, 16, 32
	at := interleave.Kernel(streams, area)
	abcd := [streams]VecPhysical{X1, X2, X3, X4}
	pool := interleave.NewPool(X0, X5, X6, X7, X8, X9, X10, X11, X12, X13, X14, X15)
	var e, newest [streams]VecPhysical

	sp, n, ptr := interleave.Params(streams)
	for l := range streams {
		VMOVDQU(Mem{Base: sp, Disp: 32 * l}, abcd[l])
		VPSHUFD(U8(0x1b), abcd[l], abcd[l]) // A in the top dword
		t := pool.Take()
		VPXOR(t, t, t)
		VPINSRD(U8(3), Mem{Base: sp, Disp: 32*l + 16}, t, t) // E in the top dword
		VMOVDQU(t, at(l, savedE))
		pool.Put(t)
	}

	Label("shanix4_loop")
	for l := range streams {
		VMOVDQU(abcd[l], at(l, 0))
		for i := range 4 { // the block's 16 words, byte-swapped, w0 in the top dword
			x := pool.Take()
			VMOVDQU(Mem{Base: ptr[l], Disp: 16 * i}, x)
			VPSHUFB(reverseMask(), x, x)
			VMOVDQU(x, at(l, ring+16*i))
			if i == 3 {
				newest[l] = x
			} else {
				pool.Put(x)
			}
		}
	}
	for g := range 20 { // rounds 4g..4g+3 of each stream in turn
		for l := range streams {
			slot := at(l, ring+16*(g%4))
			if g == 0 {
				e[l] = pool.Take()
				VMOVDQU(at(l, savedE), e[l])
				VPADDD(slot, e[l], e[l])
			} else {
				SHA1NEXTE(slot, e[l])
			}
			next := pool.Take() // the next group's E comes from this ABCD's A
			VMOVDQU(abcd[l], next)
			SHA1RNDS4(U8(g/5), e[l], abcd[l])
			pool.Put(e[l])
			e[l] = next
			if g > 15 {
				continue
			}
			w := pool.Take() // group g+4 into group g's slot
			VMOVDQU(slot, w)
			SHA1MSG1(at(l, ring+16*((g+1)%4)), w)
			VPXOR(at(l, ring+16*((g+2)%4)), w, w)
			SHA1MSG2(newest[l], w)
			VMOVDQU(w, slot)
			pool.Put(newest[l])
			newest[l] = w
		}
	}
	for l := range streams {
		SHA1NEXTE(at(l, savedE), e[l])
		VMOVDQU(e[l], at(l, savedE))
		VPADDD(at(l, 0), abcd[l], abcd[l])
		ADDQ(U8(64), ptr[l])
	}
	DECQ(n)
	JNZ(LabelRef("shanix4_loop"))

	for l := range streams {
		VPSHUFD(U8(0x1b), abcd[l], abcd[l])
		VMOVDQU(abcd[l], Mem{Base: sp, Disp: 32 * l})
		t := GP32()
		MOVL(at(l, savedE+12), t)
		MOVL(t, Mem{Base: sp, Disp: 32*l + 16})
	}
	RET()
}

var reverse Mem
var haveReverse bool

// reverseMask reverses the 16 bytes of a register: each big-endian word
// byte-swapped, and w0 moved to the top dword where SHA1RNDS4 wants it.
func reverseMask() Mem {
	if !haveReverse {
		reverse = GLOBL("sha1reverse", RODATA|NOPTR)
		for i := range 16 {
			DATA(i, U8(15-i))
		}
		haveReverse = true
	}
	return reverse
}

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
// VPROLD (2 cycles) and VPADDD. 256-bit operations, since 512-bit ones
// issue at half the rate on Zen 4 (see the MD5 generator). The message
// is byte-swapped into a 16-word ring on the stack, where the schedule
// overwrites w[t-16] with w[t]; the next block's transpose, into a second
// ring, is spread through this block's rounds, as in the MD5 kernel.
//
// Measured on AMD Zen 4 (3.69 GHz), 16 lanes busy, cycles a block of 1 KiB:
//   - The rounds alone take 385 (4.8 a round for both groups); with the
//     transpose up front, 520; with the schedule too, 713 (5.3 GB/s).
//     Pipelining the transpose measured within the noise of this shared
//     machine (5.3 to 6.5 GB/s from run to run). Most of that spread was
//     the rings' alignment, which followed the callers' frames: a row
//     split across cache lines is a store the schedule's loads cannot
//     forward from. At a 64-byte boundary (stack.Aligned) the kernel runs
//     7.4-7.7 GB/s wherever its frame falls, about 500 cycles a block.
//   - The rotations are the scarce resource: VPROLD issues 2 a cycle
//     against 3.5-4 for VPADDD and VPTERNLOGD, and a round needs 3 a group.
//     Replacing the rotation by 30 with an addition (a wrong result, as an
//     experiment) ran 15% faster; replacing the schedule's rotation by 1
//     changed nothing.
//   - Computing F(b, c, d) in place in d, which dies in that round, saves
//     the register copy of every round (13% of the instructions) but no
//     measurable time: Zen 4 renames the copies away.
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

// hybrid hashes two streams with SHA-NI and 8 lanes with AVX-512 in one
// instruction stream, as the SHA-256 generator's hybrid does. At full
// occupancy it is no faster than avx512ymmx16 (0.94-0.97x of it measured
// side by side), since SHA-1's lane rounds already keep the vector pipes
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

// batchAVX512 is the batch kernel: lane-fulls of 16 whole messages of
// nblocks blocks, padded as they are loaded, from the initial value to
// digests stored in place, the next block's padded transpose spread
// through this block's rounds across lane-fulls (see the MD5 generator).
func batchAVX512() { batch16("sumAVX512YMMx16", false) }

// batchZMM is batchAVX512 on the rounds of zmm: the lanes in one group of
// ZMM registers, handed to the digest stores as two YMM groups.
func batchZMM() { batch16("sumAVX512ZMMx16", true) }

func batch16(name string, wide bool) {
	const lanes, row = 16, 64
	TEXT(name, 0, transpose.BatchSignature)
	Pragma("noescape")
	Doc(transpose.BatchDoc(name, lanes, 20))
	rings := stack.Aligned(2*16*row + 5*row + 32)
	saved := rings.Offset(2 * 16 * row)
	lastE := saved.Offset(5 * row)
	bs := transpose.NewBatchStream(name, lanes, 64)
	k, bswap := roundConsts(wide)
	iv := sha2.SHA256.Consts("sha1init", []uint64{0x67452301, 0xefcdab89, 0x98badcfe, 0x10325476, 0xc3d2e1f0})
	gr := newGroups(wide)
	st := make([][5]VecVirtual, gr.n)
	for g := range st {
		for i := range 5 {
			st[g][i] = gr.vec()
		}
	}
	initState := func() {
		for g := range st {
			for i := range 5 {
				VPBROADCASTD(iv.Offset(4*i), st[g][i])
			}
		}
	}
	message := func(d *transpose.Deferred, ptrs, bits, off, buf Register) {
		padding.DeferLoads(d, 2, ptrs, bits, off, func(g, h, j int, r VecVirtual) {
			VPSHUFB(bswap, r, r)
			VMOVDQU32(r, Mem{Base: buf, Disp: row*(8*h+j) + 32*g})
		})
	}
	initState()
	bs.Pipelined(rings, 16*row, message,
		func(buf Register, pipe *transpose.Deferred) { hashBlock(st, gr, saved, k, buf, pipe) },
		func() { // the lane-full's digests, and the next one's start
			var groups [2][5]VecVirtual // the final state as two YMM groups, as storeDigests takes it
			if wide {
				lo, hi := transpose.Halves(st[0][:])
				copy(groups[0][:], lo)
				copy(groups[1][:], hi)
			} else {
				groups = [2][5]VecVirtual(st)
			}
			storeDigests(&groups, bs, bswap, lastE)
			initState()
		})
	VZEROUPPER()
	RET()
}

var padding = transpose.NewPadding("sha1", 64, 8, true)

// storeDigests writes a lane-full's digests: a, b, c, d by a 4x8
// transpose of each group's words, byte-swapped, one 16-byte store a lane;
// e byte-swapped through the stack, one 4-byte move a lane.
func storeDigests(st *[2][5]VecVirtual, bs *transpose.BatchStream, bswap VecVirtual, lastE Mem) {
	var u [4]VecVirtual // u[k]: lane k, then lane 4+k of the group
	bs.StoreDigests(20, 8, func(g int) {
		u = transpose.Lanes4x8(st[g][0], st[g][1], st[g][2], st[g][3])
		for k := range u {
			VPSHUFB(bswap, u[k], u[k])
		}
		e := YMM()
		VPSHUFB(bswap, st[g][4], e)
		VMOVDQU32(e, lastE)
	}, func(lane int, dst Mem) {
		if j := lane % 8; j < 4 {
			VMOVDQU32(u[j].AsX(), dst)
		} else {
			VEXTRACTI32X4(U8(1), u[j-4], dst)
		}
		w := GP32()
		MOVL(lastE.Offset(4*(lane%8)), w)
		MOVL(w, dst.Offset(16))
	})
}

// deferMessage queues the transpose of the block at off in every lane into
// the ring buf, byte-swapped: two 8x8 transposes (the halves of the block)
// per group of 8 lanes.
func deferMessage(d *transpose.Deferred, ptrs, off, buf Register, bswap VecVirtual) {
	for g := range 2 {
		for h := range 2 {
			transpose.DeferWords8x8(d, ptrs, off, 8*g, 32*h, func(j int, r VecVirtual) {
				VPSHUFB(bswap, r, r)
				VMOVDQU32(r, Mem{Base: buf, Disp: 64*(8*h+j) + 32*g})
			})
		}
	}
}

// deferMessageZMM is deferMessage for the 512-bit kernel: one 16x16
// transpose whose chunks the loads place (transpose.DeferWords16), a
// 512-bit byte swap and store a word. Four 8x8 transposes in 256-bit
// registers, as deferMessage does, take 256 shuffles a block, all on the
// one port that shuffles, against 48 here (and 48 inserts, on either
// 512-bit port).
func deferMessageZMM(d *transpose.Deferred, ptrs, off, buf Register, bswap VecVirtual) {
	transpose.DeferWords16(d, ptrs, off, 0, func(j int, r VecVirtual) {
		VPSHUFB(bswap, r, r)
		VMOVDQU32(r, Mem{Base: buf, Disp: 64 * j})
	})
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

// constTable is the four round constants (FIPS 180-4, 4.2.1), one per 20
// rounds, in the SHA-2 generators' table format for 32-bit words.
func constTable() Mem {
	return sha2.SHA256.Consts("sha1consts", []uint64{0x5a827999, 0x6ed9eba1, 0x8f1bbcdc, 0xca62c1d6})
}

// constTable8 is the four round constants, each repeated for 8 lanes: AVX2
// has no broadcast memory operand.
func constTable8() Mem {
	k := make([]uint64, 0, 32)
	for _, v := range []uint64{0x5a827999, 0x6ed9eba1, 0x8f1bbcdc, 0xca62c1d6} {
		for range 8 {
			k = append(k, v)
		}
	}
	return sha2.SHA256.Consts("sha1consts8", k)
}

// byteSwapMask reverses the bytes of each 32-bit word (SHA-1's message is
// big-endian, like SHA-256's).
func byteSwapMask() Mem { return sha2.SHA256.ByteSwapMask("sha1bswap") }
