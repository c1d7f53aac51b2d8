package hashlanes

import (
	"github.com/hashlanes/hashlanes/internal/cpu"
	"github.com/hashlanes/hashlanes/internal/engine"
	"github.com/hashlanes/hashlanes/internal/kernel/sha512"
)

func sha512Spec(name string, size int, init sha512.State, magic string) *engine.Spec[sha512.State] {
	return &engine.Spec[sha512.State]{
		Name: name, Size: size, BlockSize: sha512.BlockSize, Init: init, LenBytes: 16, BigEndian: true,
		AppendDigest: digestBE[uint64, sha512.State](size),
		Magic:        magic,
		AppendState:  appendWordsBE[uint64, sha512.State],
		ReadState:    readWordsBE[uint64, sha512.State],
	}
}

var (
	sha512Spec512    = sha512Spec("sha512", 64, sha512.Init512, "sha\x07")
	sha512Spec384    = sha512Spec("sha384", 48, sha512.Init384, "sha\x04")
	sha512Spec512224 = sha512Spec("sha512-224", 28, sha512.Init512_224, "sha\x05")
	sha512Spec512256 = sha512Spec("sha512-256", 32, sha512.Init512_256, "sha\x06")
)

// sha512Family is the SHA-384, SHA-512 and SHA-512/t kernels as the
// engines measure them.
var sha512Family = newFamily("sha512", sha512.BlockSize, sha512.Singles(), sha512.Multis())

// sha512Kernels lists the kernels that run at level l, with the batch
// kernels set up for spec's algorithm (its initial value and digest size).
func sha512Kernels(spec *engine.Spec[sha512.State], l cpu.Level) engine.Kernels[sha512.State] {
	return kernelsAt(sha512.Singles(), sha512.Multis(), sha512.Batches(&spec.Init, spec.Size), l)
}
