// Package peers runs hashlanes' workloads through rival libraries, side by
// side with hashlanes and the standard library in one run. It is a module of
// its own so that the library never depends on its rivals.
package peers

import (
	"crypto/md5"
	"fmt"
	"hash"
	"math/rand/v2"
	"sync"
	"testing"

	"github.com/hashlanes/hashlanes"
	md5simd "github.com/minio/md5-simd"
)

const piece = 32 << 10

func randomBytes(r *rand.Rand, n int) []byte {
	b := make([]byte, n)
	for i := range b {
		b[i] = byte(r.Uint32())
	}
	return b
}

// streams hashes each message in its own goroutine, in 32 KiB writes,
// through a fresh hasher from newHash; done releases it (md5-simd's hashers
// must be closed).
func streams(msgs [][]byte, newHash func() hash.Hash, done func(hash.Hash)) {
	var wg sync.WaitGroup
	for _, m := range msgs {
		wg.Go(func() {
			h := newHash()
			for p := m; len(p) > 0; p = p[min(piece, len(p)):] {
				h.Write(p[:min(piece, len(p))])
			}
			h.Sum(nil)
			done(h)
		})
	}
	wg.Wait()
}

// BenchmarkStreams: the workload of hashlanes' BenchmarkStreams, with
// github.com/minio/md5-simd's Server (v1.1.2) as a further impl.
func BenchmarkStreams(b *testing.B) {
	r := rand.New(rand.NewPCG(1, 2))
	for _, n := range []int{1, 16, 32} {
		for _, size := range []int{32 << 10, 1 << 20} {
			msgs := make([][]byte, n)
			for i := range msgs {
				msgs[i] = randomBytes(r, size)
			}
			name := func(impl string) string {
				return fmt.Sprintf("alg=md5/impl=%s/streams=%d/size=%dKiB", impl, n, size>>10)
			}
			run := func(b *testing.B, newHash func() hash.Hash, done func(hash.Hash)) {
				b.SetBytes(int64(n * size))
				b.ReportAllocs()
				for b.Loop() {
					streams(msgs, newHash, done)
				}
			}
			b.Run(name("stdlib"), func(b *testing.B) { run(b, md5.New, func(hash.Hash) {}) })
			b.Run(name("hashlanes"), func(b *testing.B) {
				run(b, func() hash.Hash { return hashlanes.New(hashlanes.MD5) }, func(hash.Hash) {})
			})
			b.Run(name("md5simd"), func(b *testing.B) {
				srv := md5simd.NewServer()
				defer srv.Close()
				run(b, func() hash.Hash { return srv.NewHash() }, func(h hash.Hash) { h.(md5simd.Hasher).Close() })
			})
		}
	}
}

// TestSameDigests makes sure the three compute the same thing.
func TestSameDigests(t *testing.T) {
	srv := md5simd.NewServer()
	defer srv.Close()
	msg := randomBytes(rand.New(rand.NewPCG(3, 4)), 100000)
	want := md5.Sum(msg)
	h := srv.NewHash()
	h.Write(msg)
	got := h.Sum(nil)
	h.Close()
	if string(got) != string(want[:]) || string(hashlanes.Sum(hashlanes.MD5, msg)) != string(want[:]) {
		t.Fatal("digests differ")
	}
}
