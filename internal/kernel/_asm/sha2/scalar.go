package sha2

import (
	"github.com/hashlanes/hashlanes/internal/kernel/_asm/stack"
	"github.com/hashlanes/hashlanes/internal/kernel/_asm/warm"

	. "github.com/mmcloughlin/avo/build"
	. "github.com/mmcloughlin/avo/operand"
	. "github.com/mmcloughlin/avo/reg"
)

// LanesAVX2Scalar is LanesAVX2 with one more stream, hashed by scalar
// instructions among the rounds of the lanes: after each round of the
// lanes, the same round of the scalar stream (and, in the passes that
// extend the schedule, its next message word). The lanes' rounds leave the
// integer ALUs idle; the scalar round's chain, about six cycles, fits in
// the ~15 a round of the lanes takes. 64-bit words only (SHA-512).
//
// The kernel's signature is func(s, ptrs *[lanes+1]*byte, x *[8]uint64,
// nblocks): the scalar stream reads ptrs[lanes] and keeps its chaining
// value in x. Its message words sit in the lanes' schedule buffer, in
// rows widened to 64 bytes (the lanes' 32, then the scalar word), so that
// both schedules advance with one pointer.
//
// Only a, e and Maj's carried a ^ b stay in registers (the kernel has
// eight others in use): the other working variables live in two rings of
// four words on the stack, A (a, b, c, d as rounds go by) and E (e, f, g,
// h), which the round reads as memory operands. Sixteen rounds a pass
// bring a ring back to where it started, so every pass runs the same code.
func (ws Words) LanesAVX2Scalar(fn string, codeBytes, rounds int, consts, bswapMask Mem, load func(pp, off Register, bswap VecVirtual, w Mem, row int)) {
	if ws.Bytes != 8 {
		panic("LanesAVX2Scalar: 64-bit words only")
	}
	const row = 64 // the lanes' 32 bytes of a word, then the scalar stream's
	const scalarCol = 32
	const lanes = 4
	// The stack: the schedule (rounds rows), the lanes' saved state (8 rows),
	// the rings A and E, then the scalar chaining value.
	buf := stack.Aligned(rounds*row + 8*row + 8*8 + 8*8)
	w, saved := buf, buf.Offset(rounds*row)
	ringA, ringE, cv := buf.Offset((rounds+8)*row), buf.Offset((rounds+8)*row+32), buf.Offset((rounds+8)*row+64)
	n := Load(Param("nblocks"), GP64())
	off := GP64()
	XORQ(off, off)

	sl := &scalarLane{ws: ws, ringA: ringA, ringE: ringE, row: row, col: scalarCol}
	{
		sp := Load(Param("s"), GP64())
		for i := range 8 {
			x := YMM()
			ws.Load(Mem{Base: sp, Disp: 32 * i}, x)
			ws.Load(x, saved.Offset(row*i))
		}
		xp, t := Load(Param("x"), GP64()), GP64()
		for i := range 8 {
			MOVQ(Mem{Base: xp, Disp: 8 * i}, t)
			MOVQ(t, cv.Offset(8*i))
		}
	}
	sl.a, sl.e, sl.ab = GP64(), GP64(), GP64()

	Label("avx2s_loop")
	warm.Code(fn, codeBytes, 16*ws.Bytes, n)
	{
		pp := Load(Param("ptrs"), GP64())
		bswap := YMM()
		ws.Load(bswapMask, bswap)
		load(pp, off, bswap, w, row)
		sl.begin(pp, off, lanes, w, cv)
	}
	var cur [8]VecVirtual
	for i := range 8 {
		cur[i] = YMM()
		ws.Load(saved.Offset(row*i), cur[i])
	}
	ws.roundsBy("avx2s", scalarPass, rounds, row, w, consts, [][8]VecVirtual{cur}, false, sl.round)
	for i := range 8 {
		ws.Add(saved.Offset(row*i), cur[i], cur[i])
		ws.Load(cur[i], saved.Offset(row*i))
	}
	sl.end(cv)
	ws.nextBlock(off)
	DECQ(n)
	JNZ(LabelRef("avx2s_loop"))

	sp := Load(Param("s"), GP64())
	for i := range 8 {
		x := YMM()
		ws.Load(saved.Offset(row*i), x)
		ws.Load(x, Mem{Base: sp, Disp: 32 * i})
	}
	xp, t := Load(Param("x"), GP64()), GP64()
	for i := range 8 {
		MOVQ(cv.Offset(8*i), t)
		MOVQ(t, Mem{Base: xp, Disp: 8 * i})
	}
	VZEROUPPER()
	RET()
}

// scalarLane is the scalar stream of LanesAVX2Scalar: a and e, and b ^ c
// for Maj, in registers, the rest in the rings.
// scalarPass is LanesAVX2Scalar's pass of rounds: with passes of 16, as
// the lanes alone run, the kernel outgrew Zen 3's op cache and ran at 0.66
// of the rate it reaches with passes of 8.
const scalarPass = 8

type scalarLane struct {
	ws           Words
	ringA, ringE Mem
	row, col     int // the schedule's row, and the scalar word's offset in it
	a, e, ab     GPVirtual
}

// slot is ring r's word for the variable k rounds back from round t (k =
// 0 is a or e at round t, 3 is d or h): A_{t-k} lives at (t-k) mod 4.
func slot(r Mem, t, k int) Mem { return r.Offset(8 * (((t-k)%4 + 4) % 4)) }

