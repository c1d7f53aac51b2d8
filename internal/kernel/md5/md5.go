// Package md5 holds the MD5 block functions: a pure-Go reference for one
// stream and for lanes; on amd64 scalar kernels for one stream and for two
// interleaved, plus AVX2 and AVX-512 kernels that hash 16 or 32 streams at
// once; on arm64 NEON kernels for 4 to 16 streams.
package md5

import (
	"github.com/hashlanes/hashlanes/internal/kernel"
)

// The arm64 kernels' generator writes Plan 9 text itself (avo writes amd64
// only); the directive is here, in a file every GOARCH builds, so that go
// generate on any machine writes them.
//go:generate go run -C ../_asm ./md5arm64 -out ../md5/md5block_arm64.s -stubs ../md5/md5block_arm64_stubs.go -lanes ../md5/md5block_lanes_arm64.go

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
// slowest first. The lists are made on each call, not held from the
// package's start: a process that links the package but serves another
// algorithm runs none of it (docs/engine.md, "Start-up").
func Singles() []kernel.Single[State] { return singles() }

// Multis lists every multi-lane implementation built for this GOARCH,
// slowest first. The generic one is the reference the others are pinned to.
func Multis() []kernel.Multi[State] { return multis() }

// Batches lists the batch kernels built for this GOARCH, narrowest first.
// It takes the spec, as the SHA-2 packages' does (their batches are set up
// for one of several algorithms), so that the four are called alike;
// there is one spec here.
func Batches(*kernel.Spec[State]) []kernel.Batch { return batches }

// generic is the pure-Go reference in lanes, the kernel the others are
// pinned to.
func generic() kernel.Multi[State] { return kernel.Reference(blockGeneric, BlockSize) }
