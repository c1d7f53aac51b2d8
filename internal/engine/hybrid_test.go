package engine

import (
	"crypto/sha256"
	"encoding/binary"
	"math/rand/v2"
	"sync"
	"sync/atomic"
	"testing"
	"unsafe"

	"github.com/hashlanes/hashlanes/internal/kernel"
	sha256k "github.com/hashlanes/hashlanes/internal/kernel/sha256"
	"github.com/hashlanes/hashlanes/internal/tuning"
)

// appendWords appends a SHA-256 state's words big-endian: its digest and
// its marshalled chaining value alike.
func appendWords(b []byte, s *sha256k.State) []byte {
	for _, w := range s {
		b = binary.BigEndian.AppendUint32(b, w)
	}
	return b
}

// testSpec is SHA-256, for tests that need a real algorithm under the
// engine.
var testSpec = &sha256k.Spec256

// refBlock is the pure-Go single-stream block function.
func refBlock() func(*sha256k.State, []byte) {
	for _, s := range sha256k.Singles() {
		if s.Reference {
			return s.Fn
		}
	}
	panic("no reference kernel")
}

// refKernels are pure-Go kernels in the engine's usual roles: a hybrid
// one (2 fast lanes of 4 blocks and 8 lanes), rated far above a 4-lane
// kernel of alike lanes, rated above the single-stream one. Each counts
// its calls; the hybrid one also counts calls outside its contract.
type refKernels struct {
	hybridCalls, alikeCalls, badCalls atomic.Int64
}

func (r *refKernels) kernels() Kernels[sha256k.State] {
	block := refBlock()
	hybrid := kernel.Multi[sha256k.State]{Name: "hybrid", Lanes: 10, Fast: 2, FastBlocks: 4}
	hybrid.Fn = func(states *[kernel.MaxLanes]*sha256k.State, ptrs *[kernel.MaxLanes]*byte, mask uint32, nblocks int) {
		r.hybridCalls.Add(1)
		if nblocks <= 0 || nblocks > hybrid.MaxBlocks(sha256k.BlockSize) || mask&^(1<<hybrid.Lanes-1) != 0 {
			r.badCalls.Add(1)
			return
		}
		for i := range hybrid.Lanes {
			if mask&(1<<i) != 0 {
				block(states[i], unsafe.Slice(ptrs[i], hybrid.LaneBlocks(i, nblocks)*sha256k.BlockSize))
			}
		}
	}
	alike := kernel.Reference(block, sha256k.BlockSize)
	alike.Name, alike.Lanes, alike.Reference = "alike", 4, false
	fn := alike.Fn
	alike.Fn = func(states *[kernel.MaxLanes]*sha256k.State, ptrs *[kernel.MaxLanes]*byte, mask uint32, nblocks int) {
		r.alikeCalls.Add(1)
		if mask&^0xf != 0 {
			r.badCalls.Add(1)
		}
		fn(states, ptrs, mask, nblocks)
	}
	return Kernels[sha256k.State]{
		Single: kernel.Single[sha256k.State]{Name: "generic", Fn: block},
		Multi:  []kernel.Multi[sha256k.State]{alike, hybrid},
	}
}

// refRates rates refKernels' kernels: the hybrid above the alike lanes
// above the single-stream kernel.
var refRates = &tuning.Rates{Kernels: map[string]float64{"generic": 100, "alike": 300, "hybrid": 1000}}

// server returns a Server of refKernels at refRates.
func (r *refKernels) server() *Server[sha256k.State] {
	return NewServer(testSpec, r.kernels(), tuning.Fixed(refRates, "test"))
}

