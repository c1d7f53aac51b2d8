package main

// The SHA-NI kernels: one stream, two and four interleaved.

import (
	"github.com/hashlanes/hashlanes/internal/kernel/_asm/interleave"
	. "github.com/mmcloughlin/avo/build"
	. "github.com/mmcloughlin/avo/operand"
	. "github.com/mmcloughlin/avo/reg"
)

// shani hashes one stream with the SHA extensions: SHA256RNDS2 does two
// rounds on the state kept as ABEF/CDGH, SHA256MSG1/MSG2 extend the
// message four words at a time. A lone stream is bound by SHA256RNDS2's
// latency; crypto/sha256 takes the same path on this CPU.
func shani() {
	TEXT("blockSHANI", NOSPLIT, "func(s *[8]uint32, p []byte)")
	Pragma("noescape")
	Doc("blockSHANI hashes the whole blocks of p into s with SHA-NI.")
	sp := Load(Param("s"), GP64())
	ptr := Load(Param("p").Base(), GP64())
	n := Load(Param("p").Len(), GP64())
	SHRQ(U8(6), n)
	JZ(LabelRef("shani_done"))
	SHLQ(U8(6), n)
	end := GP64()
	LEAQ(Mem{Base: ptr, Index: n, Scale: 1}, end)
	kt := GP64()
	LEAQ(constTable(), kt)
	mask := XMM()
	MOVOU(byteSwapMask(), mask)

	abef, cdgh := XMM(), XMM()
	toABEF(Mem{Base: sp}, abef, cdgh, XMM())

	Label("shani_loop")
	saveAB, saveCD := XMM(), XMM()
	MOVOU(abef, saveAB)
	MOVOU(cdgh, saveCD)
	var m [4]VecVirtual
	for i := range m {
		m[i] = XMM()
		MOVOU(Mem{Base: ptr, Disp: 16 * i}, m[i])
		PSHUFB(mask, m[i])
	}
	for g := range 16 { // rounds 4g..4g+3
		MOVOU(Mem{Base: kt, Disp: 16 * g}, X0) // SSE memory operands must be 16-byte aligned; MOVOU need not be
		PADDD(m[g%4], X0)
		SHA256RNDS2(X0, abef, cdgh)
		PSHUFD(U8(0x0e), X0, X0)
		SHA256RNDS2(X0, cdgh, abef)
		if g <= 11 { // words of group g+4 replace those of group g
			extend(m, g)
		}
	}
	PADDD(saveAB, abef)
	PADDD(saveCD, cdgh)
	ADDQ(U8(64), ptr)
	CMPQ(ptr, end)
	JB(LabelRef("shani_loop"))

	fromABEF(abef, cdgh, Mem{Base: sp}, XMM())
	Label("shani_done")
	RET()
}

// shaniX2 hashes two streams with the SHA extensions, their instructions
// interleaved group by group: SHA256RNDS2 has several cycles of latency
// but issues more often, so one stream leaves the unit idle. The code is
// the hybrid kernel's SHA-NI side (shaniRider) with nothing beside it.
func shaniX2() {
	TEXT("blockSHANIx2", 0, "func(s *[2][8]uint32, ptrs *[2]*byte, nblocks int)")
	Pragma("noescape")
	Doc("blockSHANIx2 hashes nblocks blocks of two streams with SHA-NI.")
	r := newSHANIRider("s", "ptrs")
	r.Begin()
	n := Load(Param("nblocks"), GP64())
	Label("shanix2_loop")
	r.steps = r.steps[:0]
	r.block()
	for _, step := range r.steps {
		step()
	}
	DECQ(n)
	JNZ(LabelRef("shanix2_loop"))
	r.End()
	RET()
}

