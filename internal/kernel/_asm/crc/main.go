// Command crc generates internal/cksum's fold of the POSIX cksum CRC with
// carry-less multiplication (PCLMULQDQ).
//
// The CRC is MSB-first over the polynomial P = 0x104C11DB7, so a 16-byte
// block, byte-swapped into an XMM register, is the polynomial of its bits
// with the first bit at x^127. Four accumulators take consecutive blocks;
// a step moves each 64 bytes on: with R = H·x^64 + L,
// R·x^512 ≡ H·(x^576 mod P) + L·(x^512 mod P) (mod P), two products of
// under 96 bits, and the next block is added. At the end the accumulators
// fold into the last one (by x^128: x^192 and x^128 mod P), which is
// congruent to the whole input: its own CRC, taken by the table in Go,
// is the input's. No Barrett reduction is needed.
package main

import (
	. "github.com/mmcloughlin/avo/build"
	. "github.com/mmcloughlin/avo/operand"
	"github.com/mmcloughlin/avo/reg"
)

// poly is P without its x^32 term.
const poly = 0x04C11DB7

// xPowModP is x^n mod P.
func xPowModP(n int) uint64 {
	r := uint32(1) // x^0
	for range n {
		top := r & 0x80000000
		r <<= 1
		if top != 0 {
			r ^= poly
		}
	}
	return uint64(r)
}

// pair is a constant of two quadwords: lo multiplies an accumulator's low
// half, hi its high half.
func pair(name string, lo, hi int) Mem {
	m := GLOBL(name, RODATA|NOPTR)
	DATA(0, U64(xPowModP(lo)))
	DATA(8, U64(xPowModP(hi)))
	return m
}

func main() {
	ConstraintExpr("amd64,!purego")
	fold()
	Generate()
}

func fold() {
	TEXT("foldPCLMUL", NOSPLIT, "func(crc uint32, p *byte, n int, out *[16]byte)")
	Pragma("noescape")
	Doc("foldPCLMUL folds the n bytes at p (n a multiple of 64, at least 64) after a CRC of crc into 16 bytes with the same CRC, written to out.")
	bswap := GLOBL("bswapMask", RODATA|NOPTR)
	for i := range 16 {
		DATA(i, U8(15-i))
	}
	by512 := pair("fold512", 512, 576)
	by128 := pair("fold128", 128, 192)

	crc := Load(Param("crc"), GP32())
	p := Load(Param("p"), GP64())
	n := Load(Param("n"), GP64())
	out := Load(Param("out"), GP64())

	swap := XMM()
	MOVOU(bswap, swap)
	acc := []reg.VecVirtual{XMM(), XMM(), XMM(), XMM()}
	for i, x := range acc {
		MOVOU(Mem{Base: p, Disp: 16 * i}, x)
		PSHUFB(swap, x)
	}
	// The running CRC enters as the first 32 bits of the input, xored in.
	c := XMM()
	MOVD(crc, c)
	PSLLDQ(U8(12), c)
	PXOR(c, acc[0])
	ADDQ(U8(64), p)
	SUBQ(U8(64), n)
	JZ(LabelRef("combine"))

	k := XMM()
	MOVOU(by512, k)
	Label("loop")
	for i, x := range acc {
		foldInto(x, k, Mem{Base: p, Disp: 16 * i}, swap)
	}
	ADDQ(U8(64), p)
	SUBQ(U8(64), n)
	JNZ(LabelRef("loop"))

	Label("combine")
	MOVOU(by128, k)
	for i := 1; i < len(acc); i++ {
		foldInto(acc[i-1], k, acc[i], nil)
		MOVOU(acc[i-1], acc[i])
	}
	last := acc[len(acc)-1]
	PSHUFB(swap, last)
	MOVOU(last, Mem{Base: out})
	RET()
}

// foldInto sets x to x·K + next (mod P, under 128 bits), K's quadwords in
// k: next is a block in memory (byte-swapped with swap) or a register.
func foldInto(x, k reg.VecVirtual, next Op, swap reg.VecVirtual) {
	hi := XMM()
	MOVOU(x, hi)
	PCLMULQDQ(U8(0x00), k, x)  // L · (x^n mod P)
	PCLMULQDQ(U8(0x11), k, hi) // H · (x^(n+64) mod P)
	PXOR(hi, x)
	if m, ok := next.(Mem); ok {
		b := XMM()
		MOVOU(m, b)
		PSHUFB(swap, b)
		PXOR(b, x)
		return
	}
	PXOR(next, x)
}
