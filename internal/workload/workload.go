// Package workload holds what the root package's benchmarks, the peers'
// benchmarks and hashlanes bench measure, so that their figures are of the
// same thing: the URL-path corpus of the seeds, the stream workload and the
// names of sizes. It imports nothing of hashlanes, so the root package's
// own tests can use it.
package workload

import (
	"fmt"
	"hash"
	"io"
	"math/rand/v2"
	"sync"
)

// WriteSize is the size of the stream workload's writes: io.Copy's.
const WriteSize = 32 << 10

// Streams is one iteration of the stream workload: a goroutine for each
// message, each writing its message to a hasher of its own from newHash in
// WriteSize pieces and summing it, then handing the hasher to done, if
// any (md5-simd's hashers must be closed).
func Streams(msgs [][]byte, newHash func() hash.Hash, done func(hash.Hash)) {
	StreamsIn(msgs, WriteSize, newHash, done)
}

// StreamsIn is Streams with writes of piece bytes.
func StreamsIn(msgs [][]byte, piece int, newHash func() hash.Hash, done func(hash.Hash)) {
	var wg sync.WaitGroup
	for _, m := range msgs {
		wg.Go(func() {
			h := newHash()
			WriteIn(h, m, piece)
			h.Sum(nil)
			if done != nil {
				done(h)
			}
		})
	}
	wg.Wait()
}

// WriteIn writes msg to w in pieces of piece bytes, the last one shorter
// if need be.
func WriteIn(w io.Writer, msg []byte, piece int) {
	for p := msg; len(p) > 0; p = p[min(piece, len(p)):] {
		w.Write(p[:min(piece, len(p))])
	}
}

// URLPaths returns n deterministic URL-path-like messages of 40 to 75
// bytes, as in the seeds' Python benchmark; a shorter corpus is a prefix
// of a longer one.
func URLPaths(n int) [][]byte {
	r := rand.New(rand.NewPCG(2024, 11))
	pkgs := []string{"libssl", "zlib", "openssh-server", "curl", "python3-yaml", "nginx", "git", "tzdata", "bash", "coreutils"}
	paths := make([][]byte, 0, n)
	for len(paths) < n {
		p, q := pkgs[r.IntN(len(pkgs))], pkgs[r.IntN(len(pkgs))]
		s := fmt.Sprintf("/updates/%s-%d.%d/%s-%d.%d/%d/", p, r.IntN(10), r.IntN(20), q, r.IntN(10), r.IntN(100), r.IntN(1_000_000))
		if len(s) >= 40 && len(s) <= 75 {
			paths = append(paths, []byte(s))
		}
	}
	return paths
}

// RandomBytes returns n bytes that are the same for the same seed in
// every process: benchmark inputs that no compression or caching favours.
func RandomBytes(n int, seed uint64) []byte {
	r := rand.New(rand.NewPCG(seed, 1))
	b := make([]byte, n)
	for i := range b {
		b[i] = byte(r.Uint32())
	}
	return b
}

// SizeName writes a size as the seeds do: 128B, 8KiB, 1MiB.
func SizeName(n int64) string {
	switch {
	case n >= 1<<20 && n%(1<<20) == 0:
		return fmt.Sprintf("%dMiB", n>>20)
	case n >= 1<<10 && n%(1<<10) == 0:
		return fmt.Sprintf("%dKiB", n>>10)
	}
	return fmt.Sprintf("%dB", n)
}
