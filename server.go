package hashlanes

import (
	"fmt"
	"hash"
	"slices"
	"sync"
	"sync/atomic"

	"github.com/hashlanes/hashlanes/internal/cpu"
	"github.com/hashlanes/hashlanes/internal/hexenc"
	"github.com/hashlanes/hashlanes/internal/reference"
	"github.com/hashlanes/hashlanes/internal/tuning"
)

// Server is an engine with lanes of its own: the hashers it makes share
// them, so streams written at the same time by different goroutines are
// hashed together, one per SIMD lane. The package-level New uses a default
// Server per algorithm; a separate Server keeps one set of streams (and its
// instruction-set cap) apart from the rest of the program.
//
// A Server starts no goroutine and holds nothing of its hashers between
// writes, so hashers need no Close and may simply be dropped.
type Server struct {
	alg     Algorithm
	newHash func() hash.Hash
	close   func() error
	kernel  func() string // see Kernel
	// reference: every stream goes to the algorithm's reference
	// implementation (internal/reference), none to hashlanes' kernels.
	reference bool
	pool      sync.Pool // hashers for Sum
	stats     func() Stats
	many      func(dst []byte, msgs [][]byte) []byte
	// The tuning that chooses the engine's kernels (nil for a reference
	// server; made by the engine on first use), and SumMany's cut-off once
	// known: fewer messages than this (and under manyMinBytes) go message
	// by message (fewLoop).
	choice  func() *tuning.Chooser
	src     tuning.Source
	manyMin atomic.Pointer[manyMinCached]
	// oneShot: the engine's single-stream kernel hashes a short message
	// for less than the standard library's one-shot function (a Short
	// kernel: MD5's, SHA-NI's, SHA-512's own), so SumMany's few messages
	// go through the same kernel's one-shot path (appendSumOwn) at its
	// tier, oneShotLevel.
	oneShot      bool
	oneShotLevel cpu.Level
	// blockShift is log2 of the algorithm's block size, for fewForLanes
	// (which serves the engine's algorithms, of 64- and 128-byte blocks).
	blockShift uint8
}

// SumMany hashes each message independently and appends the digests to
// dst in order, each Algorithm().Size() bytes long. Messages are packed into
// lanes, so a batch of small messages costs a fraction of hashing them one
// by one. It allocates nothing beyond growing dst, starts no goroutine, and
// is safe to call from many goroutines at once.
func (s *Server) SumMany(dst []byte, msgs [][]byte) []byte {
	if len(msgs) <= maxManyMin && s.choice != nil && s.fewForLanes(msgs) {
		return s.fewLoop(dst, msgs)
	}
	return s.many(dst, msgs)
}

// fewLoop is SumMany below its cut-off, message by message: on
// hashlanes' one-shot path where the server's single-stream kernel is one
// of hashlanes' own (oneShot), else through the standard library's
// one-shot function.
func (s *Server) fewLoop(dst []byte, msgs [][]byte) []byte {
	if s.oneShot {
		for _, m := range msgs {
			var ok bool
			if dst, ok = appendSumOwn(s.alg, dst, m, s.oneShotLevel); !ok {
				// A kernel is listed only where the CPU has what it
				// needs (kernel.Best), as the one-shot path asks.
				panic("hashlanes: a Short kernel without its one-shot path")
			}
		}
		return dst
	}
	return reference.ID(s.alg).SumEach(dst, msgs) // the engine's algorithms: no BLAKE3 here
}

// SumManyHex is SumMany with each digest appended as lower-case hex,
// 2*Algorithm().Size() bytes a message, for keys. The digests are hashed
// into the second half of the room their hex takes and expanded in place,
// with AVX2 16 bytes a step: encoding/hex over SumMany's result costs
// about as much again as hashing short messages (docs/figures.md,
// "Figures behind the code").
func (s *Server) SumManyHex(dst []byte, msgs [][]byte) []byte {
	base := len(dst)
	n := len(msgs) * s.alg.Size()
	dst = slices.Grow(dst, 2*n)
	dst = s.SumMany(dst[:base+n], msgs)
	hexenc.Expand(dst[base : base+2*n])
	return dst
}

