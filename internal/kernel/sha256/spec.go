package sha256

import (
	"crypto/sha256"
	"hash"

	"github.com/hashlanes/hashlanes/internal/kernel"
)

// Spec256 and Spec224 are SHA-256 and SHA-224 (FIPS 180-4): one block
// function, two initial values, SHA-224 keeping the first 28 bytes.
var (
	Spec256 = spec("sha256", 32, Init256, "sha\x03", sha256.New)
	Spec224 = spec("sha224", 28, Init224, "sha\x02", sha256.New224)
)

func spec(name string, size int, init State, magic string, lib func() hash.Hash) *kernel.Spec[State] {
	return &kernel.Spec[State]{
		Name: name, Size: size, BlockSize: BlockSize, Init: init, LenBytes: 8, BigEndian: true,
		AppendDigest: kernel.DigestBE[uint32, State](size),
		Magic:        magic,
		AppendState:  kernel.AppendWordsBE[uint32, State],
		ReadState:    kernel.ReadWordsBE[uint32, State],
		Lib:          lib,
	}
}
