// Package sha1 holds the SHA-1 block functions: a pure-Go reference for one
// stream and for lanes; on amd64 SHA-NI kernels for one stream and for
// two interleaved, and lane kernels that hash 8 streams at once with AVX2
// or 16 with AVX-512; on arm64 two and three streams interleaved on the
// crypto extensions.
package sha1

import (
	"github.com/hashlanes/hashlanes/internal/kernel"
)

//go:generate go run -C ../_asm ./sha1arm64 -out ../sha1/sha1block_arm64.s -stubs ../sha1/sha1block_arm64_stubs.go -lanes ../sha1/sha1block_lanes_arm64.go

const (
	BlockSize = 64
	Size      = 20
	maxBlocks = kernel.MaxLaneBytes / BlockSize
)

// State is the chaining value of one stream, h0..h4.
type State [5]uint32

// Init is the initial chaining value (FIPS 180-4, 5.3.1).
var Init = State{0x67452301, 0xefcdab89, 0x98badcfe, 0x10325476, 0xc3d2e1f0}

// zeroLanes is what masked-out lanes of an assembly kernel read.
var zeroLanes [kernel.MaxLaneBytes]byte

// Singles lists every single-stream implementation built, slowest first.
// The lists are made on each call, not held from the package's start: a
// process that links the package but serves another algorithm runs none
// of it (docs/engine.md, "Start-up").
func Singles() []kernel.Single[State] { return singles() }

// Multis lists every multi-lane implementation built, slowest first; the
// generic one is the reference.
func Multis() []kernel.Multi[State] { return multis() }

// Batches lists the batch kernels built for this GOARCH, narrowest first.
// It takes the spec, as the SHA-2 packages' does (their batches are set up
// for one of several algorithms), so that the four are called alike;
// there is one spec here.
func Batches(*kernel.Spec[State]) []kernel.Batch { return batches }

// generic is the pure-Go reference in lanes, the kernel the others are
// pinned to.
func generic() kernel.Multi[State] { return kernel.Reference(blockGeneric, BlockSize) }
