package main

// The batch kernels of SumMany: 16 whole messages a call, padded and
// finished in lanes.

import (
	"github.com/hashlanes/hashlanes/internal/kernel/_asm/interleave"
	"github.com/hashlanes/hashlanes/internal/kernel/_asm/sha2"
	"github.com/hashlanes/hashlanes/internal/kernel/_asm/stack"
	"github.com/hashlanes/hashlanes/internal/kernel/_asm/transpose"
	. "github.com/mmcloughlin/avo/build"
	. "github.com/mmcloughlin/avo/operand"
	. "github.com/mmcloughlin/avo/reg"
)

// batchAVX512 is the batch kernel: lane-fulls of 16 whole messages of
// nblocks blocks, padded as they are loaded, from the initial value to
// digests stored in place, the next block's padded transpose spread
// through this block's rounds across lane-fulls (see the MD5 generator).
func batchAVX512() { batch16("sumAVX512YMMx16", false) }

// batchZMM is batchAVX512 on the rounds of zmm: the lanes in one group of
// ZMM registers, handed to the digest stores as two YMM groups.
func batchZMM() { batch16("sumAVX512ZMMx16", true) }

func batch16(name string, wide bool) {
	const lanes, row = 16, 64
	transpose.DeclareBatch(name, lanes, 20)
	rings := stack.Aligned(2*16*row + 5*row + 32)
	saved := rings.Offset(2 * 16 * row)
	lastE := saved.Offset(5 * row)
	bs := transpose.NewBatchStream(name, lanes, 64)
	k, bswap := roundConsts(wide)
	iv := sha2.SHA256.Consts("sha1init", []uint64{0x67452301, 0xefcdab89, 0x98badcfe, 0x10325476, 0xc3d2e1f0})
	gr := newGroups(wide)
	st := make([][5]VecVirtual, gr.n)
	for g := range st {
		for i := range 5 {
			st[g][i] = gr.vec()
		}
	}
	initState := func() {
		for g := range st {
			for i := range 5 {
				VPBROADCASTD(iv.Offset(4*i), st[g][i])
			}
		}
	}
	message := func(d *transpose.Deferred, ptrs, bits, off, buf Register) {
		padding.DeferLoads(d, 2, ptrs, bits, off, func(g, h, j int, r VecVirtual) {
			VPSHUFB(bswap, r, r)
			VMOVDQU32(r, Mem{Base: buf, Disp: row*(8*h+j) + 32*g})
		})
	}
	initState()
	bs.Pipelined(rings, 16*row, message,
		func(buf Register, pipe *transpose.Deferred) { hashBlock(st, gr, saved, k, buf, pipe) },
		func() { // the lane-full's digests, and the next one's start
			var groups [2][5]VecVirtual // the final state as two YMM groups, as storeDigests takes it
			if wide {
				lo, hi := transpose.Halves(st[0][:])
				copy(groups[0][:], lo)
				copy(groups[1][:], hi)
			} else {
				groups = [2][5]VecVirtual(st)
			}
			storeDigests(&groups, bs, bswap, lastE)
			initState()
		})
	VZEROUPPER()
	RET()
}

var padding = transpose.NewPadding("sha1", 64, 8, true)

// storeDigests writes a lane-full's digests: a, b, c, d by a 4x8
// transpose of each group's words, byte-swapped, one 16-byte store a lane;
// e byte-swapped through the stack, one 4-byte move a lane.
func storeDigests(st *[2][5]VecVirtual, bs *transpose.BatchStream, bswap VecVirtual, lastE Mem) {
	var u [4]VecVirtual // u[k]: lane k, then lane 4+k of the group
	bs.StoreDigests(20, 8, func(g int) {
		u = transpose.Lanes4x8(st[g][0], st[g][1], st[g][2], st[g][3])
		for k := range u {
			VPSHUFB(bswap, u[k], u[k])
		}
		e := YMM()
		VPSHUFB(bswap, st[g][4], e)
		VMOVDQU32(e, lastE)
	}, func(lane int, dst Mem) {
		if j := lane % 8; j < 4 {
			VMOVDQU32(u[j].AsX(), dst)
		} else {
			VEXTRACTI32X4(U8(1), u[j-4], dst)
		}
		w := GP32()
		MOVL(lastE.Offset(4*(lane%8)), w)
		MOVL(w, dst.Offset(16))
	})
}

