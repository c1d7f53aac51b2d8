// Package md5 holds the MD5 block functions: a pure-Go reference for one
// stream and for lanes, and on amd64 a scalar kernel for a lone stream plus
// AVX2 and AVX-512 kernels that hash 16 streams at once.
package md5

import (
	"unsafe"

	"github.com/hashlanes/hashlanes/internal/cpu"
	"github.com/hashlanes/hashlanes/internal/kernel"
)

const (
	BlockSize = 64
	Size      = 16
	maxBlocks = kernel.MaxLaneBytes / BlockSize
)

// State is the chaining value of one MD5 stream.
type State [4]uint32

// Init is the initial chaining value (RFC 1321, 3.3).
var Init = State{0x67452301, 0xefcdab89, 0x98badcfe, 0x10325476}

// zeroLanes is what masked-out lanes of an assembly kernel read, so that the
// kernel can load all 16 lanes without a branch and never touches memory it
// was not given.
var zeroLanes [kernel.MaxLaneBytes]byte

// Singles lists every single-stream implementation built for this GOARCH,
// slowest first.
func Singles() []kernel.Single[State] { return singles }

// Multis lists every multi-lane implementation built for this GOARCH,
// slowest first. The generic one is the reference the others are pinned to.
func Multis() []kernel.Multi[State] { return multis }

var generic = kernel.Multi[State]{Name: "generic", Level: cpu.Generic, Lanes: kernel.MaxLanes, Fn: blocksGeneric}

// toLanes copies the masked lanes' states into ls, the lane-major layout
// the assembly kernels work in (word w of lane i at ls[w*len(p)+i]), and
// points masked-out lanes at zeroLanes. It reports false when there is
// nothing to do.
func toLanes(ls []uint32, p []*byte, states *[kernel.MaxLanes]*State, ptrs *[kernel.MaxLanes]*byte, mask uint32, nblocks int) bool {
	lanes := len(p)
	if nblocks <= 0 || mask&(1<<lanes-1) == 0 {
		return false
	}
	if nblocks > maxBlocks {
		panic("md5: too many blocks for one kernel call")
	}
	for i := range lanes {
		if mask&(1<<i) == 0 {
			p[i] = &zeroLanes[0]
			continue
		}
		s := states[i]
		ls[i], ls[lanes+i], ls[2*lanes+i], ls[3*lanes+i] = s[0], s[1], s[2], s[3]
		p[i] = ptrs[i]
	}
	return true
}

// fromLanes copies the masked lanes' states back.
func fromLanes(ls []uint32, lanes int, states *[kernel.MaxLanes]*State, mask uint32) {
	for i := range lanes {
		if mask&(1<<i) != 0 {
			*states[i] = State{ls[i], ls[lanes+i], ls[2*lanes+i], ls[3*lanes+i]}
		}
	}
}

// laneBytes is the slice view of one lane's input in the pure-Go kernels.
func laneBytes(p *byte, nblocks int) []byte { return unsafe.Slice(p, nblocks*BlockSize) }
