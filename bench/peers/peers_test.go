// Package peers runs hashlanes' workloads through rival libraries, side by
// side with hashlanes and the standard library in one run. It is a module of
// its own so that the library never depends on its rivals.
package peers

import (
	"crypto/md5"
	"crypto/sha256"
	"fmt"
	"hash"
	"math/rand/v2"
	"testing"

	"github.com/hashlanes/hashlanes"
	"github.com/hashlanes/hashlanes/internal/workload"
	md5simd "github.com/minio/md5-simd"
	sha256simd "github.com/minio/sha256-simd"
	"golang.org/x/sys/cpu"
)

// sha256simdAVX512 reports whether sha256-simd's AVX-512 server can run
// here: the features its own dispatch requires (cpuid_other.go), since
// NewAvx512Server starts a goroutine that runs the kernel unconditionally
// and dies of SIGILL on a CPU without them.
var sha256simdAVX512 = cpu.X86.HasAVX512F && cpu.X86.HasAVX512DQ && cpu.X86.HasAVX512BW && cpu.X86.HasAVX512VL

func randomBytes(r *rand.Rand, n int) []byte {
	b := make([]byte, n)
	for i := range b {
		b[i] = byte(r.Uint32())
	}
	return b
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
					workload.Streams(msgs, newHash, done)
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

// BenchmarkStreamsSHA256: the same workload for SHA-256, with
// github.com/minio/sha256-simd (v1.0.1) as the rival: its New, one stream
// per hasher on the best block function it finds (SHA-NI where the CPU has
// it), and its AVX-512 server, 16 streams in lanes. The servers cannot be
// closed and poll every microsecond for the life of the process, which
// slows whatever runs after them, so they run last.
func BenchmarkStreamsSHA256(b *testing.B) {
	r := rand.New(rand.NewPCG(3, 4))
	counts := []int{1, 16}
	msgs := make(map[int][][]byte)
	for _, n := range counts {
		for range n {
			msgs[n] = append(msgs[n], randomBytes(r, 1<<20))
		}
	}
	impls := []struct {
		name    string
		newHash func() func() hash.Hash
	}{
		{"stdlib", func() func() hash.Hash { return sha256.New }},
		{"hashlanes", func() func() hash.Hash { return func() hash.Hash { return hashlanes.New(hashlanes.SHA256) } }},
		{"sha256simd-new", func() func() hash.Hash { return sha256simd.New }},
		{"sha256simd", func() func() hash.Hash {
			srv := sha256simd.NewAvx512Server()
			return func() hash.Hash { return sha256simd.NewAvx512(srv) }
		}},
	}
	for _, impl := range impls {
		for _, n := range counts {
			b.Run(fmt.Sprintf("alg=sha256/impl=%s/streams=%d/size=1024KiB", impl.name, n), func(b *testing.B) {
				if impl.name == "sha256simd" && !sha256simdAVX512 {
					b.Skip("sha256-simd's AVX-512 server needs AVX-512 F, DQ, BW and VL")
				}
				newHash := impl.newHash()
				b.SetBytes(int64(n << 20))
				b.ReportAllocs()
				for b.Loop() {
					workload.Streams(msgs[n], newHash, nil)
				}
			})
		}
	}
}

// TestSameDigests makes sure the peers compute the same thing.
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
	want256 := sha256.Sum256(msg)
	if string(hashlanes.Sum(hashlanes.SHA256, msg)) != string(want256[:]) {
		t.Fatal("hashlanes' SHA-256 digest differs")
	}
	if !sha256simdAVX512 {
		t.Skip("sha256-simd's AVX-512 server needs AVX-512 F, DQ, BW and VL")
	}
	h256 := sha256simd.NewAvx512(sha256simd.NewAvx512Server())
	h256.Write(msg)
	if string(h256.Sum(nil)) != string(want256[:]) {
		t.Fatal("sha256-simd's SHA-256 digest differs")
	}
}
