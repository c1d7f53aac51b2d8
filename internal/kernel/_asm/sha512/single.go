package main

// The single-stream kernel: one stream's rounds in the general-purpose
// registers, its message schedule four words at a time in YMM registers.

import (
	. "github.com/mmcloughlin/avo/build"
	. "github.com/mmcloughlin/avo/operand"
	"github.com/mmcloughlin/avo/reg"
)

// single hashes one stream: the 80 rounds in the general-purpose
// registers with BMI2's RORX (a rotate into a new register, no copy
// first), the next schedule words in vector registers 12 rounds ahead of
// their use, W+K through the stack, where a round adds it from memory.
// A round's chain is about five cycles, but it is some 25 scalar
// instructions and the schedule some ten vector ones a round, and on
// Intel cores the two kinds share three ports: the throughput bounds the
// kernel. So the schedule's instructions are spread among the rounds'
// (queue), Maj takes three operations, and with evex (AVX-512's rotate
// and three-way XOR) a small sigma is four instructions, not nine
// (docs/engine.md, "SHA-512's own single stream"). Rounds 0-63 run in a
// loop of 16: unrolled whole, the kernel was 2.5 times the code and no
// faster.
func single(evex bool) {
	if evex {
		TEXT("blockAVX512", NOSPLIT, "func(s *[8]uint64, p []byte)")
		Doc("blockAVX512 hashes the whole blocks of p into s, one stream, with 256-bit AVX-512 instructions and BMI2.")
	} else {
		TEXT("blockAVX2", NOSPLIT, "func(s *[8]uint64, p []byte)")
		Doc("blockAVX2 hashes the whole blocks of p into s, one stream, with AVX2 and BMI2.")
	}
	Pragma("noescape")
	wk := AllocLocal(80 * 8)
	endMem := AllocLocal(8)
	sp := Load(Param("s"), GP64())
	ptr := Load(Param("p").Base(), GP64())
	n := Load(Param("p").Len(), GP64())
	SHRQ(U8(7), n)
	JZ(LabelRef("single_done"))
	SHLQ(U8(7), n)
	// The state's pointer and the end are read from memory once a block:
	// the rounds need every register they can have.
	LEAQ(Mem{Base: ptr, Index: n, Scale: 1}, n)
	MOVQ(n, endMem)

	consts := constTable()
	bswap := YMM()
	VMOVDQU(byteSwapMask(), bswap)
	var v [8]reg.GPVirtual
	for i := range v {
		v[i] = GP64()
		MOVQ(Mem{Base: sp, Disp: 8 * i}, v[i])
	}

	Label("single_loop")
	var w [4]reg.VecVirtual // w[g%4] holds words 4g..4g+3 when group g starts
	for i := range w {
		w[i] = YMM()
		VMOVDQU(Mem{Base: ptr, Disp: 32 * i}, w[i])
		VPSHUFB(bswap, w[i], w[i])
		addK(w[i], consts, wk, i)
	}
	a, b, c, d, e, f, g, h := v[0], v[1], v[2], v[3], v[4], v[5], v[6], v[7]
	// b ^ c, which each round's Maj takes from the round before (its a ^ b).
	bc := GP64()
	MOVQ(b, bc)
	XORQ(c, bc)
	// Rounds 0-63 in a loop of 16 (four groups, each computing the next
	// four schedule words): 16 rounds bring the registers back to their
	// places, and the code is a third of its size unrolled, which is what
	// a fresh process pays for in page faults. idx is the loop's offset
	// into W+K and K, in bytes.
	idx := GP64()
	XORQ(idx, idx)
	Label("single_rounds")
	loopBC := bc
	for grp := range 4 {
		q := schedule(w[grp], w[(grp+1)%4], w[(grp+2)%4], w[(grp+3)%4], evex)
		q = append(q, func() { addKAt(w[grp], wk, idx, grp+4) })
		for t := 4 * grp; t < 4*grp+4; t++ {
			round(a, b, c, d, e, f, g, h, Mem{Base: wk.Base, Disp: wk.Disp + 8*t, Index: idx, Scale: 1}, &q, 4*grp+4-t, &bc)
			a, b, c, d, e, f, g, h = h, a, b, c, d, e, f, g
		}
		q.flush()
	}
	MOVQ(bc, loopBC)
	bc = loopBC
	ADDQ(U32(128), idx)
	CMPQ(idx, U32(512))
	JB(LabelRef("single_rounds"))
	for t := 64; t < 80; t++ {
		var q queue
		round(a, b, c, d, e, f, g, h, wk.Offset(8*t), &q, 1, &bc)
		a, b, c, d, e, f, g, h = h, a, b, c, d, e, f, g
	}
	// After 80 renamings the registers hold a..h in their places again.
	sp = Load(Param("s"), GP64())
	for i := range v {
		ADDQ(Mem{Base: sp, Disp: 8 * i}, v[i])
		MOVQ(v[i], Mem{Base: sp, Disp: 8 * i})
	}
	ADDQ(U32(128), ptr)
	CMPQ(ptr, endMem)
	JB(LabelRef("single_loop"))
	VZEROUPPER()
	Label("single_done")
	RET()
}

