// Package hashlanes hashes at the speed of the hardware: MD5, SHA-1 and the
// SHA-2 family, with results identical to the standard library's, computed
// for many independent streams at once on one core: one stream per SIMD
// lane (AVX-512 or AVX2), or several streams interleaved in the SHA
// extensions, with a pure-Go fallback. A stream that runs alone runs
// single-stream code (SHA-NI, or the standard library's own).
//
// # Which function when
//
//   - One message in memory: [Sum], or [AppendSum] to append the digest
//     to a buffer without allocating. Short messages go straight to a
//     one-shot function: for MD5, SHA-1 and the SHA-2 family hashlanes'
//     own where its single-stream kernel runs (SHA-NI for SHA-1 and
//     SHA-256, AVX2 or AVX-512 for SHA-512, any amd64 for MD5 but in
//     Sum), which pads the message's tail on the stack, else the
//     standard library's.
//   - A stream written piece by piece (an upload, a pipe): [New], a
//     [hash.Hash] like crypto/sha256.New's. Hashers written by different
//     goroutines at the same time share lanes by themselves.
//   - Many small messages at once (cache keys, URL paths, records):
//     [SumMany] or [SumManyHex], which hash them side by side in lanes.
//   - Several readers or files: [SumReaders] for readers at hand,
//     [SumStreams] for any number of streams opened as they are needed
//     (bounded memory, results in order), [SumFile] for one file.
//   - A separate engine with its own options ([WithCPU], [WithTuning]):
//     [NewServer]; the functions above use [DefaultServer].
//
// Each round of the engine runs whichever kernel moves the most bytes for
// the streams that are ready, by the kernels' rates measured on this
// machine the first time there is a choice to make, or saved by `hashlanes
// tune` ([WithTuning], [Tuning]). SHA-384, SHA-512 and SHA-512/t have no
// instructions of their own on most x86 CPUs: on amd64 a lone stream runs
// hashlanes' own single-stream code (AVX2 or AVX-512 beside the scalar
// rounds), elsewhere the standard library's; concurrent ones share 64-bit
// lanes.
//
// SHA-3 and BLAKE2 run their libraries' single-stream code (crypto/sha3,
// golang.org/x/crypto; BLAKE2 once a program imports
// github.com/hashlanes/hashlanes/blake2, see [Algorithm.Available]), and
// BLAKE3 hashlanes' chunk-tree hasher on its own AVX-512 and AVX2 kernels,
// so that one API covers them too; [Server.Kernel] says what runs each
// algorithm.
package hashlanes

import (
	"crypto/md5"
	"crypto/sha1"
	"crypto/sha256"
	"crypto/sha512"
	"hash"
	"sync"
	"sync/atomic"

	"github.com/hashlanes/hashlanes/internal/blake3tree"
	"github.com/hashlanes/hashlanes/internal/cpu"
	md5k "github.com/hashlanes/hashlanes/internal/kernel/md5"
	sha1k "github.com/hashlanes/hashlanes/internal/kernel/sha1"
	sha256k "github.com/hashlanes/hashlanes/internal/kernel/sha256"
	sha512k "github.com/hashlanes/hashlanes/internal/kernel/sha512"
	"github.com/hashlanes/hashlanes/internal/reference"
)

var (
	defaultServers [maxAlgorithm]atomic.Pointer[Server]
	defaultMade    [maxAlgorithm]sync.Mutex // held while one is made
)

// DefaultServer returns the Server that New and Sum use for a.
func DefaultServer(a Algorithm) *Server {
	// Once the server is made, an atomic load: no once and no validity
	// check before it, which cost a SumMany of a few messages a share of
	// its time.
	if uint(a) < uint(len(defaultServers)) {
		if s := defaultServers[a].Load(); s != nil {
			return s
		}
	}
	return makeDefaultServer(a)
}

// makeDefaultServer makes a's default server, once. A lock rather than
// a sync.Once: the first use's calls nest deep enough that the closures
// of a Once made a fresh process grow its stack (docs/engine.md,
// "Start-up").
func makeDefaultServer(a Algorithm) *Server {
	a.mustInfo()
	defaultMade[a].Lock()
	defer defaultMade[a].Unlock()
	s := defaultServers[a].Load()
	if s == nil {
		s = NewServer(a)
		defaultServers[a].Store(s)
	}
	return s
}

// New returns a new hash.Hash computing algorithm a, backed by the default
// engine's lanes. No Close is needed. It panics if a is not an Algorithm.
func New(a Algorithm) hash.Hash { return DefaultServer(a).NewHash() }

// Sum returns the digest of data, as the standard library's one-shot
// function (md5.Sum, sha256.Sum256, ...) computes it.
func Sum(a Algorithm, data []byte) []byte {
	if len(data) < sumLanesMin {
		// hashlanes' own one-shot path where it runs, appending to nil so
		// that only the digest allocates, as in AppendSum. Not MD5's: level
		// with crypto/md5 in AppendSum, it read 1-3% slower here, where
		// the library's digest moved to the heap is the one allocation.
		if a >= SHA1 && a <= SHA512_256 {
			if d, ok := appendSumOwn(a, nil, data, cpu.Active); ok {
				return d
			}
		}
		// Else the standard library's digest itself, moved to the heap:
		// one allocation of its size, no copy into another.
		switch a {
		case MD5:
			s := md5.Sum(data)
			return s[:]
		case SHA1:
			s := sha1.Sum(data)
			return s[:]
		case SHA224:
			s := sha256.Sum224(data)
			return s[:]
		case SHA256:
			s := sha256.Sum256(data)
			return s[:]
		case SHA384:
			s := sha512.Sum384(data)
			return s[:]
		case SHA512:
			s := sha512.Sum512(data)
			return s[:]
		case SHA512_224:
			s := sha512.Sum512_224(data)
			return s[:]
		case SHA512_256:
			s := sha512.Sum512_256(data)
			return s[:]
		}
	}
	return AppendSum(a, make([]byte, 0, a.Size()), data)
}

