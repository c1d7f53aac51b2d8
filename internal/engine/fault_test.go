package engine

import (
	"crypto/sha256"
	"errors"
	"fmt"
	"io"
	"math/rand/v2"
	"runtime"
	"sync"
	"sync/atomic"
	"testing"
	"time"
)

// faultReader hands out a message the way a socket does: in pieces of
// uneven size, pausing between some of them, and, if fail is set, failing
// partway through, as a client that goes away does.
type faultReader struct {
	msg   []byte
	rng   *rand.Rand
	stall time.Duration // longest pause before a piece; 0: none
	fail  int           // fail once this many bytes are read; -1: never
}

var errClientGone = errors.New("client went away")

func (f *faultReader) Read(p []byte) (int, error) {
	if f.fail == 0 {
		return 0, errClientGone
	}
	if len(f.msg) == 0 {
		return 0, io.EOF
	}
	if f.stall > 0 && f.rng.IntN(4) == 0 {
		time.Sleep(time.Duration(f.rng.Int64N(int64(f.stall))))
	}
	n := min(len(p), len(f.msg), 1+f.rng.IntN(48<<10))
	if f.fail >= 0 {
		n = min(n, f.fail)
		f.fail -= n
	}
	n = copy(p, f.msg[:n])
	f.msg = f.msg[n:]
	return n, nil
}

// TestFaults runs streams whose data arrives as a faulty network delivers
// it, some abandoned partway: their hashers are dropped unsummed, at one
// and at several Ps. The streams that finish must get their digests, and
// nothing may stay behind: no request in the queue or in lanes, no
// combiner, no goroutine, and no reference to a dropped hasher (each is
// collected).
func TestFaults(t *testing.T) {
	for _, procs := range []int{1, 2} {
		t.Run(fmt.Sprint("procs=", procs), func(t *testing.T) {
			defer runtime.GOMAXPROCS(runtime.GOMAXPROCS(procs))
			testFaults(t, procs)
		})
	}
}

func testFaults(t *testing.T, procs int) {
	var r refKernels
	s := r.server()
	const streams = 96
	rng := rand.New(rand.NewPCG(uint64(procs), 21))
	msgs := make([][]byte, streams)
	for i := range msgs {
		msgs[i] = make([]byte, rng.IntN(256<<10))
		for j := range msgs[i] {
			msgs[i][j] = byte(rng.Uint32())
		}
	}
	goroutines := runtime.NumGoroutine()
	var dropped, collected atomic.Int64
	var wg sync.WaitGroup
	for i, m := range msgs {
		wg.Go(func() {
			rng := rand.New(rand.NewPCG(uint64(i), 22))
			f := &faultReader{msg: m, rng: rng, fail: -1}
			if i%3 == 0 {
				f.stall = 2 * time.Millisecond
			}
			if i%4 == 1 {
				f.fail = rng.IntN(len(m) + 1)
			}
			h := s.NewHash()
			_, err := io.CopyBuffer(h, f, make([]byte, 32<<10))
			if err != nil {
				if !errors.Is(err, errClientGone) {
					t.Errorf("stream %d: %v", i, err)
				}
				dropped.Add(1)
				runtime.AddCleanup(h, func(*atomic.Int64) { collected.Add(1) }, &collected)
				return // the hasher is dropped mid-message
			}
			if got, want := h.Sum(nil), sha256.Sum256(m); string(got) != string(want[:]) {
				t.Errorf("stream %d (%d bytes): got %x, want %x", i, len(m), got, want)
			}
		})
	}
	wg.Wait()
	if dropped.Load() == 0 {
		t.Fatal("no stream was abandoned: the test tests nothing")
	}
	s.mu.Lock()
	if s.head != nil || s.queued != 0 || s.inLanes != 0 || s.combiners != 0 || s.awaiting != nil {
		t.Errorf("left behind: head %v, queued %d, in lanes %d, combiners %d, awaiting %v", s.head != nil, s.queued, s.inLanes, s.combiners, s.awaiting != nil)
	}
	s.mu.Unlock()
	deadline := time.Now().Add(5 * time.Second)
	for {
		runtime.GC()
		if collected.Load() == dropped.Load() && runtime.NumGoroutine() <= goroutines {
			break
		}
		if time.Now().After(deadline) {
			t.Fatalf("after 5 s: %d of %d dropped hashers collected, %d goroutines (%d before)",
				collected.Load(), dropped.Load(), runtime.NumGoroutine(), goroutines)
		}
		time.Sleep(10 * time.Millisecond)
	}
	if r.badCalls.Load() != 0 {
		t.Errorf("%d kernel calls outside the contract", r.badCalls.Load())
	}
	st := s.Stats()
	if st.MultiBlocks == 0 {
		t.Errorf("no stream shared lanes: %+v", st)
	}
	t.Logf("%d of %d streams dropped; stats %+v", dropped.Load(), streams, st)
}
