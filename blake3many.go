package hashlanes

import (
	"runtime"
	"sync"

	"github.com/hashlanes/hashlanes/internal/blake3tree"
	"github.com/hashlanes/hashlanes/internal/engine"
)

// wholeBatcher hashes the whole short streams of concurrent SumStreams
// workers together in BLAKE3's lanes (blake3tree.SumMany), by flat
// combining as the engine does for the other algorithms' blocks: a worker
// queues its stream's bytes and, if no worker is combining, combines:
// it lets the others queue (a few yields while fewer than a kernel call's
// worth wait), hashes what is queued in one call, hands the digests back
// and wakes their workers, until its own is done. A stream of BLAKE3 is
// otherwise a chain of compressions through its chunks' blocks, one
// stream after another.
type wholeBatcher struct {
	mu        sync.Mutex
	queue     []*wholeStream
	combining bool
}

// wholeStream is one stream waiting for, or in, a batch.
type wholeStream struct {
	msg  []byte
	sum  [32]byte
	done bool
	wake chan struct{}
}

// wholeBatchMax bounds a batch: enough for two kernel calls of last
// chunks, and a bound on how long the first stream of a batch waits.
const wholeBatchMax = 32

var blake3Whole wholeBatcher

// sum hashes w.msg with the streams other workers queue meanwhile. The
// wake channel is the worker's, from one stream to the next; a token on it
// only has the worker look at its stream again.
func (b *wholeBatcher) sum(w *wholeStream) {
	b.mu.Lock()
	b.queue = append(b.queue, w)
	for !w.done {
		if !b.combining {
			b.combine(w)
			break
		}
		b.mu.Unlock()
		<-w.wake
		b.mu.Lock()
	}
	b.mu.Unlock()
}

// combine runs batches until me is done; b.mu is held on entry and on
// return.
func (b *wholeBatcher) combine(me *wholeStream) {
	b.combining = true
	var msgs [wholeBatchMax][]byte
	var batch [wholeBatchMax]*wholeStream
	var sums [wholeBatchMax * 32]byte
	for !me.done {
		// Let the workers that are runnable queue; stop after two yields
		// that bring nobody (docs/engine.md, "Yields").
		for y, idle := 0, 0; len(b.queue) < 16 && y < 4 && idle < 2; y++ {
			before := len(b.queue)
			b.mu.Unlock()
			runtime.Gosched()
			b.mu.Lock()
			if len(b.queue) == before {
				idle++
			}
		}
		n := copy(batch[:], b.queue)
		b.queue = b.queue[:copy(b.queue, b.queue[n:])]
		b.mu.Unlock()
		for i, w := range batch[:n] {
			msgs[i] = w.msg
		}
		blake3tree.SumMany(sums[:0], blake3tree.Hash(), msgs[:n], 32)
		b.mu.Lock()
		for i, w := range batch[:n] {
			copy(w.sum[:], sums[32*i:])
			w.done, w.msg = true, nil
			if w != me {
				engine.Signal(w.wake)
			}
			msgs[i], batch[i] = nil, nil
		}
	}
	b.combining = false
	if len(b.queue) > 0 {
		engine.Signal(b.queue[0].wake) // its worker combines next
	}
}