// shaniX4 hashes four streams with the SHA extensions, their groups of
// four rounds interleaved. The message helpers share the SHA unit with
// SHA256RNDS2, so a stream's block needs the unit about as long whatever
// the number of streams; the helpers in vector instructions, or a scalar
// stream on the idle integer ALUs, cost more than they saved
// (docs/kernel-design.md, "SHA-256's SHA-NI streams").
//
// Four streams' states fill X1-X8 (the SHA instructions' legacy encoding
// reaches X0-X15 only), so the schedule lives in a 16-word ring a stream
// on the stack, which SHA256MSG1 and VPALIGNR take as memory operands
// (64-byte aligned, as legacy SSE memory operands must be), and only each
// stream's newest group stays in a register, keeping the schedule's chain
// out of store-to-load forwarding. W+K is stored beside the ring, so that
// the rounds load X0, its upper half by a MOVQ instead of a PSHUFD, which
// was slower.
func shaniX4() {
	const streams = 4
	// A stream's area: the saved state (32 bytes), its message ring (64)
	// and W+K of the same four groups (64).
	const area, ring, wk = 160, 32, 96
	at := interleave.Kernel(streams, area)
	abef := [streams]VecPhysical{X1, X2, X3, X4}
	cdgh := [streams]VecPhysical{X5, X6, X7, X8}
	newest := [streams]VecPhysical{X9, X10, X11, X12} // each stream's latest schedule group
	pool := interleave.NewPool(X13, X14, X15)

	sp, n, ptr := interleave.Params(streams)
	kt := GP64()
	LEAQ(constTable(), kt)
	for l := range streams {
		toABEF(Mem{Base: sp, Disp: 32 * l}, abef[l], cdgh[l], X0)
	}

	Label("shanix4_loop")
	for l := range streams {
		VMOVDQU(abef[l], at(l, 0))
		VMOVDQU(cdgh[l], at(l, 16))
		for i := range 4 { // the block's 16 words, byte-swapped, and W+K
			x := newest[l]
			if i < 3 {
				x = pool.Take()
			}
			VMOVDQU(Mem{Base: ptr[l], Disp: 16 * i}, x)
			VPSHUFB(byteSwapMask(), x, x)
			VMOVDQU(x, at(l, ring+16*i))
			t := pool.Take()
			VPADDD(Mem{Base: kt, Disp: 16 * i}, x, t)
			VMOVDQU(t, at(l, wk+16*i))
			pool.Put(t)
			if i < 3 {
				pool.Put(x)
			}
		}
	}
	shaniX4Rounds(at, ring, wk, kt, &abef, &cdgh, &newest, pool)
	for l := range streams {
		VPADDD(at(l, 0), abef[l], abef[l])
		VPADDD(at(l, 16), cdgh[l], cdgh[l])
		ADDQ(U8(64), ptr[l])
	}
	DECQ(n)
	JNZ(LabelRef("shanix4_loop"))

	for l := range streams {
		fromABEF(abef[l], cdgh[l], Mem{Base: sp, Disp: 32 * l}, X0)
	}
	RET()
}

// toABEF loads a state a..h from m into the ABEF/CDGH order SHA256RNDS2
// works in, with t as scratch.
func toABEF(m Mem, abef, cdgh, t Op) {
	MOVOU(m, abef)               // DCBA (high to low dword)
	MOVOU(m.Offset(16), cdgh)    // HGFE
	PSHUFD(U8(0xb1), abef, abef) // CDAB
	PSHUFD(U8(0x1b), cdgh, cdgh) // EFGH
	MOVOU(abef, t)
	PALIGNR(U8(8), cdgh, abef) // ABEF
	PBLENDW(U8(0xf0), t, cdgh) // CDGH
}

// fromABEF stores an ABEF/CDGH state to m as a..h, with t as scratch.
func fromABEF(abef, cdgh Op, m Mem, t Op) {
	PSHUFD(U8(0x1b), abef, abef) // FEBA
	PSHUFD(U8(0xb1), cdgh, cdgh) // DCHG
	MOVOU(abef, t)
	PBLENDW(U8(0xf0), cdgh, abef) // DCBA
	PALIGNR(U8(8), t, cdgh)       // HGFE
	MOVOU(abef, m)
	MOVOU(cdgh, m.Offset(16))
}

// extend replaces the words of group g (in m[g%4]) with those of group
// g+4: w[t-16] + sigma0(w[t-15]) + w[t-7] + sigma1(w[t-2]).
func extend(m [4]VecVirtual, g int) {
	SHA256MSG1(m[(g+1)%4], m[g%4])
	w := XMM()
	MOVOU(m[(g+3)%4], w)
	PALIGNR(U8(4), m[(g+2)%4], w) // words 4g+9..4g+12
	PADDD(w, m[g%4])
	SHA256MSG2(m[(g+3)%4], m[g%4])
}

// shaniX4Rounds emits the 64 rounds of a block of four streams, group by
// group in turn, the layout shaniX4's: stream l's message ring (whose
// newest group is in newest[l]) and W+K at at(l, ring) and at(l, wk), its
// state in abef[l], cdgh[l]; pool holds three free registers.
func shaniX4Rounds(at func(l, off int) Mem, ring, wk int, kt Register, abef, cdgh, newest *[4]VecPhysical, pool *interleave.Pool) {
	const streams = 4
	for g := range 16 { // rounds 4g..4g+3 of each stream in turn
		for l := range streams {
			slot := 16 * (g % 4)
			VMOVDQU(at(l, wk+slot), X0)
			SHA256RNDS2(X0, abef[l], cdgh[l])
			VMOVQ(at(l, wk+slot+8), X0)
			SHA256RNDS2(X0, cdgh[l], abef[l])
			if g > 11 {
				continue
			}
			// Group g+4 into group g's slot: w[t-16] + sigma0(w[t-15]) +
			// w[t-7] + sigma1(w[t-2]), with group g+3 in newest[l].
			w, u := pool.Take(), pool.Take()
			VMOVDQU(at(l, ring+slot), w)
			SHA256MSG1(at(l, ring+16*((g+1)%4)), w)
			VPALIGNR(U8(4), at(l, ring+16*((g+2)%4)), newest[l], u) // words 4g+9..4g+12
			VPADDD(u, w, w)
			SHA256MSG2(newest[l], w)
			VMOVDQU(w, at(l, ring+slot))
			VPADDD(Mem{Base: kt, Disp: 16 * (g + 4)}, w, u)
			VMOVDQU(u, at(l, wk+slot))
			pool.Put(u, newest[l])
			newest[l] = w
		}
	}
}
