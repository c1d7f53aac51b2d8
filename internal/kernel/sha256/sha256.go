// Package sha256 holds the SHA-256 (and SHA-224) block functions: a pure-Go
// reference for one stream and for lanes; on amd64 a SHA-NI kernel for a
// lone stream and lane kernels that hash 8 streams at once with AVX2 or 16
// with AVX-512; on arm64 two and three streams interleaved on the crypto
// extensions.
package sha256

import (
	"github.com/hashlanes/hashlanes/internal/kernel"
)

// The arm64 kernels' generator writes Plan 9 text itself; the directive is
// here, in a file every GOARCH builds, so that go generate on any machine
// writes them.
//go:generate go run -C ../_asm ./sha256arm64 -out ../sha256/sha256block_arm64.s -stubs ../sha256/sha256block_arm64_stubs.go -lanes ../sha256/sha256block_lanes_arm64.go

const (
	BlockSize = 64
	maxBlocks = kernel.MaxLaneBytes / BlockSize
)

// State is the chaining value of one stream, a..h.
type State [8]uint32

// Initial chaining values (FIPS 180-4, 5.3.3 and 5.3.2).
var (
	Init256 = State{0x6a09e667, 0xbb67ae85, 0x3c6ef372, 0xa54ff53a, 0x510e527f, 0x9b05688c, 0x1f83d9ab, 0x5be0cd19}
	Init224 = State{0xc1059ed8, 0x367cd507, 0x3070dd17, 0xf70e5939, 0xffc00b31, 0x68581511, 0x64f98fa7, 0xbefa4fa4}
)

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

// Batches lists the batch kernels built for this GOARCH, narrowest first,
// for sp, one of the package's Specs (SHA-224 and SHA-256): the batch
// kernels start from its initial value and keep its digest's bytes.
func Batches(sp *kernel.Spec[State]) []kernel.Batch { return batches(&sp.Init, sp.Size) }

// generic is the pure-Go reference in lanes, the kernel the others are
// pinned to.
func generic() kernel.Multi[State] { return kernel.Reference(blockGeneric, BlockSize) }