// addK stores words 4i..4i+3 plus their round constants in the stack's
// W+K table.
func addK(words reg.VecVirtual, consts, wk Mem, i int) {
	t := YMM()
	VPADDQ(consts.Offset(32*i), words, t)
	VMOVDQU(t, wk.Offset(32*i))
}

// addKAt is addK for words 4i..4i+3 of the loop's iteration at byte
// offset idx: the table's address in a register, as a RIP-relative
// operand takes no index.
func addKAt(words reg.VecVirtual, wk Mem, idx reg.GPVirtual, i int) {
	k, t := GP64(), YMM()
	LEAQ(constTable(), k)
	VPADDQ(Mem{Base: k, Disp: 32 * i, Index: idx, Scale: 1}, words, t)
	VMOVDQU(t, Mem{Base: wk.Base, Disp: wk.Disp + 32*i, Index: idx, Scale: 1})
}

// queue holds schedule instructions not yet emitted, which the rounds
// take a few at a time, so that each stretch of code mixes vector and
// scalar work for the ports to share.
type queue []func()

// take emits the next instruction of q, if any.
func (q *queue) take() {
	if len(*q) > 0 {
		(*q)[0]()
		*q = (*q)[1:]
	}
}

// flush emits what is left of q.
func (q *queue) flush() {
	for len(*q) > 0 {
		q.take()
	}
}

// schedule returns the instructions that compute the next four words of
// the message schedule, W[t] = σ1(W[t-2]) + W[t-7] + σ0(W[t-15]) +
// W[t-16], for t = 16..19 relative to the registers given (w0 = W[0..3]
// ... w3 = W[12..15]), into w0. σ1 of W[18] and W[19] needs W[16] and
// W[17]: the low half first, with σ1 of W[14], W[15] beside zeros
// (σ1(0) = 0), then the high half.
func schedule(w0, w1, w2, w3 reg.VecVirtual, evex bool) queue {
	sigma := sigma
	if evex {
		sigma = sigmaEVEX
	}
	// W[1..4] and W[9..12]: across the 128-bit halves, then by 8 bytes
	// within each.
	w15, w7, t, u, lo := YMM(), YMM(), YMM(), YMM(), YMM()
	q := queue{
		func() { VPERM2I128(U8(0x21), w1, w0, t) },
		func() { VPALIGNR(U8(8), w0, t, w15) },
		func() { VPERM2I128(U8(0x21), w3, w2, u) },
		func() { VPALIGNR(U8(8), w2, u, w7) },
		func() { VPADDQ(w7, w0, w0) },
	}
	q = append(q, sigma(w15, 1, 8, 7, t)...)
	q = append(q,
		func() { VPADDQ(t, w0, w0) },
		// W[14], W[15] in the low half, zeros in the high one.
		func() { VPERM2I128(U8(0x81), w3, w3, lo) })
	q = append(q, sigma(lo, 19, 61, 6, u)...)
	q = append(q,
		func() { VPADDQ(u, w0, w0) },
		// W[16], W[17], now in w0's low half, moved to the high one.
		func() { VPERM2I128(U8(0x08), w0, w0, lo) })
	q = append(q, sigma(lo, 19, 61, 6, t)...)
	return append(q, func() { VPADDQ(t, w0, w0) })
}