// deferMessage queues the transpose of the block at off in every lane into
// the ring buf, byte-swapped: two 8x8 transposes (the halves of the block)
// per group of 8 lanes.
func deferMessage(d *transpose.Deferred, ptrs, off, buf Register, bswap VecVirtual) {
	for g := range 2 {
		for h := range 2 {
			transpose.DeferWords8x8(d, ptrs, off, 8*g, 32*h, func(j int, r VecVirtual) {
				VPSHUFB(bswap, r, r)
				VMOVDQU32(r, Mem{Base: buf, Disp: 64*(8*h+j) + 32*g})
			})
		}
	}
}

// deferMessageZMM is deferMessage for the 512-bit kernel: one 16x16
// transpose of whole blocks in 512-bit registers, each block byte-swapped
// as it loads (transpose.DeferRows16). Four 8x8 transposes in 256-bit
// registers, as deferMessage does, take 256 shuffles a block, all on the
// one port that shuffles, against 48 here and 16 extracting stores.
func deferMessageZMM(d *transpose.Deferred, ptrs, off, buf Register, bswap VecVirtual) {
	transpose.DeferRows16(d, ptrs, off, 0, bswap, func(j int) Mem { return Mem{Base: buf, Disp: 64 * j} })
}

// batchSHANIx4 is the batch kernel of shaniX4: lane-fulls of four whole
// messages, their blocks' rows padded as they load (RowAVX2, so it needs
// AVX2 beside SHA-NI) straight into each stream's message ring, ABCD and
// E kept in the stream's area between blocks (the rounds need every
// register), from the initial value to digests stored in place.
func batchSHANIx4() {
	const streams = 4
	// A stream's area, as shaniX4's: ABCD (A in the top dword) and E (in
	// the top dword) at the block's start, then its message ring.
	const area, savedE, ring = 96, 16, 32
	at, scratch, bs := interleave.Batch(streams, area, 20)
	initState := func() {
		st := YMM()
		VMOVDQU(initABCDE(), st)
		for l := range streams {
			VMOVDQU(st, at(l, 0))
		}
	}
	initState()
	loop := "sumSHANIx4_loop"
	Label(loop)
	reverse := YMM()
	VMOVDQU(reverseMask32(), reverse)
	for l := range streams {
		for h := range 2 {
			r := YMM()
			padding.RowAVX2(bs.Ptrs, bs.Bits, bs.Off, bs.LastOff(), l, 32*h, scratch, r)
			VPSHUFB(reverse, r, r) // each group's words byte-swapped, its first in the top dword
			VMOVDQU(r, at(l, ring+32*h))
		}
	}
	VZEROUPPER() // the rounds are legacy SSE
	abcd := [streams]VecPhysical{X1, X2, X3, X4}
	pool := interleave.NewPool(X0, X5, X6, X7, X8, X9, X10, X11, X12, X13, X14, X15)
	var newest [streams]VecPhysical
	for l := range streams {
		VMOVDQU(at(l, 0), abcd[l])
		newest[l] = pool.Take()
		VMOVDQU(at(l, ring+48), newest[l])
	}
	e := shaniX4Rounds(at, ring, savedE, &abcd, &newest, pool)
	for l := range streams {
		SHA1NEXTE(at(l, savedE), e[l])
		VMOVDQU(e[l], at(l, savedE))
		VPADDD(at(l, 0), abcd[l], abcd[l])
		VMOVDQU(abcd[l], at(l, 0))
	}
	bs.IfLast(func() {
		rev := XMM()
		bs.StoreDigests(20, streams, func(int) { VMOVDQU(reverseMask(), rev) }, func(l int, dst Mem) {
			x := XMM()
			VMOVDQU(at(l, 0), x)
			VPSHUFB(rev, x, x) // A..D, big-endian
			VMOVDQU(x, dst)
			t := GP32()
			MOVL(at(l, savedE+12), t)
			BSWAPL(t)
			MOVL(t, dst.Offset(16))
		})
		initState()
	})
	bs.Next()
	bs.Advance(loop)
	VZEROUPPER()
	RET()
}

// initABCDE is the initial state in a SHA-NI stream's area: ABCD with A in
// the top dword, then E in the top dword of the next 16 bytes.
func initABCDE() Mem {
	return sha2.SHA256.Consts("sha1initabcde", []uint64{0x10325476, 0x98badcfe, 0xefcdab89, 0x67452301, 0, 0, 0, 0xc3d2e1f0})
}

// reverseMask32 is reverseMask for both halves of a YMM register.
func reverseMask32() Mem {
	m := make([]uint64, 8)
	for i := range m {
		b := 4 * (i % 4)
		m[i] = uint64(15-b) | uint64(14-b)<<8 | uint64(13-b)<<16 | uint64(12-b)<<24
	}
	return sha2.SHA256.Consts("sha1reverse32", m)
}
