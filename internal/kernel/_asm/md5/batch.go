package main

// The batch kernels of SumMany: whole messages a call, padded and
// finished in lanes.

import (
	"github.com/hashlanes/hashlanes/internal/kernel/_asm/stack"
	"github.com/hashlanes/hashlanes/internal/kernel/_asm/transpose"
	. "github.com/mmcloughlin/avo/build"
	. "github.com/mmcloughlin/avo/operand"
	"github.com/mmcloughlin/avo/reg"
)

// batchAVX512 is the batch kernel: rounds of 8*groups lanes, each round a
// lane-full of whole messages of nblocks blocks, padded as they are
// loaded, from the initial value to digests stored in place. Successive
// rounds form one stream of blocks, so the next block's transpose is
// spread through this one's steps across round boundaries too: a round of
// one-block messages costs its steps, not its steps plus an exposed
// transpose.
func batchAVX512(sh shape) {
	groups, lanes := sh.groups, sh.lanes()
	name := sh.name("sum")
	transpose.DeclareBatch(name, lanes, 16)
	row := 4 * lanes
	bufs := stack.Aligned(2*16*row + 4*row)
	saved := bufs.Offset(2 * 16 * row)
	bs := transpose.NewBatchStream(name, lanes, 64)
	kt := GP64()
	LEAQ(scalarConsts(), kt)

	st := make([][4]reg.VecVirtual, groups)
	for g := range groups {
		for w := range 4 {
			st[g][w] = sh.vec()
		}
	}
	initState := func() {
		for g := range groups {
			for w := range 4 {
				VPBROADCASTD(initValue().Offset(4*w), st[g][w])
			}
		}
	}
	// message queues the padded block into buf, in groups of 8 lanes
	// whatever the rounds' width: a ZMM group's word is two of them side
	// by side.
	message := func(d *transpose.Deferred, ptrs, bits, off, buf reg.Register) {
		padding.DeferLoads(d, lanes/8, ptrs, bits, off, func(g, h, j int, r reg.VecVirtual) {
			VMOVDQU32(r, Mem{Base: buf, Disp: row*(8*h+j) + 32*g})
		})
	}
	initState()
	bs.Pipelined(bufs, 16*row, message,
		func(buf reg.Register, pipe *transpose.Deferred) { hashBlock(sh, st, saved, kt, buf, row, pipe, nil) },
		func() { // the lane-full's digests, and the next one's start
			storeDigests(bs, true, stateWords(sh, st))
			initState()
		})
	VZEROUPPER()
	RET()
}

// batchAVX2 is the batch kernel of the AVX2 lanes: 16 lanes a round as
// two groups of 8, the lane-fulls of whole messages of nblocks blocks one
// after another, each block's rows padded as they load (RowAVX2) and
// transposed into a stack buffer before its steps, as blockAVX2x16 does;
// from the initial value to digests stored in place. It saves SumMany
// staging each message whole with its padding, and moving the lanes'
// states into the kernel's layout and out again around each call.
func batchAVX2() {
	const lanes = 16
	name := "sumAVX2x16"
	transpose.DeclareBatch(name, lanes, 16)
	msg := stack.Aligned(16*2*32 + 4*2*32 + 32) // word j of group g at (2j+g)*32
	saved := msg.Offset(16 * 2 * 32)
	scratch := saved.Offset(4 * 2 * 32)
	bs := transpose.NewBatchStream(name, lanes, 64)
	initState := func() {
		for w := range 4 {
			t := YMM()
			VPBROADCASTD(initValue().Offset(4*w), t)
			for g := range 2 {
				VMOVDQU(t, saved.Offset(32*(2*w+g)))
			}
		}
	}
	initState()
	loop := name + "_loop"
	Label(loop)
	for g := range 2 {
		for h := range 2 {
			transpose.Rows8x8(func(i int, r reg.VecVirtual) {
				padding.RowAVX2(bs.Ptrs, bs.Bits, bs.Off, bs.LastOff(), 8*g+i, 32*h, scratch, r)
			}, func(j int, r reg.VecVirtual) {
				VMOVDQU(r, msg.Offset(32*(2*(8*h+j)+g)))
			})
		}
	}
	kt := GP64()
	LEAQ(broadcastConsts(), kt)
	blockStepsAVX2(msg, saved, kt, nil)
	bs.IfLast(func() {
		storeDigests(bs, false, func(g int) []reg.VecVirtual {
			words := make([]reg.VecVirtual, 4)
			for w := range words {
				words[w] = YMM()
				VMOVDQU(saved.Offset(32*(2*w+g)), words[w])
			}
			return words
		})
		initState()
	})
	bs.Next()
	bs.Advance(loop)
	VZEROUPPER()
	RET()
}

var padding = transpose.NewPadding("md5", 64, 8, false)

// storeDigests writes a lane-full's digests: a 4x8 transpose of each
// group of 8 lanes' state words (words(g), in YMM registers), then one
// 16-byte store a lane, in EVEX forms or, for AVX2 kernels, VEX ones.
func storeDigests(bs *transpose.BatchStream, evex bool, words func(g int) []reg.VecVirtual) {
	var u [4]reg.VecVirtual // u[k]: lane k, then lane 4+k of the group
	bs.StoreDigests(16, 8, func(g int) {
		w := words(g)
		u = transpose.Lanes4x8(w[0], w[1], w[2], w[3])
	}, func(lane int, dst Mem) {
		j := lane % 8
		switch {
		case j < 4 && evex:
			VMOVDQU32(u[j].AsX(), dst)
		case j < 4:
			VMOVDQU(u[j].AsX(), dst)
		case evex:
			VEXTRACTI32X4(U8(1), u[j-4], dst)
		default:
			VEXTRACTI128(U8(1), u[j-4], dst)
		}
	})
}

// stateWords is storeDigests' words for the AVX-512 kernels' state st:
// a YMM group's words, or a ZMM group's as two groups of 8 lanes.
func stateWords(sh shape, st [][4]reg.VecVirtual) func(g int) []reg.VecVirtual {
	var hi []reg.VecVirtual // a ZMM group's upper 8 lanes
	return func(g int) []reg.VecVirtual {
		var words []reg.VecVirtual
		switch {
		case !sh.wide:
			words = st[g][:]
		case g%2 == 0:
			words, hi = transpose.Halves(st[g/2][:])
		default:
			words = hi
		}
		return words
	}
}
