package engine

import (
	"fmt"
	"hash"
	"sync"
	"testing"

	"github.com/hashlanes/hashlanes/internal/kernel"
	sha256k "github.com/hashlanes/hashlanes/internal/kernel/sha256"
	"github.com/hashlanes/hashlanes/internal/tuning"
	"github.com/hashlanes/hashlanes/internal/workload"
)

// overheadSize is the stream workload's message: 1 MiB, so 32 writes of
// workload.WriteSize per stream.
const overheadSize = 1 << 20

// BenchmarkRoundOverhead runs the stream workload (one goroutine per
// stream, 1 MiB in 32 KiB writes) on kernels that hash nothing, so what
// it times is the engine's own cost of a write: queuing, planning,
// parking and waking the writer. The kernels have the shapes SHA-1 and
// SHA-256 run at N=16: 16 alike lanes, or a hybrid of 8 lanes and 2 fast
// ones that take 4 blocks to their 1, whose rounds are four times as many
// and wake a quarter as many writers each. Compare BenchmarkRoundFloor,
// the bare Go scheduling that each write needs.
func BenchmarkRoundOverhead(b *testing.B) {
	for _, shape := range []kernel.Multi[sha256k.State]{
		{Name: "alike16", Lanes: 16},
		{Name: "hybrid10", Lanes: 10, Fast: 2, FastBlocks: 4},
	} {
		for _, streams := range []int{16, 32} {
			b.Run(fmt.Sprintf("kernel=%s/streams=%d", shape.Name, streams), func(b *testing.B) {
				s := nullServer(shape, lanesAlways)
				msgs := nullMessages(streams)
				b.ResetTimer()
				newHash := func() hash.Hash { return s.NewHash() }
				for range b.N {
					workload.Streams(msgs, newHash, nil)
				}
				st := s.Stats()
				if st.MultiCalls == 0 || st.MultiBlocks+st.SingleBlocks != uint64(b.N*streams*overheadSize/sha256k.BlockSize) {
					b.Fatalf("stats %+v: blocks lost", st)
				}
				b.ReportMetric(float64(st.MultiCalls)/float64(b.N), "rounds/op")
				writes := b.N * streams * overheadSize / workload.WriteSize
				b.ReportMetric(float64(b.Elapsed().Nanoseconds())/float64(writes), "ns/write")
			})
		}
	}
}

// BenchmarkLoneWrite is the engine's cost of a write of a stream alone:
// one hasher writing 1 MiB in 32 KiB writes on kernels that hash nothing.
// On Zen 3 it was 130-136 ns a write at -cpu 1 in a quiet minute and up
// to 210 in noisy ones (0.7-1.1% of a SHA-1 write on SHA-NI, the fastest
// single stream), and 250-395 ns at -cpu 2, where each stream's first
// write looks for company and its yields wake the idle P. Run with
// -cpu 1,2.
func BenchmarkLoneWrite(b *testing.B) {
	s := nullServer(kernel.Multi[sha256k.State]{Name: "alike16", Lanes: 16}, lanesFrom2)
	msg := make([]byte, overheadSize)
	h := s.NewHash()
	for range b.N {
		h.Reset()
		for p := msg; len(p) > 0; p = p[workload.WriteSize:] {
			h.Write(p[:workload.WriteSize])
		}
	}
	if st := s.Stats(); st.MultiCalls != 0 || st.SingleBlocks != uint64(b.N*overheadSize/sha256k.BlockSize) {
		b.Fatalf("stats %+v: a lone stream went to the lanes or lost blocks", st)
	}
	b.ReportMetric(float64(b.Elapsed().Nanoseconds())/float64(b.N*overheadSize/workload.WriteSize), "ns/write")
}

