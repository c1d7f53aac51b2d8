package hashlanes

import (
	"github.com/hashlanes/hashlanes/internal/cpu"
	"github.com/hashlanes/hashlanes/internal/engine"
	"github.com/hashlanes/hashlanes/internal/kernel/sha256"
)

func sha256Spec(name string, size int, init sha256.State, magic string) *engine.Spec[sha256.State] {
	return &engine.Spec[sha256.State]{
		Name: name, Size: size, BlockSize: sha256.BlockSize, Init: init, LenBytes: 8, BigEndian: true,
		AppendDigest: digestBE[uint32, sha256.State](size),
		Magic:        magic,
		AppendState:  appendWordsBE[uint32, sha256.State],
		ReadState:    readWordsBE[uint32, sha256.State],
	}
}

var (
	sha256Spec256 = sha256Spec("sha256", 32, sha256.Init256, "sha\x03")
	sha256Spec224 = sha256Spec("sha224", 28, sha256.Init224, "sha\x02")
)

// sha256Family is the SHA-224 and SHA-256 kernels as the engines
// measure them.
var sha256Family = newFamily("sha256", sha256.BlockSize, sha256.Singles(), sha256.Multis())

// sha256Kernels lists the kernels that run at level l, with the batch
// kernels set up for spec's algorithm (its initial value and digest size).
func sha256Kernels(spec *engine.Spec[sha256.State], l cpu.Level) engine.Kernels[sha256.State] {
	return kernelsAt(sha256.Singles(), sha256.Multis(), sha256.Batches(&spec.Init, spec.Size), l)
}
