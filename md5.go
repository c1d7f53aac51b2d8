package hashlanes

import (
	"encoding/binary"

	"github.com/hashlanes/hashlanes/internal/cpu"
	"github.com/hashlanes/hashlanes/internal/engine"
	"github.com/hashlanes/hashlanes/internal/kernel/md5"
)

var md5Spec = &engine.Spec[md5.State]{
	Name: "md5", Size: md5.Size, BlockSize: md5.BlockSize, Init: md5.Init, LenBytes: 8,
	AppendDigest: func(b []byte, s *md5.State) []byte {
		for _, w := range s {
			b = binary.LittleEndian.AppendUint32(b, w)
		}
		return b
	},
	Magic:       "md5\x01",
	AppendState: appendWordsBE[uint32, md5.State],
	ReadState:   readWordsBE[uint32, md5.State],
}

// md5Family is the MD5 kernels as the engines measure them.
var md5Family = newFamily("md5", md5.BlockSize, md5.Singles(), md5.Multis())

// md5Kernels lists the kernels that run at level l.
func md5Kernels(l cpu.Level) engine.Kernels[md5.State] {
	return kernelsAt(md5.Singles(), md5.Multis(), md5.Batches(), l)
}