// BenchmarkFewWrites is the engine's cost of a write of 2 and 3 streams
// written at once, one goroutine each, on kernels that hash nothing (a
// lone stream on the single-stream one). At one P they share lanes; at
// two, two streams can each run on a core of their own, and what a write
// costs there is how often a combiner looks for company that never comes.
// Run with -cpu 1,2.
func BenchmarkFewWrites(b *testing.B) {
	for _, streams := range []int{2, 3} {
		b.Run(fmt.Sprintf("streams=%d", streams), func(b *testing.B) {
			s := nullServer(kernel.Multi[sha256k.State]{Name: "alike16", Lanes: 16}, lanesFrom2)
			msgs := nullMessages(streams)
			newHash := func() hash.Hash { return s.NewHash() }
			b.ResetTimer()
			for range b.N {
				workload.Streams(msgs, newHash, nil)
			}
			st := s.Stats()
			total := st.MultiBlocks + st.SingleBlocks
			if total != uint64(b.N*streams*overheadSize/sha256k.BlockSize) {
				b.Fatalf("stats %+v: blocks lost", st)
			}
			b.ReportMetric(float64(st.MultiBlocks)/float64(total), "in-lanes")
			b.ReportMetric(float64(b.Elapsed().Nanoseconds())/float64(b.N*streams*overheadSize/workload.WriteSize), "ns/write")
		})
	}
}

// Rates of nullServer's single-stream kernel against its lanes' 1000.
const (
	lanesAlways = 1   // every round in the lanes, even of one stream
	lanesFrom2  = 100 // a lone stream on the single-stream kernel, two or more in the lanes
)

// nullServer is a Server whose kernels hash nothing: a single-stream one
// rated singleRate, and shape's multi-lane one (its Fn set here) rated
// 1000.
func nullServer(shape kernel.Multi[sha256k.State], singleRate float64) *Server[sha256k.State] {
	return nullServerAt(shape, singleRate, 1000)
}

// nullServerAt is nullServer with the lanes moving lanesRate with every
// lane busy.
func nullServerAt(shape kernel.Multi[sha256k.State], singleRate, lanesRate float64) *Server[sha256k.State] {
	shape.Fn = func(*[kernel.MaxLanes]*sha256k.State, *[kernel.MaxLanes]*byte, uint32, int) {}
	return NewServer(testSpec, Kernels[sha256k.State]{
		Single: kernel.Single[sha256k.State]{Name: "null", Fn: func(*sha256k.State, []byte) {}},
		Multi:  []kernel.Multi[sha256k.State]{shape},
	}, tuning.Fixed(&tuning.Rates{Kernels: map[string]float64{"null": singleRate, shape.Name: lanesRate}}, "test"))
}

// nullMessages is n messages of overheadSize zero bytes, for the null
// kernels.
func nullMessages(n int) [][]byte {
	msgs := make([][]byte, n)
	for i := range msgs {
		msgs[i] = make([]byte, overheadSize)
	}
	return msgs
}

// BenchmarkRoundFloor is the least any engine pays per write of 16
// streams in 16 goroutines, in rounds of one write each: each writer
// checks in under a mutex and parks on its own channel; the last one in
// wakes a driver that wakes them all, as a combiner wakes its lanes'
// writers.
func BenchmarkRoundFloor(b *testing.B) {
	const streams, rounds = 16, overheadSize / workload.WriteSize
	for range b.N {
		var (
			wg      sync.WaitGroup
			mu      sync.Mutex
			arrived int
			all     = make(chan struct{}, 1)
			wake    = make([]chan struct{}, streams)
		)
		for i := range wake {
			wake[i] = make(chan struct{}, 1)
		}
		for i := range streams {
			wg.Go(func() {
				for range rounds {
					mu.Lock()
					arrived++
					last := arrived == streams
					if last {
						arrived = 0
					}
					mu.Unlock()
					if last {
						all <- struct{}{}
					}
					<-wake[i]
				}
			})
		}
		for range rounds {
			<-all
			for _, w := range wake {
				w <- struct{}{}
			}
		}
		wg.Wait()
	}
	b.ReportMetric(float64(b.Elapsed().Nanoseconds())/float64(b.N*rounds*streams), "ns/write")
}
