package hashlanes

import (
	"hash"
	"slices"
	"sync"

	"github.com/hashlanes/hashlanes/internal/cpu"
	"github.com/hashlanes/hashlanes/internal/hexenc"
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
	kernel  string
	// reference: every stream goes to the algorithm's reference
	// implementation (ReferenceHash), none to hashlanes' kernels.
	reference bool
	pool      sync.Pool // hashers for Sum
	stats     func() Stats
	many      func(dst []byte, msgs [][]byte) []byte
	manyMin   int // fewer messages than this (and under manyMinBytes) go through the one-shot loop
}

// SumMany hashes each message independently and appends the digests to
// dst in order, each Algorithm().Size() bytes long. Messages are packed into
// lanes, so a batch of small messages costs a fraction of hashing them one
// by one. It allocates nothing beyond growing dst, starts no goroutine, and
// is safe to call from many goroutines at once.
func (s *Server) SumMany(dst []byte, msgs [][]byte) []byte {
	if len(msgs) < s.manyMin {
		total := 0
		for _, m := range msgs {
			total += len(m)
		}
		if total < manyMinBytes {
			for _, m := range msgs {
				dst = oneShot(s.alg, dst, m)
			}
			return dst
		}
	}
	return s.many(dst, msgs)
}

// SumManyHex is SumMany with each digest appended as lower-case hex,
// 2*Algorithm().Size() bytes a message, for keys. The digests are hashed
// into the second half of the room their hex takes and expanded in place,
// with AVX2 16 bytes a step: encoding/hex over SumMany's result costs as
// much again as the hashing (MD5 URL paths: 15 ns a digest against 12 to
// hash it).
func (s *Server) SumManyHex(dst []byte, msgs [][]byte) []byte {
	base := len(dst)
	n := len(msgs) * s.alg.Size()
	dst = slices.Grow(dst, 2*n)
	dst = s.SumMany(dst[:base+n], msgs)
	hexenc.Expand(dst[base : base+2*n])
	return dst
}

// A lane kernel call costs 100-550 ns whatever it hashes, so tiny batches
// go message by message through the standard library's one-shot function:
// below manyMinMsgs messages, on the microarchitecture whose rates choose
// the kernels (cpu.Tuning). On Zen 4, measured with 1, 2, 3, 4, 6, 8 URL
// paths (40-75 bytes, ns per batch, medians of 3, its default tier, whose
// batch kernels take the messages):
//
//	MD5      one-shot loop 126, 236, 334, 441, 642, 897; lanes 289, 226, 221, 212, 218, 242
//	SHA-1    one-shot loop  96, 189, 281, 364, 552, 725; lanes 355, 375, 375, 359, 343, 400
//	SHA-256  one-shot loop  94, 188, 271, 369, 533, 712; lanes 393, 401, 383, 515, 392, 379
//	SHA-512  one-shot loop 238, 500, 718, 950, 1451, 2385; lanes 566, 564, 588, 567, 559, 598
//
// and with 2, 3, 4, 5 of them:
//
//	SHA-224  one-shot loop 208, 311, 418, 528; lanes 413, 452, 460, 432
//	SHA-384  one-shot loop 454, 680, 1116, 1242; lanes 526, 552, 527, 569
//	SHA-512/224 and /256 as SHA-384, within 15%
//
// On Zen 3, with no batch kernels (AVX-512) the messages are staged
// into the multi-lane kernels; BenchmarkSumManyFew, medians of 6
// (bench/results/2026-11-24/summany-few-zen3.txt), 1, 2, 3, 4, 5, 6 paths:
//
//	MD5      one-shot loop 121, 242, 358, 472, 590, 707; lanes 174, 330, 366, 397, 431, 461
//	SHA-1    one-shot loop 102, 202, 298, 395, 494, 592; lanes 119, 179, 298, 337, 429, 491
//	SHA-224  one-shot loop 119, 234, 349, 459, 576, 694; lanes 131, 212, 302, 393, 477, 552
//	SHA-256  one-shot loop 102, 203, 299, 397, 497, 602; lanes 126, 211, 300, 383, 472, 541
//	SHA-384  one-shot loop 265, 525, 786, 1045, 1304, 1567; lanes 410, 736, 691, 735, 1109, 1441
//	SHA-512 as SHA-384, within 1%
//
// With the three-instruction Maj in the AVX2 kernel, SHA-384 lanes take
// 641, 696, 748 ns at 2, 3, 4 paths against a loop of 543, 829, 1085
// (summany-few-zen3-sha512-maj-shuffle.txt): the cut-off stays at 3.
//
// With two scalar MD5 streams interleaved (amd64x2, which then ran 2 and 3
// ready streams, now 2), MD5 lanes take 256 and 383 ns at 2 and 3 paths
// against a loop of 242 and 358 (summany-few-zen3-md5-x2.txt): the cut-off
// stays at 4.
//
// On an Intel Xeon with AMX (Golden Cove class), which has the batch
// kernels, BenchmarkSumManyFew, medians of 6
// (bench/results/2026-11-25/goldencove-summany-few.txt), 1, 2, 3, 4, 5, 6
// paths:
//
//	MD5      one-shot loop  91, 182, 263, 344, 437, 523; lanes 167, 167, 169, 171, 174, 175
//	SHA-1    one-shot loop  80, 159, 236, 315, 392, 466; lanes 245, 244, 245, 248, 249, 249
//	SHA-224  one-shot loop  89, 178, 268, 355, 439, 526; lanes 350, 354, 357, 359, 357, 359
//	SHA-256  one-shot loop  75, 148, 221, 295, 365, 436; lanes 350, 350, 354, 355, 355, 360
//	SHA-384  one-shot loop 207, 413, 622, 824, 1036, 1246; lanes 410, 418, 416, 418, 424, 428
//	SHA-512 as SHA-384, within 2%
//
// With the batch kernels in ZMM registers there (goldencove-summany-few-zmm.txt,
// medians of 6; MD5's kernel unchanged):
//
//	MD5      one-shot loop  91, 183, 267, 350, 440, 529; lanes 168, 172, 173, 175, 178, 177
//	SHA-1    one-shot loop  81, 160, 238, 318, 395, 474; lanes 226, 230, 230, 233, 236, 238
//	SHA-224  one-shot loop  91, 182, 270, 358, 451, 540; lanes 312, 310, 315, 314, 316, 319
//	SHA-256  one-shot loop  76, 152, 225, 303, 378, 445; lanes 308, 311, 314, 315, 314, 321
//	SHA-384  one-shot loop 211, 427, 629, 839, 1056, 1267; lanes 355, 359, 356, 363, 363, 365
//	SHA-512 as SHA-384, within 2%
//
// MD5 at 2 tied in this run (p = 0.056) and was 8% faster in lanes in the
// first; it stays at 2. SHA-512/224 and /256, not measured here, take
// SHA-384's cut-off: the same batch kernel and rounds. A count where the
// two tie (MD5 and SHA-256 at 3 on Zen 4; SHA-224 at 4 and SHA-384/512 at
// 2 in the first run here, before the ZMM batch kernels) stays with the
// loop.
// Larger messages pay for the call sooner (two streams of 1 KiB already
// hash 1.5x faster in lanes), hence the byte bound.
var manyMinMsgs = map[cpu.Microarch][maxAlgorithm]int{
	cpu.Zen4:       {MD5: 3, SHA1: 5, SHA224: 5, SHA256: 6, SHA384: 3, SHA512: 3, SHA512_224: 3, SHA512_256: 3},
	cpu.Zen3:       {MD5: 4, SHA1: 2, SHA224: 2, SHA256: 4, SHA384: 3, SHA512: 3, SHA512_224: 3, SHA512_256: 3},
	cpu.GoldenCove: {MD5: 2, SHA1: 3, SHA224: 4, SHA256: 5, SHA384: 2, SHA512: 2, SHA512_224: 2, SHA512_256: 2},
}

