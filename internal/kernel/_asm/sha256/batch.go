package main

// The batch kernels of SumMany: 16 whole messages a call, padded and
// finished in lanes.

import (
	"fmt"

	"github.com/hashlanes/hashlanes/internal/kernel/_asm/sha2"
	"github.com/hashlanes/hashlanes/internal/kernel/_asm/transpose"
	. "github.com/mmcloughlin/avo/build"
	. "github.com/mmcloughlin/avo/operand"
	. "github.com/mmcloughlin/avo/reg"
)

// batchAVX512 is the batch kernel on the rounds of avx512: lane-fulls of
// 16 whole messages, padded as they are loaded, from the initial value
// given to digests stored in place (an 8x8 transpose of each group's state
// back to lanes, byte-swapped: a 32-byte store a lane, or 16+8+4 bytes for
// SHA-224).
func batchAVX512() { batch512("sumAVX512YMMx16", sha2.SHA256) }

// batchZMM is batchAVX512 on the rounds of zmm: the lanes in one group of
// ZMM registers, handed to the digest stores as two YMM groups.
func batchZMM() { batch512("sumAVX512ZMMx16", sha2.SHA256.ZMM()) }

func batch512(name string, words sha2.Words) {
	const lanes = 16
	TEXT(name, 0, transpose.BatchSignatureIV)
	Pragma("noescape")
	Doc(transpose.BatchDoc(name, lanes, 0))
	words.Batch(name, lanes, 64, constTable(), byteSwapMask(),
		func(ptrs, bits, off Register, bswap VecVirtual, w Mem, row int) {
			var d transpose.Deferred
			padding.DeferLoads(&d, 2, ptrs, bits, off, func(g, h, j int, r VecVirtual) {
				VPSHUFB(bswap, r, r)
				VMOVDQU32(r, w.Offset(row*(8*h+j)+32*g))
			})
			d.Flush()
		},
		func(st *[2][8]VecVirtual, bswap VecVirtual, bs *transpose.BatchStream) {
			var lane [8]VecVirtual // the group's lanes, whole states
			bs.StoreDigests(0, 8, func(g int) {
				var d transpose.Deferred
				transpose.DeferRows8x8(&d, func(i int, r VecVirtual) { VMOVDQA32(st[g][i], r) }, func(j int, r VecVirtual) {
					VPSHUFB(bswap, r, r)
					lane[j] = r
				})
				d.Flush()
			}, func(l int, dst Mem) {
				transpose.StoreSized(fmt.Sprintf("%s_lane%d", name, l), lane[l%8:l%8+1], dst, []int{32, 28})
			})
		})
}

var padding = transpose.NewPadding("sha256", 64, 8, true)