// A lane kernel call has a fixed cost whatever it hashes, so tiny batches
// go message by message through the standard library's one-shot function:
// below a cut-off of a few messages that the tuning measures (the first
// time a batch could go either way) or takes from its source. Larger
// messages pay for the call sooner, hence the byte bound (docs/figures.md,
// "SumMany's cut-offs").
const (
	manyMinBytes = 1 << 10
	maxManyMin   = 8 // the most messages the cut-off measurement tries
)

// fewForLanes reports whether a batch of at most maxManyMin messages is
// too small for a kernel call: under manyMinBytes in all, and with fewer
// messages that pad to the same number of blocks than the cut-off (a
// kernel call hashes messages of one block count, so a few messages of
// mixed lengths take a call each, and the cut-off, measured on messages
// of one block, counts the messages of one call). Fewer messages than the
// cut-off need no block counts; the counts are found with shifts, in the
// bytes of one word: it is a few messages' cost to decide, a share of
// their time (docs/figures.md, "A fresh process's first use").
func (s *Server) fewForLanes(msgs [][]byte) bool {
	total := 0
	for _, m := range msgs {
		total += len(m)
	}
	if total >= manyMinBytes {
		return false
	}
	if len(msgs) < 2 {
		return true
	}
	k := s.sumManyCutoff()
	if len(msgs) < k {
		return true
	}
	shift := uint(s.blockShift)
	lenBytes := 1 << shift / 8 // the padding's length field: 8 bytes, 16 for SHA-512's blocks
	var counts uint64          // byte c: the messages that pad to c+1 blocks (the last byte: or more)
	for _, m := range msgs {
		counts += 1 << (8 * min((len(m)+lenBytes)>>shift, maxManyMin-1))
	}
	// Whether no byte reaches k: a byte c+0x80-k has its top bit set
	// exactly when c >= k, as c is at most maxManyMin.
	k = max(k, 0)
	return (counts+uint64(0x80-k)*0x0101010101010101)&0x8080808080808080 == 0
}

// sumManyCutoff is SumMany's cut-off: the prior's until the tuning has
// settled, then measured or looked up once. Until it is final it is
// asked again only when the rates move on (a new generation).
func (s *Server) sumManyCutoff() int {
	if c := s.manyMin.Load(); c != nil && (c.final || c.gen == s.src.Generation()) {
		return c.n
	}
	return s.askManyMin()
}

// askManyMin asks the source for the cut-off and keeps it; apart from
// sumManyCutoff, so that every SumMany's check is a short function
// without this path's frame.
func (s *Server) askManyMin() int {
	gen := s.src.Generation()
	n, final := s.src.ManyMin(s.alg.String(), func() (int, error) { return s.measureSumManyCutoff(tuning.QuickMeasure) })
	s.manyMin.Store(&manyMinCached{n: n, final: final, gen: gen})
	return n
}

// manyMinCached is a Server's SumMany cut-off, as the rates of generation
// gen gave it.
type manyMinCached struct {
	n     int
	final bool
	gen   uint64
}

// measureSumManyCutoff times SumMany's two ways on 2 to maxManyMin URL paths
// (55 bytes, a block each): message by message (fewLoop) and the lanes.
func (s *Server) measureSumManyCutoff(o tuning.Options) (int, error) {
	msgs := make([][]byte, maxManyMin)
	for i := range msgs {
		msgs[i] = []byte(fmt.Sprintf("/objects/%02d/some/key/of/an/object/store/path-%06d", i, i*7919))
	}
	dst := make([]byte, 0, maxManyMin*s.alg.Size())
	return tuning.MeasureCutoff(tuning.CutoffProbe{
		Loop:  func(n int) { s.fewLoop(dst[:0], msgs[:n]) },
		Lanes: func(n int) { s.many(dst[:0], msgs[:n]) },
		Max:   maxManyMin,
	}, o)
}

