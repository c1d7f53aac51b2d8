package md5

import (
	"crypto/md5"
	"encoding/binary"

	"github.com/hashlanes/hashlanes/internal/kernel"
)

// Spec is MD5 (RFC 1321): a little-endian length field and digest.
var Spec = kernel.Spec[State]{
	Name: "md5", Size: Size, BlockSize: BlockSize, Init: Init, LenBytes: 8,
	AppendDigest: func(b []byte, s *State) []byte {
		for _, w := range s {
			b = binary.LittleEndian.AppendUint32(b, w)
		}
		return b
	},
	Magic:       "md5\x01",
	AppendState: kernel.AppendWordsBE[uint32, State],
	ReadState:   kernel.ReadWordsBE[uint32, State],
	Lib:         md5.New,
}
