package main

import (
	"fmt"

	"github.com/hashlanes/hashlanes/internal/kernel/_asm/sha2"
	"github.com/hashlanes/hashlanes/internal/kernel/_asm/transpose"
	. "github.com/mmcloughlin/avo/build"
	. "github.com/mmcloughlin/avo/operand"
	. "github.com/mmcloughlin/avo/reg"
)

// avx2 hashes 4 lanes in one group of YMM registers, the AVX-512
// kernel's rounds spelled in AVX2 (see the SHA-256 generator), for CPUs
// with AVX2 but not AVX-512. The kernel is bound by its count of vector
// instructions, so σ0's rotation by 8 is one VPSHUFB rather than two
// shifts and an OR, and Maj reuses the previous round's a ^ b; a fifth
// stream in scalar instructions among the lanes' rounds lost, the two
// contending for issue (docs/kernel-design.md, "SHA-512's AVX2 lanes").
func avx2() {
	TEXT("blockAVX2x4", 0, "func(s *[8][4]uint64, ptrs *[4]*byte, nblocks int)")
	Pragma("noescape")
	Doc("blockAVX2x4 hashes nblocks blocks of 4 lanes with AVX2.")
	sha2.SHA512AVX2.LanesAVX2("blockAVX2x4", 10<<10, 80, constTable(), byteSwapMask(), func(pp, off Register, bswap VecVirtual, w Mem, row int) {
		for c := range 4 {
			words4x4(false, laneLoads(false, pp, off, 0, 32*c), func(j int, r VecVirtual) {
				VPSHUFB(bswap, r, r)
				VMOVDQU(r, w.Offset(row*(4*c+j)))
			})
		}
	})
}

// avx512 hashes 8 lanes as two interleaved groups of 4 in YMM registers,
// the SHA-256 kernel's shape with 64-bit words: VPRORQ for the rotations,
// VPTERNLOGQ for the three-way XORs and for Ch and Maj, broadcast round
// constants. 256-bit operations, since 512-bit ones issue at half the rate
// on some cores; two groups keep the pipes full, as a round's dependency chain
// is about five instructions long and a group's round about twenty. Each
// block's message is transposed and byte-swapped up front, and the
// schedule is extended in a stack buffer two rounds ahead of its use.
func avx512() { lanes512("blockAVX512YMMx8", "256-bit", sha2.SHA512) }

// zmm is avx512 with the 8 lanes in one group of ZMM registers (see the
// SHA-256 generator's zmm).
func zmm() { lanes512("blockAVX512ZMMx8", "512-bit", sha2.SHA512.ZMM()) }

func lanes512(name, forms string, words sha2.Words) {
	TEXT(name, 0, "func(s *[8][8]uint64, ptrs *[8]*byte, nblocks int)")
	Pragma("noescape")
	Doc(fmt.Sprintf("%s hashes nblocks blocks of 8 lanes with %s AVX-512 instructions.", name, forms))
	words.Lanes(name, 13<<10, 80, constTable(), byteSwapMask(), func(pp, off Register, bswap VecVirtual, w Mem, row int) {
		if row == 64 { // one group of ZMM lanes
			zmmWords8x8(pp, off, w, row)
			return
		}
		for g := range 2 {
			for c := range 4 {
				words4x4(true, laneLoads(true, pp, off, 4*g, 32*c), func(j int, r VecVirtual) {
					VPSHUFB(bswap, r, r)
					VMOVDQU64(r, w.Offset(row*(4*c+j)+32*g))
				})
			}
		}
	})
}

// laneLoads loads row k from ptrs[first+k]+off+disp, in EVEX or VEX form.
func laneLoads(evex bool, ptrs, off Register, first, disp int) func(k int, r VecVirtual) {
	return func(k int, r VecVirtual) {
		m := Mem{Base: transpose.LanePtr(ptrs, first+k), Index: off, Scale: 1, Disp: disp}
		if evex {
			VMOVDQU64(m, r)
		} else {
			VMOVDQU(m, r)
		}
	}
}

