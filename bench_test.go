package hashlanes

import (
	"crypto/md5"
	"fmt"
	"hash"
	"math/rand/v2"
	"sync"
	"testing"

	"github.com/hashlanes/hashlanes/internal/cpu"
	"github.com/hashlanes/hashlanes/internal/cpu/cputest"
	"github.com/hashlanes/hashlanes/internal/workload"
)

// benchImpl is a way a stream is hashed in the benchmarks: new returns the
// constructor of its hashers and, for the engine, the Server behind them.
type benchImpl struct {
	name  string
	level cpu.Level
	new   func() (func() hash.Hash, *Server)
}

// benchImpls are the standard library as the baseline, and the engine
// capped at each tier.
func benchImpls(a Algorithm) []benchImpl {
	impls := []benchImpl{{"stdlib", cpu.Generic, func() (func() hash.Hash, *Server) { return stdlib[a], nil }}}
	for _, c := range []CPU{CPUGeneric, CPUAVX2, CPUAVX512} {
		impls = append(impls, benchImpl{c.String(), cpu.Level(c), func() (func() hash.Hash, *Server) {
			s := NewServer(a, WithCPU(c))
			return s.NewHash, s
		}})
	}
	return impls
}

// reportLaneFill adds the share of the multi-lane kernels' time that went
// to lanes in use, and the multi-lane kernel calls per iteration, when s
// ran any: with a noisy machine's throughput swinging between runs, they
// tell an engine change from the noise. Calls count the rounds: a round
// ends where its shortest lane runs out, so lanes out of step with one
// another show as more calls for the same bytes.
func reportLaneFill(b *testing.B, s *Server) {
	if s == nil {
		return
	}
	if st := s.Stats(); st.MultiCapacity > 0 {
		b.ReportMetric(float64(st.MultiBlocks)/float64(st.MultiCapacity), "lanefill")
		b.ReportMetric(float64(st.MultiCalls)/float64(b.N), "calls/op")
	}
}

// BenchmarkStreams is the workload: N goroutines, each hashing its
// own message of SIZE bytes written in 32 KiB pieces through a fresh
// hasher. Run with -cpu 1 (GOMAXPROCS=1) unless measuring scaling.
func BenchmarkStreams(b *testing.B) {
	const piece = 32 << 10
	r := rand.New(rand.NewPCG(1, 2))
	for _, a := range []Algorithm{MD5, SHA1, SHA256, SHA512} {
		for _, impl := range benchImpls(a) {
			for _, n := range []int{1, 2, 4, 8, 16, 32, 64} {
				sizes := []int{32 << 10, 1 << 20}
				if n == 32 {
					// Longer streams, so that their common start and end weigh
					// less in the two-core runs.
					sizes = append(sizes, 4<<20)
				}
				for _, size := range sizes {
					name := fmt.Sprintf("alg=%v/impl=%s/streams=%d/size=%s", a, impl.name, n, workload.SizeName(int64(size)))
					b.Run(name, func(b *testing.B) {
						cputest.Require(b, impl.level)
						newHash, srv := impl.new()
						msgs := make([][]byte, n)
						for i := range msgs {
							msgs[i] = randomBytes(r, size) // separate allocations, as separate requests would have
						}
						b.SetBytes(int64(n * size))
						b.ReportAllocs()
						var wg sync.WaitGroup
						for b.Loop() {
							for _, m := range msgs {
								wg.Go(func() {
									h := newHash()
									for p := m; len(p) > 0; p = p[min(piece, len(p)):] {
										h.Write(p[:min(piece, len(p))])
									}
									h.Sum(nil)
								})
							}
							wg.Wait()
						}
						reportLaneFill(b, srv)
					})
				}
			}
		}
	}
}

// BenchmarkSum measures one-shot Sum against the standard library's.
func BenchmarkSum(b *testing.B) {
	for _, a := range []Algorithm{MD5} {
		for _, size := range []int{64, 1 << 10, 32 << 10, 1 << 20} {
			msg := make([]byte, size)
			b.Run(fmt.Sprintf("alg=%v/impl=stdlib/size=%s", a, workload.SizeName(int64(size))), func(b *testing.B) {
				b.SetBytes(int64(size))
				b.ReportAllocs()
				for b.Loop() {
					md5.Sum(msg)
				}
			})
			b.Run(fmt.Sprintf("alg=%v/impl=hashlanes/size=%s", a, workload.SizeName(int64(size))), func(b *testing.B) {
				b.SetBytes(int64(size))
				b.ReportAllocs()
				for b.Loop() {
					Sum(a, msg)
				}
			})
		}
	}
}
