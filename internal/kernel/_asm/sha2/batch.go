package sha2

import (
	"fmt"

	"github.com/hashlanes/hashlanes/internal/kernel/_asm/transpose"
	. "github.com/mmcloughlin/avo/build"
	. "github.com/mmcloughlin/avo/operand"
	. "github.com/mmcloughlin/avo/reg"
)

// Batch emits a batch kernel (transpose.BatchSignature) on the rounds of
// Lanes: lane-fulls of two groups hashing whole messages from the initial
// value iv (8 words) to digests of size bytes stored in place. load writes
// a block's padded message words to w, byte-swapped, given the lane-full's
// message pointers and bit lengths (see transpose.Padding) and the block
// offset; store writes the digests of a lane-full given its final state,
// calling dst(lane, half) for where each lane's half digest goes (dst
// skips lanes that get no digest). Each block's message is loaded up
// front, as in Lanes.
func (ws Words) Batch(name string, lanes, size, rounds int, consts, bswapMask, iv Mem,
	load func(ptrs, bits, off Register, bswap VecVirtual, w Mem, row int),
	store func(st *[2][8]VecVirtual, bswap VecVirtual, dst func(lane, half int, emit func(Mem))),
) {
	const row = 64
	w := alignedLocal(rounds * row)
	saved := AllocLocal(8 * row)
	bs := transpose.NewBatchStream(name, lanes, 16*ws.Bytes)
	var st [2][8]VecVirtual
	for g := range 2 {
		for i := range 8 {
			st[g][i] = YMM()
		}
	}
	initState := func() {
		for g := range 2 {
			for i := range 8 {
				ws.broadcast(iv.Offset(ws.Bytes*i), st[g][i])
			}
		}
	}
	initState()
	loop := name + "_loop"
	Label(loop)
	bswap := YMM()
	ws.Load(bswapMask, bswap)
	load(bs.Ptrs, bs.Bits, bs.Off, bswap, w, row)
	for g := range 2 {
		for i := range 8 {
			ws.Load(st[g][i], saved.Offset(row*i+32*g))
		}
	}
	ws.rounds(name, rounds, row, w, consts, st[:], true)
	for g := range 2 {
		for i := range 8 {
			ws.Add(saved.Offset(row*i+32*g), st[g][i], st[g][i])
		}
	}
	bs.IfLast(func() {
		left, idx := bs.Round()
		out := Load(Param("out"), GP64())
		store(&st, bswap, func(lane, half int, emit func(Mem)) {
			skip := fmt.Sprintf("%s_skip%d_%d", name, lane, half)
			CMPQ(left, U32(lane))
			JLE(LabelRef(skip))
			at := GP64()
			MOVLQSX(Mem{Base: idx, Disp: 4 * lane}, at)
			SHLQ(U8(log2(size)), at)
			emit(Mem{Base: out, Index: at, Scale: 1, Disp: half * size / 2})
			Label(skip)
		})
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

func log2(n int) uint8 {
	k := uint8(0)
	for 1<<k < n {
		k++
	}
	return k
}
