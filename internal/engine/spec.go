package engine

import (
	"math/bits"

	"github.com/hashlanes/hashlanes/internal/kernel"
	"github.com/hashlanes/hashlanes/internal/tuning"
)

// maxBlockSize is the largest block of the algorithms the engine serves
// (SHA-512's 128 bytes).
const maxBlockSize = 128

// marshaledSize is the length of a state in the standard library's format:
// magic, chaining value, a whole block of buffered input, 64-bit length.
func marshaledSize[S any](sp *kernel.Spec[S]) int {
	var s S
	return len(sp.Magic) + len(sp.AppendState(nil, &s)) + sp.BlockSize + 8
}

// Kernels is what a Server runs: one single-stream kernel, any number of
// multi-lane ones, and batch kernels for short messages. Which one a round
// runs is the tuning's choice, by what each moves on this machine.
type Kernels[S any] struct {
	Single kernel.Single[S]
	Multi  []kernel.Multi[S]
	// Batch kernels, narrowest first; of two of one width, SumMany runs
	// the one whose block kernel of the same name moves more.
	Batch []kernel.Batch
}

// maxLanes is the widest multi-lane kernel's lane count, 0 if none.
func (k *Kernels[S]) maxLanes() int {
	n := 0
	for _, m := range k.Multi {
		n = max(n, m.Lanes)
	}
	return n
}

// minLanes is the narrowest multi-lane kernel's lane count, 0 if none.
func (k *Kernels[S]) minLanes() int {
	n := 0
	for _, m := range k.Multi {
		if n == 0 || m.Lanes < n {
			n = m.Lanes
		}
	}
	return n
}

// describe lists the kernels as the tuning knows them.
func (k *Kernels[S]) describe() (tuning.Kernel, []tuning.Kernel) {
	multi := make([]tuning.Kernel, len(k.Multi))
	for i, m := range k.Multi {
		multi[i] = tuning.Kernel{Name: m.Name, Lanes: m.Lanes, Fast: m.Fast, FastBlocks: m.FastBlocks}
	}
	return tuning.Kernel{Name: k.Single.Name, Lanes: 1}, multi
}

// batchFor returns the batch kernel of set for n messages: the narrowest
// that takes them all, else the widest.
func batchFor(set []kernel.Batch, n int) kernel.Batch {
	for _, b := range set {
		if b.Lanes >= n {
			return b
		}
	}
	return set[len(set)-1]
}

// pad writes the final block(s) of a message of total length n whose last
// n%BlockSize bytes are tail into dst and returns them.
func pad[S any](sp *kernel.Spec[S], dst *[2 * maxBlockSize]byte, tail []byte, n uint64) []byte {
	k := copy(dst[:], tail)
	return padAfter(sp, dst[:], k, n)
}

// padAfter pads buf, whose first k bytes end a message of total length n,
// and returns it up to the end of the padding.
func padAfter[S any](sp *kernel.Spec[S], buf []byte, k int, n uint64) []byte {
	total := paddedBlocks(k, sp.LenBytes, sp.BlockSize) * sp.BlockSize
	kernel.EndMessage(buf[:total-8], k)
	kernel.PutLength(buf[:total], n, sp.LenBytes, sp.BigEndian)
	return buf[:total]
}

// paddedBlocks is the number of blocks of blockSize bytes a message of n
// bytes hashes with a lenBytes length field: a shift, as blockSize is a
// power of two, and a plain function so that SumMany's gathering loop
// inlines it with its operands in registers.
func paddedBlocks(n, lenBytes, blockSize int) int {
	return (n + lenBytes + blockSize) >> paddedShift(blockSize)
}

// paddedShift is log2 of blockSize, a power of two.
func paddedShift(blockSize int) uint { return uint(bits.TrailingZeros(uint(blockSize))) }