const manyMinBytes = 1 << 10

// Stats counts a Server's work, to see how full its lanes run:
// MultiBlocks/MultiCapacity is the share of the multi-lane kernels' time
// spent on lanes in use.
type Stats struct {
	MultiCalls    uint64 // multi-lane kernel calls
	MultiBlocks   uint64 // blocks they hashed, summed over lanes
	MultiCapacity uint64 // blocks they would have hashed with every lane in use
	SingleBlocks  uint64 // blocks hashed on the single-stream kernel
}

// Stats returns the server's counters so far (all zero for algorithms not
// yet served by lanes).
func (s *Server) Stats() Stats {
	if s.stats == nil {
		return Stats{}
	}
	return s.stats()
}

// Option configures a Server.
type Option func(*options)

type options struct{ cpu CPU }

// WithCPU caps the kernels a Server may use at tier c (never above what the
// machine and HASHLANES_CPU allow). WithCPU(CPUGeneric) turns lanes and the
// SHA extensions off.
func WithCPU(c CPU) Option { return func(o *options) { o.cpu = min(o.cpu, c) } }

// NewServer returns a Server for algorithm a. It panics if a is not an
// Algorithm.
func NewServer(a Algorithm, opts ...Option) *Server {
	a.mustInfo()
	o := options{cpu: ActiveCPU()}
	for _, opt := range opts {
		opt(&o)
	}
	return newServer(a, cpu.Level(o.cpu))
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
// "avx512x16 (16 lanes) + amd64 (single stream)", or, for a server that
// hands every stream to the algorithm's reference implementation (see
// Reference), that package's import path, e.g. "crypto/sha3".
func (s *Server) Kernel() string { return s.kernel }

// Reference reports whether the server hashes through the algorithm's
// reference implementation (ReferenceHash) rather than hashlanes' own
// kernels: always for algorithms not on the engine (SHA-3, BLAKE2,
// BLAKE3), and for the others where hashlanes has nothing faster for a
// lone stream than pure Go (another GOARCH, -tags purego).
func (s *Server) Reference() bool { return s.reference }
