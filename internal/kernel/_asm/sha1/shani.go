package main

// The SHA-NI kernels: one and two streams interleaved (shani), and four
// (shaniX4).

import (
	"fmt"

	"github.com/hashlanes/hashlanes/internal/kernel/_asm/interleave"
	"github.com/hashlanes/hashlanes/internal/kernel/_asm/stack"
	. "github.com/mmcloughlin/avo/build"
	. "github.com/mmcloughlin/avo/operand"
	. "github.com/mmcloughlin/avo/reg"
)

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
// four rounds interleaved: two streams leave SHA1RNDS4 idle part of the
// time, four bring it near its issue bound. Neither the message helpers
// nor AVX2 lanes could be moved off the SHA unit to gain (docs/
// kernel-design.md, "SHA-1's SHA-NI streams").
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
	var newest [streams]VecPhysical

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
	e := shaniX4Rounds(at, ring, savedE, &abcd, &newest, pool)
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

// shaniX4Rounds emits the 80 rounds of a block of four streams, group by
// group in turn, the layout shaniX4's: stream l's E at the block's start
// at at(l, savedE) and message ring at at(l, ring), whose newest group is
// in newest[l], its ABCD in abcd[l]; pool holds the free registers. It
// returns the registers of the streams' last E, which the caller adds to
// the saved one.
func shaniX4Rounds(at func(l, off int) Mem, ring, savedE int, abcd, newest *[4]VecPhysical, pool *interleave.Pool) (e [4]VecPhysical) {
	const streams = 4
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
	return e
}
