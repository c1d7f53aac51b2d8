package engine

import (
	"bytes"
	"crypto/sha256"
	"testing"
)

// TestShortMessagesOfAReusedStream follows a SHA-256 stream reset and
// reused for messages of mixed lengths: where its single-stream kernel is
// Short, a message whose first write is short runs in the engine, and
// where it is not, in the library's hasher, as a new stream's first
// message does either way. Each digest is checked against the standard
// library's (a message stays where its first write put it), and a state
// saved mid-message goes on in the standard library's hasher and after a
// restore.
func TestShortMessagesOfAReusedStream(t *testing.T) {
	msg := messages(21)
	const short, long = 100, 2 << 10 // under and over laneMin
	for _, kernelShort := range []bool{true, false} {
		s := shortServer(kernelShort)
		h := s.NewHash()
		plan := [][]int{{short}, {short}, {short, 40, 7}, {long}, {long}, {short, long, 5}, {long, 10}, {3, 3}, {}, {short}}
		for i, writes := range plan {
			if i > 0 {
				h.Reset()
			}
			var whole []byte
			for j, n := range writes {
				p := msg(n)
				whole = append(whole, p...)
				h.Write(p)
				if j == 0 && (n < int(h.laneMin) || kernelShort) {
					// A new stream starts in the library's hasher; a reused
					// one's message runs in the engine if the kernel is
					// Short, short or long (a long write alone goes to the
					// kernel as a short one does). Where it is not, a long
					// write may leave the library's hasher for the lanes
					// as a new stream's would.
					want := i == 0 || !kernelShort
					if got := h.inLib(); got != want {
						t.Errorf("short kernel %v, message %d (writes %v): in the library's hasher %v after its first write, want %v", kernelShort, i, writes, got, want)
					}
				}
			}
			if want := sha256.Sum256(whole); !bytes.Equal(h.Sum(nil), want[:]) {
				t.Fatalf("short kernel %v, message %d (writes %v): wrong digest", kernelShort, i, writes)
			}
		}

		// A state saved mid-message, on the short path, goes on in the
		// standard library's hasher, and the other way round.
		h.Reset()
		head, tail := msg(70), msg(300)
		h.Write(head)
		st, err := h.MarshalBinary()
		if err != nil {
			t.Fatal(err)
		}
		lib := goOnInLibrary(t, sha256.New(), st, tail)
		h.Write(tail)
		want := sha256.Sum256(append(head, tail...))
		if !bytes.Equal(lib.Sum(nil), want[:]) || !bytes.Equal(h.Sum(nil), want[:]) {
			t.Errorf("short kernel %v: a state saved after a short write does not go on", kernelShort)
		}
		h.Reset()
		if err := h.UnmarshalBinary(st); err != nil {
			t.Fatal(err)
		}
		h.Write(tail) // long after the restore: the restored message goes on
		if !bytes.Equal(h.Sum(nil), want[:]) {
			t.Errorf("short kernel %v: a restored state lost to the next message's placement", kernelShort)
		}
	}
}