// begin loads the scalar stream's block (the lanes' pointer array pp at
// index lanes, at offset off) into the schedule, byte-swapped, and sets the
// working variables from its chaining value cv: a and e in registers, b,
// c, d and f, g, h in the rings as round 0 reads them.
func (sl *scalarLane) begin(pp, off Register, lanes int, w, cv Mem) {
	p, t := GP64(), GP64()
	MOVQ(Mem{Base: pp, Disp: 8 * lanes}, p)
	for i := range 16 {
		MOVQ(Mem{Base: p, Index: off, Scale: 1, Disp: 8 * i}, t)
		BSWAPQ(t)
		MOVQ(t, w.Offset(sl.row*i+sl.col))
	}
	MOVQ(cv, sl.a)
	MOVQ(cv.Offset(32), sl.e)
	for k := 1; k < 4; k++ {
		MOVQ(cv.Offset(8*k), t)
		MOVQ(t, slot(sl.ringA, 0, k))
		MOVQ(cv.Offset(32+8*k), t)
		MOVQ(t, slot(sl.ringE, 0, k))
	}
	MOVQ(cv.Offset(8), sl.ab) // b ^ c, which the first Maj takes as the a ^ b of the round before
	XORQ(cv.Offset(16), sl.ab)
}

// end adds the working variables into the chaining value cv. After a
// block's rounds (a multiple of four) the rings are where begin left them.
func (sl *scalarLane) end(cv Mem) {
	ADDQ(sl.a, cv)
	ADDQ(sl.e, cv.Offset(32))
	t := GP64()
	for k := 1; k < 4; k++ {
		MOVQ(slot(sl.ringA, 0, k), t)
		ADDQ(t, cv.Offset(8*k))
		MOVQ(slot(sl.ringE, 0, k), t)
		ADDQ(t, cv.Offset(32+8*k))
	}
}

// round is the rounds' ride: with the lanes' schedule pointer wp (word t
// of this pass at wp+row*t) and round constants kp, the scalar stream's
// message word t+16 when the pass extends the schedule, then its round t.
func (sl *scalarLane) round(t int, schedule bool, wp, kp Register) {
	ws := sl.ws
	word := func(i int) Mem { return Mem{Base: wp, Disp: sl.row*i + sl.col} }
	if schedule {
		// σ0(x) = ror1(x ^ ror7(x)) ^ x>>7 and σ1(x) = ror19(x ^ ror42(x)) ^
		// x>>6: each with two registers.
		x, s0, s1 := GP64(), GP64(), GP64()
		MOVQ(word(t+1), x)
		RORXQ(U8(ws.Small0[1]-ws.Small0[0]), x, s0)
		XORQ(x, s0)
		RORXQ(U8(ws.Small0[0]), s0, s0)
		SHRQ(U8(ws.Small0[2]), x)
		XORQ(x, s0)
		y := GP64()
		MOVQ(word(t+14), y)
		RORXQ(U8(ws.Small1[1]-ws.Small1[0]), y, s1)
		XORQ(y, s1)
		RORXQ(U8(ws.Small1[0]), s1, s1)
		SHRQ(U8(ws.Small1[2]), y)
		XORQ(y, s1)
		ADDQ(s1, s0)
		ADDQ(word(t+9), s0)
		ADDQ(word(t), s0)
		MOVQ(s0, word(t+16))
	}
	a, e := sl.a, sl.e
	b, d := slot(sl.ringA, t, 1), slot(sl.ringA, t, 3)
	f, g, h := slot(sl.ringE, t, 1), slot(sl.ringE, t, 2), slot(sl.ringE, t, 3)
	// T1 = h + K[t] + W[t] (off e's chain) + Σ1(e) + Ch(e, f, g).
	t1, u, v := GP64(), GP64(), GP64()
	MOVQ(h, t1)
	ADDQ(Mem{Base: kp, Disp: 8 * t}, t1)
	ADDQ(word(t), t1)
	RORXQ(U8(ws.Sigma1[0]), e, u)
	RORXQ(U8(ws.Sigma1[1]), e, v)
	XORQ(v, u)
	RORXQ(U8(ws.Sigma1[2]), e, v)
	XORQ(v, u)
	ADDQ(u, t1)
	MOVQ(f, u) // Ch = ((f ^ g) & e) ^ g
	XORQ(g, u)
	ANDQ(e, u)
	XORQ(g, u)
	ADDQ(u, t1)
	// e moves into the ring as f of the next round; the new e is d + T1.
	// The slot it takes held e of four rounds back, read last as h above.
	MOVQ(e, slot(sl.ringE, t, 0))
	MOVQ(d, e)
	ADDQ(t1, e)
	// The new a: T1 + Σ0(a) + Maj(a, b, c), Maj = ((a ^ b) & (b ^ c)) ^ b
	// with b ^ c the a ^ b of the round before.
	RORXQ(U8(ws.Sigma0[0]), a, u)
	RORXQ(U8(ws.Sigma0[1]), a, v)
	XORQ(v, u)
	RORXQ(U8(ws.Sigma0[2]), a, v)
	XORQ(v, u)
	ADDQ(u, t1)
	MOVQ(a, u)
	XORQ(b, u) // a ^ b
	ANDQ(u, sl.ab)
	XORQ(b, sl.ab)
	ADDQ(sl.ab, t1)
	MOVQ(u, sl.ab)
	MOVQ(a, slot(sl.ringA, t, 0))
	MOVQ(t1, a)
}
