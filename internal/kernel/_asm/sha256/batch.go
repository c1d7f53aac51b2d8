package main

// The batch kernels of SumMany: 16 whole messages a call, padded and
// finished in lanes.

import (
	"fmt"

	"github.com/hashlanes/hashlanes/internal/kernel/_asm/interleave"
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
	transpose.DeclareBatch(name, lanes, 0)
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

// batchSHANIx4 is the batch kernel of shaniX4: lane-fulls of four whole
// messages, their blocks' rows padded as they load (RowAVX2, so it needs
// AVX2 beside SHA-NI) straight into each stream's message ring and W+K,
// the state kept in the stream's area between blocks (the rounds need
// every register), from the initial value given to digests stored in
// place. Where AVX-512 is missing it halves SumMany's time on URL paths
// against staging them for the block kernels (docs/figures.md, "SumMany
// of URL paths on SHA-NI").
func batchSHANIx4() {
	const streams = 4
	// A stream's area, as shaniX4's: its state as ABEF then CDGH (32
	// bytes), its message ring (64) and W+K (64).
	const area, ring, wk = 160, 32, 96
	at, scratch, bs := interleave.Batch(streams, area, 0)
	initState := func() {
		iv := Load(Param("iv"), GP64())
		st, order := YMM(), YMM()
		VMOVDQU(abefOrder(), order)
		VPERMD(Mem{Base: iv}, order, st)
		for l := range streams {
			VMOVDQU(st, at(l, 0))
		}
	}
	initState()
	loop := "sumSHANIx4_loop"
	Label(loop)
	kt := GP64()
	LEAQ(constTable(), kt)
	bswap := YMM()
	VMOVDQU(byteSwapMask(), bswap)
	for l := range streams {
		for h := range 2 {
			r, t := YMM(), YMM()
			padding.RowAVX2(bs.Ptrs, bs.Bits, bs.Off, bs.LastOff(), l, 32*h, scratch, r)
			VPSHUFB(bswap, r, r)
			VMOVDQU(r, at(l, ring+32*h))
			VPADDD(Mem{Base: kt, Disp: 32 * h}, r, t)
			VMOVDQU(t, at(l, wk+32*h))
		}
	}
	VZEROUPPER() // the rounds are legacy SSE
	abef := [streams]VecPhysical{X1, X2, X3, X4}
	cdgh := [streams]VecPhysical{X5, X6, X7, X8}
	newest := [streams]VecPhysical{X9, X10, X11, X12}
	for l := range streams {
		MOVOU(at(l, 0), abef[l])
		MOVOU(at(l, 16), cdgh[l])
		VMOVDQU(at(l, ring+48), newest[l])
	}
	shaniX4Rounds(at, ring, wk, kt, &abef, &cdgh, &newest, interleave.NewPool(X13, X14, X15))
	for l := range streams {
		VPADDD(at(l, 0), abef[l], abef[l])
		VPADDD(at(l, 16), cdgh[l], cdgh[l])
		VMOVDQU(abef[l], at(l, 0))
		VMOVDQU(cdgh[l], at(l, 16))
	}
	bs.IfLast(func() {
		order, bswap := YMM(), YMM()
		bs.StoreDigests(0, streams, func(int) {
			VMOVDQU(wordsOrder(), order)
			VMOVDQU(byteSwapMask(), bswap)
		}, func(l int, dst Mem) {
			d := YMM()
			VPERMD(at(l, 0), order, d)
			VPSHUFB(bswap, d, d)
			transpose.StoreSizedAVX2(fmt.Sprintf("sumSHANIx4_lane%d", l), []VecVirtual{d}, dst, []int{32, 28})
		})
		initState()
	})
	bs.Next()
	bs.Advance(loop)
	VZEROUPPER()
	RET()
}

// abefOrder is the VPERMD order that takes a state's words a..h to the
// SHA-NI layout, ABEF then CDGH (high word first in each); wordsOrder
// takes them back.
func abefOrder() Mem  { return dwordOrder("sha256abef", [8]uint32{5, 4, 1, 0, 7, 6, 3, 2}) }
func wordsOrder() Mem { return dwordOrder("sha256words", [8]uint32{3, 2, 7, 6, 1, 0, 5, 4}) }

var orders = map[string]Mem{}

func dwordOrder(name string, idx [8]uint32) Mem {
	if m, ok := orders[name]; ok {
		return m
	}
	m := GLOBL(name, RODATA|NOPTR)
	for i, v := range idx {
		DATA(4*i, U32(v))
	}
	orders[name] = m
	return m
}
