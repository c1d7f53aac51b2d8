package hashlanes

import (
	"github.com/hashlanes/hashlanes/internal/cpu"
	"github.com/hashlanes/hashlanes/internal/engine"
	"github.com/hashlanes/hashlanes/internal/kernel/sha1"
)

var sha1Spec = &engine.Spec[sha1.State]{
	Name: "sha1", Size: 20, BlockSize: sha1.BlockSize, Init: sha1.Init, LenBytes: 8, BigEndian: true,
	AppendDigest: digestBE[uint32, sha1.State](20),
	Magic:        "sha\x01",
	AppendState:  appendWordsBE[uint32, sha1.State],
	ReadState:    readWordsBE[uint32, sha1.State],
}

// sha1Family is the SHA-1 kernels as the engines measure them.
var sha1Family = newFamily("sha1", sha1.BlockSize, sha1.Singles(), sha1.Multis())

// sha1Kernels lists the kernels that run at level l.
func sha1Kernels(l cpu.Level) engine.Kernels[sha1.State] {
	return kernelsAt(sha1.Singles(), sha1.Multis(), sha1.Batches(), l)
}
