//go:build !purego

package sha1

import (
	"github.com/hashlanes/hashlanes/internal/cpu"
	"github.com/hashlanes/hashlanes/internal/kernel"
)

//go:generate go run -C ../_asm ./sha1 -out ../sha1/sha1block_amd64.s -stubs ../sha1/sha1block_amd64_stubs.go -pkg sha1

var singles = []kernel.Single[State]{
	{Name: "generic", Level: cpu.Generic, Fn: blockGeneric},
	{Name: "shani", Level: cpu.Generic, Needs: cpu.SHA, Fn: blockSHANIState},
}

var multis = []kernel.Multi[State]{
	generic,
	{Name: "shanix2", Level: cpu.Generic, Needs: cpu.SHA, Lanes: 2, Fn: blocksSHANIx2},
}

func blockSHANIState(s *State, p []byte) { blockSHANI((*[5]uint32)(s), p) }

func blocksSHANIx2(states *[kernel.MaxLanes]*State, ptrs *[kernel.MaxLanes]*byte, mask uint32, nblocks int) {
	var ls [2][8]uint32 // a state of 5 words in a row of 8, so that 16-byte loads stay inside
	var p [2]*byte
	if nblocks <= 0 || mask&3 == 0 {
		return
	}
	if nblocks > maxBlocks {
		panic("sha1: too many blocks for one kernel call")
	}
	for i := range 2 {
		if mask&(1<<i) != 0 {
			copy(ls[i][:5], states[i][:])
			p[i] = ptrs[i]
		} else {
			p[i] = &zeroLanes[0]
		}
	}
	blockSHANIx2(&ls, &p, nblocks)
	for i := range 2 {
		if mask&(1<<i) != 0 {
			copy(states[i][:], ls[i][:5])
		}
	}
}
