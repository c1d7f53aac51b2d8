package sha1

import (
	"crypto/sha1"

	"github.com/hashlanes/hashlanes/internal/kernel"
)

// Spec is SHA-1 (FIPS 180-4). Its digest is the whole state.
var Spec = kernel.Spec[State]{
	Name: "sha1", Size: Size, BlockSize: BlockSize, Init: Init, LenBytes: 8, BigEndian: true,
	AppendDigest: kernel.AppendWordsBE[uint32, State],
	Magic:        "sha\x01",
	AppendState:  kernel.AppendWordsBE[uint32, State],
	ReadState:    kernel.ReadWordsBE[uint32, State],
	Lib:          sha1.New,
}
