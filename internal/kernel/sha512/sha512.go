// Package sha512 holds the block functions of SHA-512 and the hashes cut
// from it (SHA-384, SHA-512/224, SHA-512/256): a pure-Go reference for one
// stream and for lanes; on amd64 a single-stream kernel (its message
// schedule in AVX2 or AVX-512 registers) and lane kernels that hash 4
// streams at once with AVX2 or 8 with AVX-512; on arm64 two streams
// interleaved on the SHA-512 instructions.
package sha512

import (
	"github.com/hashlanes/hashlanes/internal/kernel"
)

//go:generate go run -C ../_asm ./sha512arm64 -out ../sha512/sha512block_arm64.s -stubs ../sha512/sha512block_arm64_stubs.go -lanes ../sha512/sha512block_lanes_arm64.go

const (
	BlockSize = 128
	maxBlocks = kernel.MaxLaneBytes / BlockSize
)

// State is the chaining value of one stream, a..h.
type State [8]uint64

// Initial chaining values (FIPS 180-4, 5.3.5, 5.3.4 and 5.3.6).
var (
	Init512 = State{0x6a09e667f3bcc908, 0xbb67ae8584caa73b, 0x3c6ef372fe94f82b, 0xa54ff53a5f1d36f1,
		0x510e527fade682d1, 0x9b05688c2b3e6c1f, 0x1f83d9abfb41bd6b, 0x5be0cd19137e2179}
	Init384 = State{0xcbbb9d5dc1059ed8, 0x629a292a367cd507, 0x9159015a3070dd17, 0x152fecd8f70e5939,
		0x67332667ffc00b31, 0x8eb44a8768581511, 0xdb0c2e0d64f98fa7, 0x47b5481dbefa4fa4}
	Init512_224 = State{0x8c3d37c819544da2, 0x73e1996689dcd4d6, 0x1dfab7ae32ff9c82, 0x679dd514582f9fcf,
		0x0f6d2b697bd44da8, 0x77e36f7304c48942, 0x3f9d85a86a1d36c8, 0x1112e6ad91d692a1}
	Init512_256 = State{0x22312194fc2bf72c, 0x9f555fa3c84c64c2, 0x2393b86b6f53b151, 0x963877195940eabd,
		0x96283ee2a88effe3, 0xbe5e1e2553863992, 0x2b0199fc2c85b8aa, 0x0eb72ddc81c52ca2}
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
// for sp, one of the package's Specs (SHA-384, SHA-512 and SHA-512/t): the batch
// kernels start from its initial value and keep its digest's bytes.
func Batches(sp *kernel.Spec[State]) []kernel.Batch { return batches(&sp.Init, sp.Size) }

// generic is the pure-Go reference in lanes, the kernel the others are
// pinned to.
func generic() kernel.Multi[State] { return kernel.Reference(blockGeneric, BlockSize) }
