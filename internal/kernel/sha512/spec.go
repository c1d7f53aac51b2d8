package sha512

import (
	"crypto/sha512"
	"hash"

	"github.com/hashlanes/hashlanes/internal/kernel"
)

// The algorithms of the SHA-512 block function (FIPS 180-4): four initial
// values and digest lengths, a 128-bit length field.
var (
	Spec512     = spec("sha512", 64, Init512, "sha\x07", sha512.New)
	Spec384     = spec("sha384", 48, Init384, "sha\x04", sha512.New384)
	Spec512_224 = spec("sha512-224", 28, Init512_224, "sha\x05", sha512.New512_224)
	Spec512_256 = spec("sha512-256", 32, Init512_256, "sha\x06", sha512.New512_256)
)

func spec(name string, size int, init State, magic string, lib func() hash.Hash) *kernel.Spec[State] {
	return &kernel.Spec[State]{
		Name: name, Size: size, BlockSize: BlockSize, Init: init, LenBytes: 16, BigEndian: true,
		AppendDigest: kernel.DigestBE[uint64, State](size),
		Magic:        magic,
		AppendState:  kernel.AppendWordsBE[uint64, State],
		ReadState:    kernel.ReadWordsBE[uint64, State],
		Lib:          lib,
	}
}