// Stats counts a Server's work, to see how full its lanes run:
// MultiBlocks/MultiCapacity is the share of the multi-lane kernels' time
// spent on lanes in use.
type Stats struct {
	MultiCalls    uint64 // multi-lane kernel calls
	MultiBlocks   uint64 // blocks they hashed, summed over lanes
	MultiCapacity uint64 // blocks they would have hashed with every lane in use
	SingleBlocks  uint64 // blocks hashed on the single-stream kernel
	LoneBlocks    uint64 // those hashed in rounds that found one stream: no company to share lanes with
	Tries         uint64 // rounds that ran a close runner-up to check its rate
	Awaits        uint64 // times a lone stream, at GOMAXPROCS=1, waited for others whose writers were not runnable
	AwaitsJoined  uint64 // those after which another stream had joined
	Yields        uint64 // times a stream gave up its P briefly so that others could join its lanes
}

// Stats returns the server's counters so far (all zero for algorithms not
// yet served by lanes).
func (s *Server) Stats() Stats {
	if s.stats == nil {
		return Stats{}
	}
	return s.stats()
}

// NewHash returns a new stream. Besides [hash.Hash] it implements
// [encoding.BinaryMarshaler], [encoding.BinaryAppender],
// [encoding.BinaryUnmarshaler] (in the standard library's format) and
// [hash.Cloner].
func (s *Server) NewHash() hash.Hash { return s.newHash() }

// Close stops sharing lanes: existing hashers keep giving correct results,
// each on the single-stream kernel. Closing twice is harmless.
func (s *Server) Close() error { return s.close() }

// Algorithm returns the algorithm the server hashes.
func (s *Server) Algorithm() Algorithm { return s.alg }

// Kernel describes the kernels the server runs, e.g.
// "avx512ymmx16 (16 lanes) + amd64 (single stream)", or, for a server off
// the engine (see Reference), what hashes its streams: a package's import
// path, e.g. "crypto/sha3", or for BLAKE3 hashlanes' kernels and the
// compression function in Go that takes what they leave.
func (s *Server) Kernel() string { return s.kernel() }

// Reference reports whether the server's streams stay off the multi-lane
// engine: always for SHA-3 and BLAKE2 (the standard library's crypto/sha3,
// golang.org/x/crypto's BLAKE2) and BLAKE3 (hashlanes' chunk-tree hasher
// on its own kernels, Kernel says which), and for the others where
// hashlanes has nothing faster for a lone stream than pure Go (another
// GOARCH, -tags purego), which then run the standard library's code.
func (s *Server) Reference() bool { return s.reference }

// sumManyLoop is SumMany for algorithms not yet on the engine: one pooled
// hasher, message after message.
func (s *Server) sumManyLoop(dst []byte, msgs [][]byte) []byte {
	dst = slices.Grow(dst, len(msgs)*s.alg.Size())
	h := s.pool.Get().(hash.Hash)
	for _, m := range msgs {
		h.Reset()
		h.Write(m)
		dst = h.Sum(dst)
	}
	s.pool.Put(h)
	return dst
}

// appendSum appends the digest of one message, hashed on a pooled hasher
// of the server, to dst.
func (s *Server) appendSum(dst, data []byte) []byte {
	h := s.pool.Get().(hash.Hash)
	h.Reset()
	h.Write(data)
	dst = h.Sum(dst)
	s.pool.Put(h)
	return dst
}

// Tuning returns where the server's rates come from and what they choose.
func (s *Server) Tuning() TuningInfo {
	if s.choice == nil {
		return TuningInfo{Origin: s.kernel()}
	}
	c := s.choice()
	info := TuningInfo{Origin: c.Origin()}
	for _, c := range c.Choices() {
		info.Choices = append(info.Choices, KernelChoice{Streams: c.Ready, Kernel: c.Name, Lanes: c.Lanes, MBps: c.Rate})
	}
	return info
}

// Calibrate makes now the measurement the server's tuning would make the
// first time it has a choice (a few milliseconds, once per process and
// kernel family), so that a program sensitive to latency pays it at start.
// It does nothing where there is nothing to measure.
func (s *Server) Calibrate() {
	if s.choice != nil {
		s.choice().Prepare(2)
		s.sumManyCutoff()
	}
}
