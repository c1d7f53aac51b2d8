// Package engine schedules streams onto kernel lanes: it pads and finishes
// messages, packs the whole blocks of many concurrently written streams into
// one multi-lane kernel call, and runs a lone stream on the single-stream
// kernel without waiting for company.
package engine

import (
	"encoding/binary"
	"errors"
	"math/bits"

	"github.com/hashlanes/hashlanes/internal/kernel"
)

// maxBlockSize is the largest block of the algorithms the engine serves
// (SHA-512's 128 bytes).
const maxBlockSize = 128

// Spec describes one algorithm of the Merkle-Damgård family: block and
// digest sizes, padding, output and the standard library's marshalled state.
type Spec[S any] struct {
	Name      string
	Size      int // digest bytes
	BlockSize int
	Init      S
	LenBytes  int  // length field of the padding: 8 or 16
	BigEndian bool // byte order of the length field

	// AppendDigest appends the first Size bytes of the encoded state.
	AppendDigest func(b []byte, s *S) []byte

	// Magic starts a marshalled state; AppendState and ReadState write and
	// read the chaining value in the standard library's byte order.
	Magic       string
	AppendState func(b []byte, s *S) []byte
	ReadState   func(b []byte, s *S) []byte
}

// marshaledSize is the length of a state in the standard library's format:
// magic, chaining value, a whole block of buffered input, 64-bit length.
func (sp *Spec[S]) marshaledSize() int {
	var s S
	return len(sp.Magic) + len(sp.AppendState(nil, &s)) + sp.BlockSize + 8
}

// Kernels is what a Server runs: one single-stream kernel and any number of
// multi-lane ones, each with its measured throughput, so that every round
// runs whichever moves the most bytes for the streams that are ready.
type Kernels[S any] struct {
	Single     kernel.Single[S]
	SingleRate float64 // MB/s of the single-stream kernel
	Multi      []Rated[S]
	Batch      []kernel.Batch // batch kernels for short messages, narrowest first

	picks [2][]pick // best's answers, without and with hybrids, by ready count (tabulate)
}

// pick is the kernel for a round: its index in Multi (-1 for the
// single-stream kernel), the lanes it takes and the rate it moves.
type pick struct {
	k, lanes int
	rate     float64
}

// tabulate computes best's answers for every count of ready streams a
// combiner's lanes can hold, so that a round looks its kernel up. Weighed
// afresh every round, with the measured shares read from maps, the kernels
// cost a lone stream of 1 MiB 1.9% of its speed for MD5, 3.4% for SHA-1
// and 4.2% for SHA-256, whose single-stream rounds of 16 KiB last ~10 µs
// (bench/results/2026-11-24/streams-lone-tabulate.txt).
func (k *Kernels[S]) tabulate() {
	for h := range k.picks {
		t := make([]pick, kernel.MaxLanes+1)
		for ready := range t {
			t[ready].k, t[ready].lanes, t[ready].rate = k.weigh(ready, h == 1)
		}
		k.picks[h] = t
	}
}

// Rated is a multi-lane kernel with its throughput, all lanes busy, and
// what it moves with fewer busy.
type Rated[S any] struct {
	kernel.Multi[S]
	Rate float64 // MB/s summed over all lanes

	// Fill is the share of Rate moved with n lanes busy, measured, for
	// some n below Lanes; between them, and below the least, it is taken
	// as linear (0 with none busy). Without one, the share is the lanes'
	// share of the blocks (kernel.Multi.Weight): an idle lane costs as
	// much as a busy one. That undervalues lanes whose full rate is held
	// down by the memory all of them read: AVX2 MD5 with 3 of 16 lanes
	// busy moves 0.21 of its full rate, not 0.19. Hybrid kernels, whose
	// lanes are unlike, keep Weight.
	Fill map[int]float64
}