// words4x4 loads 4 rows of 32 bytes, row k into a register by load(k, r),
// and hands done the 4 YMM registers, the j-th holding 64-bit word j (of
// those 32 bytes) of the 4 rows: 8 shuffles, in EVEX forms (which may use
// Y16-Y31) or, for AVX2, VEX ones.
func words4x4(evex bool, load func(k int, r VecVirtual), done func(j int, r VecVirtual)) {
	var r [4]VecVirtual
	for k := range 4 {
		r[k] = YMM()
		load(k, r[k])
	}
	lo01, hi01, lo23, hi23 := YMM(), YMM(), YMM(), YMM()
	VPUNPCKLQDQ(r[1], r[0], lo01) // lane0.w0 lane1.w0 | lane0.w2 lane1.w2
	VPUNPCKHQDQ(r[1], r[0], hi01) // lane0.w1 lane1.w1 | lane0.w3 lane1.w3
	VPUNPCKLQDQ(r[3], r[2], lo23)
	VPUNPCKHQDQ(r[3], r[2], hi23)
	for j, sel := range [4]struct {
		imm  uint8
		a, b VecVirtual
	}{{0, lo01, lo23}, {0, hi01, hi23}, {3, lo01, lo23}, {3, hi01, hi23}} {
		x := YMM()
		if evex {
			VSHUFI64X2(U8(sel.imm), sel.b, sel.a, x) // low (0) or high (3) 128-bit halves of a, then b
		} else {
			VPERM2I128(U8([4]uint8{0x20, 0, 0, 0x31}[sel.imm]), sel.b, sel.a, x)
		}
		done(j, x)
	}
}

// zmmWords8x8 loads each lane's block as two 64-byte rows and transposes
// each half (8 lanes x 8 words) in ZMM registers: 24 shuffles and 8 byte
// swaps a half, against 48 shuffles and 16 byte swaps for the 4x4
// transposes of 256-bit rows.
func zmmWords8x8(pp, off Register, w Mem, row int) {
	swap := ZMM()
	VBROADCASTI32X4(byteSwapMask(), swap)
	for h := range 2 {
		var r [8]VecVirtual
		for i := range 8 {
			r[i] = ZMM()
			VMOVDQU64(Mem{Base: transpose.LanePtr(pp, i), Index: off, Scale: 1, Disp: 64 * h}, r[i])
			VPSHUFB(swap, r[i], r[i])
		}
		// t[2k] holds words 0,2,4,6 of lanes 2k and 2k+1 interleaved, t[2k+1] words 1,3,5,7.
		var t [8]VecVirtual
		for k := range 4 {
			t[2*k], t[2*k+1] = ZMM(), ZMM()
			VPUNPCKLQDQ(r[2*k+1], r[2*k], t[2*k])
			VPUNPCKHQDQ(r[2*k+1], r[2*k], t[2*k+1])
		}
		// u[g][m]: lanes 4g..4g+3; m=0 words 0,4; 1 words 2,6; 2 words 1,5; 3 words 3,7.
		var u [2][4]VecVirtual
		for g := range 2 {
			a, b, c, d := t[4*g], t[4*g+1], t[4*g+2], t[4*g+3]
			for m, src := range [4][2]VecVirtual{{a, c}, {a, c}, {b, d}, {b, d}} {
				u[g][m] = ZMM()
				imm := uint8(0x88)
				if m%2 == 1 {
					imm = 0xdd
				}
				VSHUFI64X2(U8(imm), src[1], src[0], u[g][m])
			}
		}
		words := [4][2]int{{0, 4}, {2, 6}, {1, 5}, {3, 7}}
		for m := range 4 {
			for k, imm := range []uint8{0x88, 0xdd} {
				x := ZMM()
				VSHUFI64X2(U8(imm), u[1][m], u[0][m], x)
				VMOVDQU64(x, w.Offset(row*(8*h+words[m][k])))
			}
		}
	}
}
