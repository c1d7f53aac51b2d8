// Package hashlanes hashes at the speed of the hardware: MD5, SHA-1 and the
// SHA-2 family, with results identical to the standard library's, computed
// for many independent streams at once on one core: one stream per SIMD
// lane (AVX-512 or AVX2), or several streams interleaved in the SHA
// extensions, with a pure-Go fallback. Each round runs whichever kernel
// moves the most bytes for the streams that are ready, by the kernels'
// rates measured on this machine the first time there is a choice to
// make, or saved by `hashlanes tune` ([WithTuning], [Tuning]). SHA-384, SHA-512
// and SHA-512/t have no instructions of their own on most x86 CPUs: a lone
// stream runs the standard library's code, concurrent ones share 64-bit
// lanes. SHA-3, BLAKE2 and BLAKE3 run their libraries' single-stream code,
// so that one API covers them too.
//
// [New] returns a [hash.Hash] like crypto/md5.New does; hashers written
// concurrently by different goroutines share lanes automatically, and a
// stream written alone runs at single-stream speed. [Sum] hashes one
// message.
package hashlanes

import (
	"hash"
	"sync"
)

var defaultServers [maxAlgorithm]struct {
	once sync.Once
	srv  *Server
}

// DefaultServer returns the Server that New and Sum use for a.
func DefaultServer(a Algorithm) *Server {
	a.mustInfo()
	d := &defaultServers[a]
	d.once.Do(func() { d.srv = NewServer(a) })
	return d.srv
}

// New returns a new hash.Hash computing algorithm a, backed by the default
// engine's lanes. No Close is needed. It panics if a is not an Algorithm.
func New(a Algorithm) hash.Hash { return DefaultServer(a).NewHash() }

// Sum returns the digest of data.
func Sum(a Algorithm, data []byte) []byte {
	return DefaultServer(a).sum(data)
}

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
