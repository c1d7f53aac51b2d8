package main

import (
	"fmt"

	"github.com/hashlanes/hashlanes/internal/kernel/_asm/sha2"
	"github.com/hashlanes/hashlanes/internal/kernel/_asm/transpose"
	. "github.com/mmcloughlin/avo/build"
	. "github.com/mmcloughlin/avo/operand"
	. "github.com/mmcloughlin/avo/reg"
)

// batchAVX512 is the batch kernel on the rounds of avx512: lane-fulls of
// 8 whole messages, padded as they are loaded, from the initial value
// given to digests stored in place (two 4x4 transposes of each group's
// state back to lanes, byte-swapped; the digest's bytes of them stored:
// 64 for SHA-512, 48 for SHA-384, 32 and 28 for SHA-512/256 and /224).
func batchAVX512() { batch512("sumAVX512YMMx8", sha2.SHA512) }

// batchZMM is batchAVX512 on the rounds of zmm: the lanes in one group of
// ZMM registers, handed to the digest stores as two YMM groups.
func batchZMM() { batch512("sumAVX512ZMMx8", sha2.SHA512.ZMM()) }

func batch512(name string, words sha2.Words) {
	const lanes = 8
	transpose.DeclareBatch(name, lanes, 0)
	words.Batch(name, lanes, 80, constTable(), byteSwapMask(),
		func(ptrs, bits, off Register, bswap VecVirtual, w Mem, row int) {
			base := padding.Base(off)
			for g := range 2 {
				for c := range 4 {
					load := func(k int, r VecVirtual) { padding.Row(ptrs, bits, base, off, 4*g+k, 32*c, r) }
					words4x4(true, load, func(j int, r VecVirtual) {
						VPSHUFB(bswap, r, r)
						VMOVDQU64(r, w.Offset(row*(4*c+j)+32*g))
					})
				}
			}
		},
		func(st *[2][8]VecVirtual, bswap VecVirtual, bs *transpose.BatchStream) {
			var half [2][4]VecVirtual // half[c][j]: words 4c..4c+3 of the group's lane j
			bs.StoreDigests(0, 4, func(g int) {
				for c := range 2 {
					words4x4(true, func(k int, r VecVirtual) { VMOVDQA64(st[g][4*c+k], r) }, func(j int, r VecVirtual) {
						VPSHUFB(bswap, r, r)
						half[c][j] = r
					})
				}
			}, func(l int, dst Mem) {
				transpose.StoreSized(fmt.Sprintf("%s_lane%d", name, l), []VecVirtual{half[0][l%4], half[1][l%4]}, dst, []int{64, 48, 32, 28})
			})
		})
}

// batchAVX2 is the batch kernel on the rounds of avx2: lane-fulls of 4
// whole messages, their rows padded as they load (RowAVX2, as AVX2 has no
// byte-masked loads), from the initial value given to digests stored in
// place.
func batchAVX2() {
	const lanes = 4
	name := "sumAVX2x4"
	transpose.DeclareBatch(name, lanes, 0)
	sha2.SHA512AVX2.BatchAVX2(name, lanes, 80, constTable(), byteSwapMask(),
		func(ptrs, bits, off, lastOff Register, bswap VecVirtual, w Mem, row int, scratch Mem) {
			for c := range 4 {
				load := func(k int, r VecVirtual) { padding.RowAVX2(ptrs, bits, off, lastOff, k, 32*c, scratch, r) }
				words4x4(false, load, func(j int, r VecVirtual) {
					VPSHUFB(bswap, r, r)
					VMOVDQU(r, w.Offset(row*(4*c+j)))
				})
			}
		},
		func(st *[8]VecVirtual, bswap VecVirtual, bs *transpose.BatchStream) {
			var half [2][4]VecVirtual // half[c][j]: words 4c..4c+3 of lane j
			bs.StoreDigests(0, 4, func(int) {
				for c := range 2 {
					words4x4(false, func(k int, r VecVirtual) { VMOVDQA(st[4*c+k], r) }, func(j int, r VecVirtual) {
						VPSHUFB(bswap, r, r)
						half[c][j] = r
					})
				}
			}, func(l int, dst Mem) {
				transpose.StoreSizedAVX2(fmt.Sprintf("%s_lane%d", name, l), []VecVirtual{half[0][l], half[1][l]}, dst, []int{64, 48, 32, 28})
			})
		})
}

var padding = transpose.NewPadding("sha512", 128, 16, true)
