// Command hexenc generates internal/hexenc's AVX2 hex expansion.
package main

import (
	. "github.com/mmcloughlin/avo/build"
	. "github.com/mmcloughlin/avo/operand"
)

func main() {
	ConstraintExpr("amd64,!purego")
	expand()
	Generate()
}

// expand encodes 16 bytes a step: zero-extended to 16-bit words, each
// word becomes (byte >> 4) | (byte & 15) << 8, the two nibbles in output
// order, and VPSHUFB looks both up in "0123456789abcdef" at once.
// Forward in place is safe when src is dst+m with m >= n: step k writes
// up to 32k+32 <= m+16k+16, where the bytes not yet read begin.
func expand() {
	TEXT("expandAVX2", NOSPLIT, "func(dst, src *byte, n int)")
	Pragma("noescape")
	Doc("expandAVX2 writes the lower-case hex of the n bytes at src to dst, 16 at a time; src may lie ahead in the same buffer, from dst+n on.")
	dst := Load(Param("dst"), GP64())
	src := Load(Param("src"), GP64())
	n := Load(Param("n"), GP64())
	SHRQ(U8(4), n)
	JZ(LabelRef("done"))
	digits := GLOBL("hexdigits", RODATA|NOPTR)
	DATA(0, String("0123456789abcdef"))
	low := GLOBL("hexlow", RODATA|NOPTR)
	DATA(0, U16(0x000f))
	table, mask := YMM(), YMM()
	VBROADCASTI128(digits, table)
	VPBROADCASTW(low, mask)
	Label("loop")
	w, hi, lo := YMM(), YMM(), YMM()
	VPMOVZXBW(Mem{Base: src}, w)
	VPSRLW(U8(4), w, hi)
	VPAND(mask, w, lo)
	VPSLLW(U8(8), lo, lo)
	VPOR(lo, hi, hi)
	VPSHUFB(hi, table, hi)
	VMOVDQU(hi, Mem{Base: dst})
	ADDQ(U8(16), src)
	ADDQ(U8(32), dst)
	DECQ(n)
	JNZ(LabelRef("loop"))
	VZEROUPPER()
	Label("done")
	RET()
}
