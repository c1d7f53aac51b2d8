// Shared by the algorithms on the engine: kernel choice and the
// standard library's marshalled form of a state, whatever its word size.

package hashlanes

import (
	"encoding/binary"
	"unsafe"

	"github.com/hashlanes/hashlanes/internal/cpu"
	"github.com/hashlanes/hashlanes/internal/engine"
	"github.com/hashlanes/hashlanes/internal/kernel"
)

// rateTable is the kernels' throughputs in MB/s, all lanes busy, on each
// microarchitecture they were measured on.
type rateTable map[cpu.Microarch]map[string]float64

// fillTable is, on each microarchitecture measured, the share of a
// multi-lane kernel's rate it moves with n of its lanes busy
// (engine.Rated.Fill), as scripts/crossover prints it.
type fillTable map[cpu.Microarch]map[string]map[int]float64

// kernelsFor picks, for level l, the best single-stream kernel and the best
// multi-lane kernel of each width, with their rates and fills measured on
// microarchitecture m. A multi-lane kernel with no rate on m was not
// measured there, and is left out: what ranks first on one design need not
// on another (SHA-NI x4 is 1.5x x2 for SHA-1 on Zen 3, but on Zen 4 two
// streams already fill the SHA unit).
func kernelsFor[S any](singles []kernel.Single[S], multis []kernel.Multi[S], table rateTable, fills fillTable, l cpu.Level, m cpu.Microarch) engine.Kernels[S] {
	rates, fill := table[m], fills[m]
	var k engine.Kernels[S]
	k.Single, _ = kernel.Best(singles, l)
	k.SingleRate = rates[k.Single.Name]
	for _, m := range multis { // slowest first: a later kernel of the same width replaces an earlier one
		if _, measured := rates[m.Name]; m.Reference || !m.Usable(l) || !measured {
			continue
		}
		r := engine.Rated[S]{Multi: m, Rate: rates[m.Name], Fill: fill[m.Name]}
		if n := len(k.Multi); n > 0 && k.Multi[n-1].Lanes == m.Lanes {
			k.Multi[n-1] = r
		} else {
			k.Multi = append(k.Multi, r)
		}
	}
	return k
}

// withBatches adds to k the batch kernels that run at level l. Of two of
// the same width, listed slowest first, the later replaces the earlier
// only where the block kernel of its name has a rate on m: the batch
// kernels run the block kernels' rounds (zmmx16's in 512-bit forms, run
// only where those were measured faster).
func withBatches[S any](k engine.Kernels[S], batches []kernel.Batch, l cpu.Level, rates rateTable, m cpu.Microarch) engine.Kernels[S] {
	for _, b := range batches {
		if !b.Usable(l) {
			continue
		}
		if n := len(k.Batch); n > 0 && k.Batch[n-1].Lanes == b.Lanes {
			if _, measured := rates[m][b.Name]; measured {
				k.Batch[n-1] = b
			}
			continue
		}
		k.Batch = append(k.Batch, b)
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