// sigmaEVEX is sigma with AVX-512's rotate and three-way XOR.
func sigmaEVEX(x reg.VecVirtual, r1, r2, s uint8, dst reg.VecVirtual) queue {
	t, u := YMM(), YMM()
	return queue{
		func() { VPSRLQ(U8(s), x, dst) },
		func() { VPRORQ(U8(r1), x, t) },
		func() { VPRORQ(U8(r2), x, u) },
		func() { VPTERNLOGQ(U8(0x96), t, u, dst) },
	}
}

// sigma returns the instructions that write to dst the small sigma of
// each word of x: x rotated right by r1 and by r2, and shifted right by s,
// XORed. AVX2 has no 64-bit rotate: each is two shifts.
func sigma(x reg.VecVirtual, r1, r2, s uint8, dst reg.VecVirtual) queue {
	t, u := YMM(), YMM()
	return queue{
		func() { VPSRLQ(U8(s), x, dst) },
		func() { VPSRLQ(U8(r1), x, t) },
		func() { VPSLLQ(U8(64-r1), x, u) },
		func() { VPXOR(t, dst, dst) },
		func() { VPSRLQ(U8(r2), x, t) },
		func() { VPXOR(u, dst, dst) },
		func() { VPSLLQ(U8(64-r2), x, u) },
		func() { VPXOR(t, dst, dst) },
		func() { VPXOR(u, dst, dst) },
	}
}

// round is round t of FIPS 180-4's SHA-512, wk holding W[t]+K[t]: h ends
// as the new a, d as the new e, and the caller renames. Between its
// instructions it emits its share of q: of the rounds left in the group
// (left, this one included), an even part.
//
//	T1 = h + Σ1(e) + Ch(e,f,g) + W[t] + K[t]
//	T2 = Σ0(a) + Maj(a,b,c)
func round(a, b, c, d, e, f, g, h reg.GPVirtual, wk Mem, q *queue, left int, bc *reg.GPVirtual) {
	share := (len(*q) + left - 1) / left
	ops := []func(){}
	s, r, ch, maj, r2, s2, ab := GP64(), GP64(), GP64(), GP64(), GP64(), GP64(), GP64()
	prev := *bc
	*bc = ab
	ops = append(ops,
		func() { ADDQ(wk, h) },
		// Ch = ((f ^ g) & e) ^ g, BMI1's ANDN not needed.
		func() { MOVQ(f, ch) },
		func() { XORQ(g, ch) },
		func() { RORXQ(U8(14), e, s) },
		func() { ANDQ(e, ch) },
		func() { RORXQ(U8(18), e, r) },
		func() { XORQ(g, ch) },
		func() { XORQ(r, s) },
		func() { RORXQ(U8(41), e, r) },
		func() { ADDQ(ch, h) },
		func() { XORQ(r, s) },
		// Maj = b ^ ((a ^ b) & (b ^ c)), b ^ c being the last round's a ^ b.
		func() { MOVQ(a, ab) },
		func() { ADDQ(s, h) },
		func() { XORQ(b, ab) },
		func() { RORXQ(U8(28), a, s2) },
		func() { ADDQ(h, d) },
		func() { RORXQ(U8(34), a, r2) },
		func() { MOVQ(ab, maj) },
		func() { ANDQ(prev, maj) },
		func() { XORQ(r2, s2) },
		func() { XORQ(b, maj) },
		func() { RORXQ(U8(39), a, r2) },
		func() { XORQ(r2, s2) },
		func() { ADDQ(maj, h) },
		func() { ADDQ(s2, h) },
	)
	every := len(ops)/max(share, 1) + 1
	for i, op := range ops {
		op()
		if i%every == every-1 && share > 0 {
			q.take()
			share--
		}
	}
	for ; share > 0; share-- {
		q.take()
	}
}
