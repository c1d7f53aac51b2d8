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

// sha1Rates are the kernels' throughputs in MB/s on AMD Zen 4, from
// BenchmarkKernel in internal/kernel/sha1 (medians of 3):
//
//	kernel    lanes  MB/s   with b streams ready
//	shani       1    1920   1920 whatever b (crypto/sha1 also uses SHA-NI)
//	shanix2     2    3410   3410 from b = 2
var sha1Rates = map[string]float64{"generic": 450, "shani": 1920, "shanix2": 3410}

func sha1Kernels(l cpu.Level) engine.Kernels[sha1.State] {
	return kernelsFor(sha1.Singles(), sha1.Multis(), sha1Rates, l)
}
