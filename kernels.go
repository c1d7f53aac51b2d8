// Shared by the algorithms on the engine: kernel choice and the
// standard library's marshalled form of a state of 32-bit words.

package hashlanes

import (
	"encoding/binary"
	"unsafe"

	"github.com/hashlanes/hashlanes/internal/cpu"
	"github.com/hashlanes/hashlanes/internal/engine"
	"github.com/hashlanes/hashlanes/internal/kernel"
)

// kernelsFor picks, for level l, the best single-stream kernel and the best
// multi-lane kernel of each width, with their measured rates.
func kernelsFor[S any](singles []kernel.Single[S], multis []kernel.Multi[S], rates map[string]float64, l cpu.Level) engine.Kernels[S] {
	var k engine.Kernels[S]
	k.Single, _ = kernel.Best(singles, l)
	k.SingleRate = rates[k.Single.Name]
	for _, m := range multis { // slowest first: a later kernel of the same width replaces an earlier one
		if m.Reference || !m.Usable(l) {
			continue
		}
		r := engine.Rated[S]{Multi: m, Rate: rates[m.Name]}
		if n := len(k.Multi); n > 0 && k.Multi[n-1].Lanes == m.Lanes {
			k.Multi[n-1] = r
		} else {
			k.Multi = append(k.Multi, r)
		}
	}
	return k
}

// words32 views a state of 32-bit words as a slice.
func words32[S any](s *S) []uint32 {
	return unsafe.Slice((*uint32)(unsafe.Pointer(s)), unsafe.Sizeof(*s)/4)
}

// appendWords32BE appends a state of 32-bit words big-endian, the standard
// library's marshalled form.
func appendWords32BE[S any](b []byte, s *S) []byte {
	for _, w := range words32(s) {
		b = binary.BigEndian.AppendUint32(b, w)
	}
	return b
}

func readWords32BE[S any](b []byte, s *S) []byte {
	w := words32(s)
	for i := range w {
		w[i] = binary.BigEndian.Uint32(b[4*i:])
	}
	return b[4*len(w):]
}
