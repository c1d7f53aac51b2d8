package sha256

import (
	"crypto/sha256"

	"github.com/hashlanes/hashlanes/internal/kernel"
)

// Spec256 and Spec224 are SHA-256 and SHA-224 (FIPS 180-4): one block
// function, two initial values, SHA-224 keeping the first 28 bytes. Each
// is static data: a process that links the package runs no code for them.
var (
	Spec256 = kernel.Spec[State]{Name: "sha256", Size: 32, Init: Init256, Magic: "sha\x03", Lib: sha256.New,
		AppendDigest: kernel.AppendWordsBE[uint32, State], // the whole state
		BlockSize:    BlockSize, LenBytes: 8, BigEndian: true, AppendState: appendState, ReadState: readState}
	Spec224 = kernel.Spec[State]{Name: "sha224", Size: 28, Init: Init224, Magic: "sha\x02", Lib: sha256.New224,
		AppendDigest: func(b []byte, s *State) []byte { return kernel.DigestBE[uint32](b, s, 28) },
		BlockSize:    BlockSize, LenBytes: 8, BigEndian: true, AppendState: appendState, ReadState: readState}
)

var (
	appendState = kernel.AppendWordsBE[uint32, State]
	readState   = kernel.ReadWordsBE[uint32, State]
)