// AppendSum appends the digest of data to dst and returns the extended
// slice; with room in dst it allocates nothing (but for BLAKE3, whose
// library allocates for long messages). A message shorter than
// 16 KiB goes straight to a one-shot function: for MD5, SHA-1 and the
// SHA-2 family hashlanes' own where its single-stream kernel runs
// (MD5's scalar kernel, SHA-NI, SHA-512's AVX2 or AVX-512 kernel), which
// pads the message's tail on the stack and costs less, else the standard
// library's (or its library's, for SHA-3, BLAKE2 and BLAKE3): a lone
// message has no lanes to share. Longer ones go through the default
// engine, whose lone streams run at single-stream speed and whose
// concurrent ones share lanes.
func AppendSum(a Algorithm, dst, data []byte) []byte {
	if len(data) < sumLanesMin {
		if a <= SHA512_256 { // the engine's algorithms: no call for the others
			if d, ok := appendSumOwn(a, dst, data, cpu.Active); ok {
				return d
			}
		}
		if a.valid() && a != BLAKE3 {
			// Small enough to inline: the one-shot function is one call
			// away, as in a program that calls it itself (BenchmarkSum).
			return reference.ID(a).Sum(dst, data)
		}
	}
	return appendSumOther(a, dst, data)
}

// appendSumOther is AppendSum of a long message, a BLAKE3 one or a bad
// Algorithm.
func appendSumOther(a Algorithm, dst, data []byte) []byte {
	if len(data) < sumLanesMin {
		return oneShot(a, dst, data) // which panics on a bad Algorithm
	}
	srv := DefaultServer(a)
	if srv.reference {
		return oneShot(a, dst, data)
	}
	return srv.appendSum(dst, data)
}

// appendSumOwn is AppendSum of a short message of one of the engine's
// algorithms on hashlanes' own single-stream kernel, at tier l at most:
// MD5's scalar kernel, SHA-1's and SHA-256's SHA-NI kernels where the CPU
// has them (and HASHLANES_CPU allows them), SHA-512's AVX-512 or AVX2
// kernel. The whole blocks go straight from the message and the tail is
// padded on the stack, where the standard library's one-shot function
// copies its hasher and writes the padding through Write (docs/figures.md,
// "One-shot sums on SHA-NI"). ok is false where there is no such kernel
// (another CPU, GOARCH or tier, or -tags purego) or a is not one of these.
func appendSumOwn(a Algorithm, dst, data []byte, l cpu.Level) (d []byte, ok bool) {
	switch a {
	case MD5:
		return md5k.AppendSumOwn(dst, data)
	case SHA1:
		return sha1k.AppendSumSHANI(dst, &sha1k.Init, sha1k.Size, data)
	case SHA224:
		return sha256k.AppendSumSHANI(dst, &sha256k.Init224, sha256.Size224, data)
	case SHA256:
		return sha256k.AppendSumSHANI(dst, &sha256k.Init256, sha256.Size, data)
	case SHA384:
		return sha512k.AppendSumOwn(dst, &sha512k.Init384, sha512.Size384, data, l)
	case SHA512:
		return sha512k.AppendSumOwn(dst, &sha512k.Init512, sha512.Size, data, l)
	case SHA512_224:
		return sha512k.AppendSumOwn(dst, &sha512k.Init512_224, sha512.Size224, data, l)
	case SHA512_256:
		return sha512k.AppendSumOwn(dst, &sha512k.Init512_256, sha512.Size256, data, l)
	}
	return dst, false
}

// sumLanesMin is the shortest message Sum hands to the engine: at 16 KiB
// a call's own cost (a pooled hasher, its reset and sum) is under 1% of
// hashing it.
const sumLanesMin = 16 << 10

// SumMany hashes each message independently and appends the digests to
// dst in order, each a.Size() bytes long; see [Server.SumMany].
func SumMany(a Algorithm, dst []byte, msgs [][]byte) []byte {
	return DefaultServer(a).SumMany(dst, msgs)
}

// SumManyHex is SumMany with the digests in lower-case hex, 2*a.Size()
// bytes each; see [Server.SumManyHex].
func SumManyHex(a Algorithm, dst []byte, msgs [][]byte) []byte {
	return DefaultServer(a).SumManyHex(dst, msgs)
}

// oneShot appends the reference implementation's one-shot digest of m
// (md5.Sum, ...), or panics on a bad Algorithm.
func oneShot(a Algorithm, dst, m []byte) []byte {
	a.mustInfo()
	if a == BLAKE3 {
		// hashlanes' own tree: on the kernels, one chunk in vector rows
		// and more 16 chunks at a time (docs/figures.md, "BLAKE3").
		return blake3tree.Sum256(dst, m)
	}
	return reference.ID(a).Sum(dst, m)
}