// share is what lanes 0..used-1 of r move against all of them busy.
func (r *Rated[S]) share(used int) float64 {
	if r.Fast > 0 || len(r.Fill) == 0 || used >= r.Lanes {
		return r.Weight(used)
	}
	lo, loShare := 0, 0.0 // the nearest measured counts around used
	hi, hiShare := r.Lanes, 1.0
	for n, f := range r.Fill {
		if n <= used && n > lo {
			lo, loShare = n, f
		}
		if n >= used && n < hi {
			hi, hiShare = n, f
		}
	}
	if hi == lo {
		return loShare
	}
	return loShare + (hiShare-loShare)*float64(used-lo)/float64(hi-lo)
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

// choose returns the kernel for a round with ready streams ready: the index
// into Multi and how many lanes it takes, or -1 for the single-stream
// kernel. A kernel moves the share of its rate that the lanes it takes are
// worth (Rated.share); streams beyond its lanes wait for the next round.
// Hybrid kernels, whose lanes hash unequal block counts, are considered
// only if hybrid is set.
func (k *Kernels[S]) choose(ready int, hybrid bool) (int, int) {
	best, lanes, _ := k.best(ready, hybrid)
	return best, lanes
}

// rate is what one core moves with ready streams on the kernel choose
// picks for them, in the unit of the kernels' rates.
func (k *Kernels[S]) rate(ready int) float64 {
	_, _, r := k.best(ready, true)
	return r
}

// waitMargin is how much more a kernel that leaves ready streams waiting
// must move than one that takes them all. The streams left out fall out of
// step with the others, and every later round ends where the first of its
// lanes runs out: at two Ps, SHA-1 with 15 of a combiner's 16 streams
// ready ran on the 10-lane hybrid (6700 MB/s against 15/16 of 7100 for
// the 16 lanes, a tie within the measurement) and moved 4.6% less than
// with the 16 lanes (bench/results/2026-11-22/streams-procs-choice.txt).
const waitMargin = 1.03

// best is choose's pick for ready streams, with the rate it moves them at,
// from the table if tabulate made one.
func (k *Kernels[S]) best(ready int, hybrid bool) (int, int, float64) {
	h := 0
	if hybrid {
		h = 1
	}
	if t := k.picks[h]; ready < len(t) {
		p := t[ready]
		return p.k, p.lanes, p.rate
	}
	return k.weigh(ready, hybrid)
}

// weigh finds best's pick: the highest rate, a kernel that leaves some of
// the ready streams waiting counted at its rate over waitMargin.
func (k *Kernels[S]) weigh(ready int, hybrid bool) (int, int, float64) {
	best, bestRate, bestScore, lanes := -1, k.SingleRate, k.SingleRate, 1
	for i := range k.Multi {
		m := &k.Multi[i]
		if m.Fast > 0 && !hybrid {
			continue
		}
		used := min(ready, m.Lanes)
		r := m.share(used) * m.Rate
		score := r
		if used < ready {
			score /= waitMargin
		}
		if score > bestScore {
			best, bestRate, bestScore, lanes = i, r, score, used
		}
	}
	if best < 0 {
		return -1, ready, bestRate
	}
	return best, lanes, bestRate
}

// Choice is the kernel a round with ready streams runs, by name, and the
// lanes it takes: the crossover tables next to the kernels' rates.
func (k *Kernels[S]) Choice(ready int) (string, int) {
	i, lanes := k.choose(ready, true)
	if i < 0 {
		return k.Single.Name, lanes
	}
	return k.Multi[i].Name, lanes
}

// batchFor returns the batch kernel for n messages: the narrowest that
// takes them all, else the widest.
func (k *Kernels[S]) batchFor(n int) kernel.Batch {
	for _, b := range k.Batch {
		if b.Lanes >= n {
			return b
		}
	}
	return k.Batch[len(k.Batch)-1]
}

// pad writes the final block(s) of a message of total length n whose last
// n%BlockSize bytes are tail into dst and returns them.
func (sp *Spec[S]) pad(dst *[2 * maxBlockSize]byte, tail []byte, n uint64) []byte {
	k := copy(dst[:], tail)
	return sp.padAfter(dst[:], k, n)
}

// padAfter pads buf, whose first k bytes end a message of total length n,
// and returns it up to the end of the padding.
func (sp *Spec[S]) padAfter(buf []byte, k int, n uint64) []byte {
	total := sp.paddedBlocks(k) * sp.BlockSize
	buf[k] = 0x80
	clear(buf[k+1 : total-8])
	bits := n << 3
	if sp.BigEndian {
		binary.BigEndian.PutUint64(buf[total-8:], bits)
		if sp.LenBytes == 16 {
			binary.BigEndian.PutUint64(buf[total-16:], n>>61)
		}
	} else {
		binary.LittleEndian.PutUint64(buf[total-8:], bits)
	}
	return buf[:total]
}

// paddedBlocks is the number of blocks a message of n bytes hashes.
func (sp *Spec[S]) paddedBlocks(n int) int { return paddedBlocks(n, sp.LenBytes, sp.BlockSize) }

// paddedBlocks is the number of blocks of blockSize bytes a message of n
// bytes hashes with a lenBytes length field: a shift, as blockSize is a
// power of two, and a plain function so that SumMany's gathering loop
// inlines it with its operands in registers.
func paddedBlocks(n, lenBytes, blockSize int) int {
	return (n + lenBytes + blockSize) >> bits.TrailingZeros(uint(blockSize))
}

var (
	errStateID   = errors.New("invalid hash state identifier")
	errStateSize = errors.New("invalid hash state size")
)
