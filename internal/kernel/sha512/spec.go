package sha512

import (
	"crypto/sha512"

	"github.com/hashlanes/hashlanes/internal/kernel"
)

// The algorithms of the SHA-512 block function (FIPS 180-4): four initial
// values and digest lengths, a 128-bit length field. Each is static data:
// a process that links the package runs no code for them.
var (
	Spec512 = kernel.Spec[State]{Name: "sha512", Size: 64, Init: Init512, Magic: "sha\x07", Lib: sha512.New,
		AppendDigest: kernel.AppendWordsBE[uint64, State], // the whole state
		BlockSize:    BlockSize, LenBytes: 16, BigEndian: true, AppendState: appendState, ReadState: readState}
	Spec384 = kernel.Spec[State]{Name: "sha384", Size: 48, Init: Init384, Magic: "sha\x04", Lib: sha512.New384,
		AppendDigest: func(b []byte, s *State) []byte { return kernel.DigestBE[uint64](b, s, 48) },
		BlockSize:    BlockSize, LenBytes: 16, BigEndian: true, AppendState: appendState, ReadState: readState}
	Spec512_224 = kernel.Spec[State]{Name: "sha512-224", Size: 28, Init: Init512_224, Magic: "sha\x05", Lib: sha512.New512_224,
		AppendDigest: func(b []byte, s *State) []byte { return kernel.DigestBE[uint64](b, s, 28) },
		BlockSize:    BlockSize, LenBytes: 16, BigEndian: true, AppendState: appendState, ReadState: readState}
	Spec512_256 = kernel.Spec[State]{Name: "sha512-256", Size: 32, Init: Init512_256, Magic: "sha\x06", Lib: sha512.New512_256,
		AppendDigest: func(b []byte, s *State) []byte { return kernel.DigestBE[uint64](b, s, 32) },
		BlockSize:    BlockSize, LenBytes: 16, BigEndian: true, AppendState: appendState, ReadState: readState}
)

var (
	appendState = kernel.AppendWordsBE[uint64, State]
	readState   = kernel.ReadWordsBE[uint64, State]
)
