package main

// The lane kernels: 8 lanes in AVX2 registers, 16 in AVX-512 YMM or ZMM
// registers.

import (
	"fmt"

	"github.com/hashlanes/hashlanes/internal/kernel/_asm/sha2"
	"github.com/hashlanes/hashlanes/internal/kernel/_asm/transpose"
	. "github.com/mmcloughlin/avo/build"
	. "github.com/mmcloughlin/avo/operand"
	. "github.com/mmcloughlin/avo/reg"
)

// avx2 hashes 8 lanes in one group of YMM registers, the AVX-512
// kernel's rounds spelled in AVX2 (each rotation two shifts and an OR; Ch
// and Maj in three instructions each), for CPUs with AVX2 but neither
// AVX-512 nor SHA-NI.
func avx2() {
	TEXT("blockAVX2x8", 0, "func(s *[8][8]uint32, ptrs *[8]*byte, nblocks int)")
	Pragma("noescape")
	Doc("blockAVX2x8 hashes nblocks blocks of 8 lanes with AVX2.")
	sha2.SHA256AVX2.LanesAVX2("blockAVX2x8", 10<<10, 64, constTable(), byteSwapMask(), func(pp, off Register, bswap VecVirtual, w Mem, row int) {
		for h := range 2 {
			for j, r := range transpose.Words8x8(pp, off, 0, 32*h) {
				VPSHUFB(bswap, r, r)
				VMOVDQU(r, w.Offset(row*(8*h+j)))
			}
		}
	})
}

// avx512 hashes 16 lanes as two interleaved groups of 8 in YMM registers
// with the AVX-512 forms: VPRORD for the rotations, VPTERNLOGD for the
// three-way XORs of the Sigma functions and for Ch and Maj, broadcast
// round constants. A round is 19 instructions a group, so two groups
// already fill the pipes (256-bit operations: 512-bit ones issue at half
// the rate on some cores, see the MD5 generator); each block's message is
// transposed and byte-swapped up front, and the schedule is extended in a
// stack buffer two rounds ahead of its first use.
func avx512() { lanes512("blockAVX512YMMx16", "256-bit", sha2.SHA256, false) }

// zmm is avx512 with the 16 lanes in one group of ZMM registers: half the
// instructions, for CPUs whose 512-bit operations issue nearly as often
// as 256-bit ones (Intel's, on two ports; sha2.Words.ZMM). The message
// lands in the same rows, 64 bytes a word. SHA-NI streams riding these
// lanes, as they ride hybrid's 8, lost: the 512-bit rounds leave no ports
// for the SHA unit's work (docs/kernel-design.md, "SHA-256's ZMM lanes
// and SHA-NI riders").
func zmm() { lanes512("blockAVX512ZMMx16", "512-bit", sha2.SHA256.ZMM(), true) }

// lanes512 emits a 16-lane kernel; wide ones transpose the message in
// 512-bit registers (transpose.DeferRows16: 48 shuffles, 16 extracting
// stores and 16 byte swaps a block, against 192 shuffles and 64 byte
// swaps for four 256-bit 8x8 transposes, all on the one port that
// shuffles).
func lanes512(name, forms string, words sha2.Words, wide bool) {
	TEXT(name, 0, "func(s *[8][16]uint32, ptrs *[16]*byte, nblocks int)")
	Pragma("noescape")
	Doc(fmt.Sprintf("%s hashes nblocks blocks of 16 lanes with %s AVX-512 instructions.", name, forms))
	words.Lanes(name, 14<<10, 64, constTable(), byteSwapMask(), func(pp, off Register, bswap VecVirtual, w Mem, row int) {
		if wide {
			bswap512 := ZMM()
			VBROADCASTI32X4(byteSwapMask(), bswap512)
			var d transpose.Deferred
			transpose.DeferRows16(&d, pp, off, 0, bswap512, func(j int) Mem { return w.Offset(row * j) })
			d.Flush()
			return
		}
		for g := range 2 {
			for h := range 2 {
				transpose.Words8x8EVEX(pp, off, 8*g, 32*h, func(j int, r VecVirtual) {
					VPSHUFB(bswap, r, r)
					VMOVDQU32(r, w.Offset(row*(8*h+j)+32*g))
				})
			}
		}
	})
}