// TestPlanHybrid checks the rounds planned on a hybrid kernel: the
// requests with the most blocks left in its fast lanes, the block count
// that neither overruns a fast lane nor any other, a quarter of the
// bound per call when several Ps share the streams, and a kernel of
// alike lanes when the fast lanes would get no block.
func TestPlanHybrid(t *testing.T) {
	var r refKernels
	s := r.server()
	for _, tc := range []struct {
		blocks       []int // left in each busy request
		shared       bool
		kernel       string
		used, nb     int
		fast0, fast1 int // blocks of the requests moved to lanes 0 and 1
	}{
		{[]int{20, 100, 50, 64, 30, 40, 200, 16, 18, 22}, false, "hybrid", 10, 16, 200, 100},
		{[]int{40, 1000, 1000, 1000, 44, 1000, 1000, 1000, 1000, 1000, 1000, 1000}, false, "hybrid", 10, 40, 1000, 1000},
		{[]int{1000, 1000, 1000, 1000, 1000, 1000, 1000, 1000, 1000, 1000}, false, "hybrid", 10, 250, 1000, 1000},
		{[]int{2000, 2000, 2000}, false, "hybrid", 3, 256, 2000, 2000},
		{[]int{2000, 2000, 2000}, true, "hybrid", 3, 64, 2000, 2000},
		{[]int{2000, 2000, 2000, 30}, true, "hybrid", 4, 30, 2000, 2000},
		{[]int{9, 5, 7}, false, "hybrid", 3, 1, 9, 7},
		{[]int{3, 3, 2, 3}, false, "alike", 4, 2, 0, 0},
	} {
		c := new(combiner[sha256k.State])
		for i, n := range tc.blocks {
			st := new(sha256k.State)
			c.reqs[i] = &request[sha256k.State]{state: st, p: make([]byte, n*sha256k.BlockSize)}
			c.states[i], c.ptrs[i] = st, &c.reqs[i].p[0]
		}
		k, used, nb := s.plan(c, len(tc.blocks), tc.shared)
		if got := s.kern.Multi[k].Name; got != tc.kernel || used != tc.used || nb != tc.nb {
			t.Errorf("%v: planned %s, %d lanes, %d blocks; want %s, %d, %d", tc.blocks, got, used, nb, tc.kernel, tc.used, tc.nb)
			continue
		}
		for i, req := range c.reqs[:len(tc.blocks)] {
			if c.states[i] != req.state || c.ptrs[i] != &req.p[0] {
				t.Errorf("%v: lane %d's state or pointer is not its request's", tc.blocks, i)
			}
		}
		if tc.kernel == "hybrid" {
			if got0, got1 := len(c.reqs[0].p)/sha256k.BlockSize, len(c.reqs[1].p)/sha256k.BlockSize; got0 != tc.fast0 || got1 != tc.fast1 {
				t.Errorf("%v: fast lanes have %d and %d blocks, want %d and %d", tc.blocks, got0, got1, tc.fast0, tc.fast1)
			}
		}
	}
}

// TestHybridStreams runs concurrent streams of random lengths, in writes
// of random sizes, through a server whose best kernel is a hybrid one, and
// checks every digest against crypto/sha256.
func TestHybridStreams(t *testing.T) {
	var r refKernels
	s := r.server()
	const streams = 24
	rng := rand.New(rand.NewPCG(11, 12))
	msgs := make([][]byte, streams)
	for i := range msgs {
		msgs[i] = make([]byte, rng.IntN(300*sha256k.BlockSize))
		for j := range msgs[i] {
			msgs[i][j] = byte(rng.Uint32())
		}
	}
	var wg sync.WaitGroup
	for i, m := range msgs {
		seed := uint64(i)
		wg.Go(func() {
			rng := rand.New(rand.NewPCG(seed, 13))
			h := s.NewHash()
			for p := m; len(p) > 0; {
				n := min(len(p), 1+rng.IntN(80*sha256k.BlockSize))
				h.Write(p[:n])
				p = p[n:]
			}
			if got, want := h.Sum(nil), sha256.Sum256(m); string(got) != string(want[:]) {
				t.Errorf("stream %d (%d bytes): got %x, want %x", i, len(m), got, want)
			}
		})
	}
	wg.Wait()
	if r.badCalls.Load() != 0 {
		t.Errorf("%d kernel calls outside the contract", r.badCalls.Load())
	}
	if r.hybridCalls.Load() == 0 {
		t.Errorf("the hybrid kernel never ran (%d calls of the other)", r.alikeCalls.Load())
	}
	t.Logf("hybrid calls %d, alike calls %d, stats %+v", r.hybridCalls.Load(), r.alikeCalls.Load(), s.Stats())
}

// TestStatsCapacity checks the counters of rounds with lanes left empty:
// a hybrid kernel's fast lanes count FastBlocks times as many blocks, in
// use or not.
func TestStatsCapacity(t *testing.T) {
	var r refKernels
	s := r.server()
	var states [kernel.MaxLanes]*sha256k.State
	var ptrs [kernel.MaxLanes]*byte
	buf := make([]byte, 4*3*sha256k.BlockSize)
	for i := range 3 {
		states[i], ptrs[i] = new(sha256k.State), &buf[0]
	}
	s.round(1, 3, 2, &states, &ptrs) // hybrid: 2 fast lanes of 8 blocks, 1 lane of 2, 7 empty
	s.round(0, 3, 2, &states, &ptrs) // alike: 3 of 4 lanes, 2 blocks each
	s.round(-1, 2, 3, &states, &ptrs)
	want := Stats{MultiCalls: 2, MultiBlocks: 2*8 + 2 + 3*2, MultiCapacity: 2*8 + 8*2 + 4*2, SingleBlocks: 2 * 3}
	if got := s.Stats(); got != want {
		t.Errorf("stats %+v, want %+v", got, want)
	}
}
