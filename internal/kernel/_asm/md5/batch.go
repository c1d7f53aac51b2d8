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
	TEXT(name, 0, transpose.BatchSignature)
	Pragma("noescape")
	Doc(transpose.BatchDoc(name, lanes, 16))
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
		func(buf reg.Register, pipe *transpose.Deferred) { hashBlock(sh, st, saved, kt, buf, row, pipe) },
		func() { // the lane-full's digests, and the next one's start
			storeDigests(sh, st, bs)
			initState()
		})
	VZEROUPPER()
	RET()
}

var padding = transpose.NewPadding("md5", 64, 8, false)

// storeDigests writes a lane-full's digests: a 4x8 transpose of each
// group's state words, then one 16-byte store a lane.
func storeDigests(sh shape, st [][4]reg.VecVirtual, bs *transpose.BatchStream) {
	var u [4]reg.VecVirtual // u[k]: lane k, then lane 4+k of the group
	var hi []reg.VecVirtual // a ZMM group's upper 8 lanes
	bs.StoreDigests(16, 8, func(g int) {
		var words []reg.VecVirtual
		switch {
		case !sh.wide:
			words = st[g][:]
		case g%2 == 0:
			words, hi = transpose.Halves(st[g/2][:])
		default:
			words = hi
		}
		u = transpose.Lanes4x8(words[0], words[1], words[2], words[3])
	}, func(lane int, dst Mem) {
		if j := lane % 8; j < 4 {
			VMOVDQU32(u[j].AsX(), dst)
		} else {
			VEXTRACTI32X4(U8(1), u[j-4], dst)
		}
	})
}
