package sha2

import (
	"github.com/hashlanes/hashlanes/internal/kernel/_asm/stack"
	"github.com/hashlanes/hashlanes/internal/kernel/_asm/transpose"
	. "github.com/mmcloughlin/avo/build"
	. "github.com/mmcloughlin/avo/operand"
	. "github.com/mmcloughlin/avo/reg"
)

// Batch emits a batch kernel (transpose.BatchSignatureIV) on the rounds
// of Lanes: lane-fulls of two groups hashing whole messages from the
// initial value given (8 words, so one kernel serves SHA-224 and SHA-256,
// or SHA-384, SHA-512 and SHA-512/t) to digests stored in place. load writes
// a block's padded message words to w, byte-swapped, given the lane-full's
// message pointers and bit lengths (see transpose.Padding) and the block
// offset; store writes the digests of a lane-full given its final state
// (see transpose.BatchStream.StoreDigests). Each block's message is
// loaded up front, as in Lanes.
func (ws Words) Batch(name string, lanes, rounds int, consts, bswapMask Mem,
	load func(ptrs, bits, off Register, bswap VecVirtual, w Mem, row int),
	store func(st *[2][8]VecVirtual, bswap VecVirtual, bs *transpose.BatchStream),
) {
	const row = 64
	w := stack.Aligned(rounds*row + 8*row)
	saved := w.Offset(rounds * row)
	bs := transpose.NewBatchStream(name, lanes, 16*ws.Bytes)
	vb := ws.vb()
	st := make([][8]VecVirtual, row/vb) // two YMM groups or one ZMM one
	for g := range st {
		for i := range 8 {
			st[g][i] = ws.vec()
		}
	}
	initState := func() {
		iv := Load(Param("iv"), GP64())
		for g := range st {
			for i := range 8 {
				ws.broadcast(Mem{Base: iv, Disp: ws.Bytes * i}, st[g][i])
			}
		}
	}
	initState()
	loop := name + "_loop"
	Label(loop)
	bswap := YMM()
	ws.Load(bswapMask, bswap)
	load(bs.Ptrs, bs.Bits, bs.Off, bswap, w, row)
	for g := range st {
		for i := range 8 {
			ws.Load(st[g][i], saved.Offset(row*i+vb*g))
		}
	}
	ws.rounds(name, rounds, row, w, consts, st, true, nil)
	for g := range st {
		for i := range 8 {
			ws.Add(saved.Offset(row*i+vb*g), st[g][i], st[g][i])
		}
	}
	bs.IfLast(func() {
		var groups [2][8]VecVirtual // the final state as two YMM groups, as store takes it
		if vb == 64 {
			lo, hi := transpose.Halves(st[0][:])
			copy(groups[0][:], lo)
			copy(groups[1][:], hi)
		} else {
			groups = [2][8]VecVirtual(st)
		}
		store(&groups, bswap, bs)
		initState()
	})
	bs.Next()
	bs.Advance(loop)
	VZEROUPPER()
	RET()
}

// broadcast fills every word of dst with the word at m.
func (ws Words) broadcast(m Mem, dst VecVirtual) {
	if ws.Bytes == 8 {
		VPBROADCASTQ(m, dst)
	} else {
		VPBROADCASTD(m, dst)
	}
}

// BatchAVX2 is Batch on the rounds of LanesAVX2: lane-fulls of one group
// of lanes (4 of SHA-512's words in a YMM register), for CPUs with AVX2
// but not AVX-512. load and store are as Batch's, store's state in
// st[0]; scratch is 32 bytes for the padded loads' rows copied byte by
// byte (transpose.Padding.RowAVX2).
func (ws Words) BatchAVX2(name string, lanes, rounds int, consts, bswapMask Mem,
	load func(ptrs, bits, off, lastOff Register, bswap VecVirtual, w Mem, row int, scratch Mem),
	store func(st *[8]VecVirtual, bswap VecVirtual, bs *transpose.BatchStream),
) {
	const row = 32
	w := stack.Aligned(rounds*row + 8*row + 32)
	saved := w.Offset(rounds * row)
	scratch := saved.Offset(8 * row)
	bs := transpose.NewBatchStream(name, lanes, 16*ws.Bytes)
	initState := func() {
		iv := Load(Param("iv"), GP64())
		for i := range 8 {
			x := YMM()
			ws.broadcast(Mem{Base: iv, Disp: ws.Bytes * i}, x)
			ws.Load(x, saved.Offset(row*i))
		}
	}
	initState()
	loop := name + "_loop"
	Label(loop)
	bswap := YMM()
	ws.Load(bswapMask, bswap)
	load(bs.Ptrs, bs.Bits, bs.Off, bs.LastOff(), bswap, w, row, scratch)
	ws.blockAVX2(name, rounds, w, saved, consts)
	bs.IfLast(func() {
		var st [8]VecVirtual
		for i := range 8 {
			st[i] = YMM()
			ws.Load(saved.Offset(row*i), st[i])
		}
		bswap := YMM()
		ws.Load(bswapMask, bswap)
		store(&st, bswap, bs)
		initState()
	})
	bs.Next()
	bs.Advance(loop)
	VZEROUPPER()
	RET()
}
