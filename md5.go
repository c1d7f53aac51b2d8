package hashlanes

import (
	"encoding/binary"

	"github.com/hashlanes/hashlanes/internal/cpu"
	"github.com/hashlanes/hashlanes/internal/engine"
	"github.com/hashlanes/hashlanes/internal/kernel"
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
	Magic: "md5\x01",
	AppendState: func(b []byte, s *md5.State) []byte {
		for _, w := range s {
			b = binary.BigEndian.AppendUint32(b, w)
		}
		return b
	},
	ReadState: func(b []byte, s *md5.State) []byte {
		for i := range s {
			s[i] = binary.BigEndian.Uint32(b[4*i:])
		}
		return b[4*len(s):]
	},
}

// md5Kernels picks the kernels for level l.
//
// Crossover, measured with BenchmarkKernel in internal/kernel/md5 on AMD
// Zen 4 (3.7 GHz): the scalar kernel hashes 810 MB/s; avx512x16 10.0 GB/s
// and avx2x16 7.8 GB/s with all 16 lanes busy, so with k lanes busy they
// move k/16 of that: 1.25 and 0.98 GB/s at k=2. Two ready streams already
// favour the lanes.
func md5Kernels(l cpu.Level) engine.Kernels[md5.State] {
	k := engine.Kernels[md5.State]{MinLanes: 2}
	k.Single, _ = kernel.Best(md5.Singles(), l)
	if m, ok := kernel.Best(md5.Multis(), l); ok && m.Level > cpu.Generic {
		k.Multi = m
	}
	return k
}
