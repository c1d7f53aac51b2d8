// Shared by the algorithms on the engine: the kernels a level runs and the
// standard library's marshalled form of a state, whatever its word size.

package hashlanes

import (
	"encoding/binary"
	"unsafe"

	"github.com/hashlanes/hashlanes/internal/cpu"
	"github.com/hashlanes/hashlanes/internal/engine"
	"github.com/hashlanes/hashlanes/internal/kernel"
)

// kernelsAt lists the kernels that run at level l: the best
// single-stream kernel the level allows, and every multi-lane and batch
// kernel it allows but the pure-Go reference. Which of them a round runs
// is the tuning's choice.
func kernelsAt[S any](singles []kernel.Single[S], multis []kernel.Multi[S], batches []kernel.Batch, l cpu.Level) engine.Kernels[S] {
	var k engine.Kernels[S]
	k.Single, _ = kernel.Best(singles, l)
	for _, m := range multis {
		if !m.Reference && m.Usable(l) {
			k.Multi = append(k.Multi, m)
		}
	}
	for _, b := range batches {
		if b.Usable(l) {
			k.Batch = append(k.Batch, b)
		}
	}
	return k
}

// appendWordsBE appends a state's words big-endian, the standard
// library's marshalled form.
func appendWordsBE[W kernel.Word, S any](b []byte, s *S) []byte {
	for _, w := range kernel.Words[W](s) {
		if unsafe.Sizeof(w) == 8 {
			b = binary.BigEndian.AppendUint64(b, uint64(w))
		} else {
			b = binary.BigEndian.AppendUint32(b, uint32(w))
		}
	}
	return b
}

func readWordsBE[W kernel.Word, S any](b []byte, s *S) []byte {
	w := kernel.Words[W](s)
	size := int(unsafe.Sizeof(W(0)))
	for i := range w {
		if size == 8 {
			w[i] = W(binary.BigEndian.Uint64(b[8*i:]))
		} else {
			w[i] = W(binary.BigEndian.Uint32(b[4*i:]))
		}
	}
	return b[size*len(w):]
}

// digestBE is the digest of the SHA family: the state's first size bytes,
// big-endian, which for SHA-224 and SHA-512/224 ends inside a word. It
// writes no byte past them, as SumMany writes digests in place.
func digestBE[W kernel.Word, S any](size int) func(b []byte, s *S) []byte {
	return func(b []byte, s *S) []byte {
		var buf [64]byte
		return append(b, appendWordsBE[W](buf[:0], s)[:size]...)
	}
}
