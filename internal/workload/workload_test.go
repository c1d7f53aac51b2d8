package workload

import (
	"bytes"
	"crypto/sha256"
	"hash"
	"sync"
	"testing"
)

// writeLog is a hash.Hash that records the sizes of its writes.
type writeLog struct {
	hash.Hash
	sizes []int
}

func (w *writeLog) Write(p []byte) (int, error) {
	w.sizes = append(w.sizes, len(p))
	return w.Hash.Write(p)
}

func TestStreams(t *testing.T) {
	msgs := [][]byte{make([]byte, 3*WriteSize+5), nil, make([]byte, WriteSize)}
	for i := range msgs[0] {
		msgs[0][i] = byte(i)
	}
	var mu sync.Mutex
	var done []*writeLog
	Streams(msgs, func() hash.Hash { return &writeLog{Hash: sha256.New()} }, func(h hash.Hash) {
		mu.Lock()
		defer mu.Unlock()
		done = append(done, h.(*writeLog))
	})
	if len(done) != len(msgs) {
		t.Fatalf("%d hashers done, want %d", len(done), len(msgs))
	}
	seen := map[string]bool{}
	for _, h := range done {
		seen[string(h.Sum(nil))] = true
		for i, n := range h.sizes {
			if n > WriteSize || n < WriteSize && i != len(h.sizes)-1 {
				t.Errorf("writes of %v bytes", h.sizes)
			}
		}
	}
	for _, m := range msgs {
		if sum := sha256.Sum256(m); !seen[string(sum[:])] {
			t.Errorf("no hasher saw all %d bytes of a message", len(m))
		}
	}
	Streams(msgs, sha256.New, nil) // done may be nil
}

func TestURLPaths(t *testing.T) {
	paths := URLPaths(10000)
	for _, p := range paths {
		if len(p) < 40 || len(p) > 75 {
			t.Fatalf("path of %d bytes", len(p))
		}
	}
	if !bytes.Equal(URLPaths(3)[2], paths[2]) {
		t.Fatal("corpus is not deterministic")
	}
}

func TestSizeName(t *testing.T) {
	for n, want := range map[int64]string{128: "128B", 1000: "1000B", 8 << 10: "8KiB", 1536: "1536B", 64 << 20: "64MiB"} {
		if got := SizeName(n); got != want {
			t.Errorf("SizeName(%d) = %q, want %q", n, got, want)
		}
	}
}
