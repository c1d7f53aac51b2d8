package blake3tree

import (
	"bytes"
	"fmt"
	"math/rand/v2"
	"testing"

	"lukechampine.com/blake3"
)

// TestHasher checks the stream hasher against the reference in every
// mode and kernel set: lengths around chunks, groups and their multiples,
// written in random pieces (empty ones, pieces past a group, which go
// straight from the caller's slice), Sum mid-stream, and the state saved
// and restored at any point, a group's start or not (a restored state off
// a group's start compresses chunk by chunk up to the next).
func TestHasher(t *testing.T) {
	forEachKernelSet(t, func(t *testing.T) {
		r := rand.New(rand.NewPCG(31, 32))
		data := make([]byte, 5*group+3*chunk+11)
		for i := range data {
			data[i] = byte(r.Uint32())
		}
		var lengths []int
		for _, base := range []int{0, chunk, group, 2 * group, 5 * group} {
			for _, d := range []int{-chunk - 1, -1, 0, 1, chunk, chunk + 1, 3*chunk + 11} {
				if n := base + d; n >= 0 && n <= len(data) {
					lengths = append(lengths, n)
				}
			}
		}
		for _, mode := range []string{"hash", "keyed", "derive"} {
			m := modeNamed(mode)
			for _, n := range lengths {
				msg := data[:n]
				for _, outLen := range []int{32, 100} {
					want := reference(mode, msg, outLen)
					h := NewHasher(m)
					for p := msg; len(p) > 0; {
						k := min(len(p), r.IntN(3*group)+1)
						if r.IntN(8) == 0 {
							k = 0
						}
						h.Write(p[:k])
						p = p[k:]
						if r.IntN(4) == 0 {
							h.Sum(nil, 32) // leaves the state as it was
						}
					}
					if got := h.Sum([]byte("x"), outLen); got[0] != 'x' || !bytes.Equal(got[1:], want) {
						t.Fatalf("%s, %d bytes, %d out: %x, want %x", mode, n, outLen, got[1:], want)
					}
				}
				// Saved and restored at a random point, then the rest.
				cut := r.IntN(n + 1)
				h := NewHasher(m)
				h.Write(msg[:cut])
				counter, subtrees, last := h.State()
				g := NewHasher(m)
				if err := g.SetState(counter, subtrees, last); err != nil {
					t.Fatalf("%s, %d bytes cut at %d: %v", mode, n, cut, err)
				}
				c2, s2, l2 := g.State()
				if c2 != counter || fmt.Sprint(s2) != fmt.Sprint(subtrees) || !bytes.Equal(l2, last) {
					t.Fatalf("%s, cut at %d: the state saves back otherwise", mode, cut)
				}
				for p := msg[cut:]; len(p) > 0; {
					k := min(len(p), r.IntN(2*group)+1)
					g.Write(p[:k])
					p = p[k:]
				}
				if got, want := g.Sum(nil, 32), reference(mode, msg, 32); !bytes.Equal(got, want) {
					t.Fatalf("%s, %d bytes restored at %d (counter %d): %x, want %x", mode, n, cut, counter, got, want)
				}
			}
		}
		// No hasher is in these states.
		h := NewHasher(Hash())
		for _, s := range []struct {
			counter  uint64
			subtrees [][8]uint32
			last     []byte
		}{
			{1, [][8]uint32{{}}, nil},           // chunks before, none last
			{0, nil, make([]byte, chunk+1)},     // more than a chunk last
			{3, [][8]uint32{{}}, []byte{1}},     // a subtree missing
			{2, [][8]uint32{{}, {}}, []byte{1}}, // one too many
		} {
			if err := h.SetState(s.counter, s.subtrees, s.last); err != ErrState {
				t.Errorf("SetState(%d, %d subtrees, %d bytes): %v", s.counter, len(s.subtrees), len(s.last), err)
			}
		}
	})
}

// BenchmarkHasher writes 1 MiB in pieces of 64 KiB into the stream hasher
// and into lukechampine.com/blake3's.
func BenchmarkHasher(b *testing.B) {
	msg := make([]byte, 1<<20)
	for _, k := range kernelSets {
		b.Run(k.name, func(b *testing.B) {
			if k.flag != "" && !k.have() {
				b.Skip("no " + k.flag)
			}
			defer func(u16, u8 bool) { use16, use8 = u16, u8 }(use16, use8)
			use16, use8 = k.use16, k.use8
			h := NewHasher(Hash())
			b.SetBytes(int64(len(msg)))
			for b.Loop() {
				h.Reset()
				for p := msg; len(p) > 0; p = p[64<<10:] {
					h.Write(p[:64<<10])
				}
				h.Sum(nil, 32)
			}
		})
	}
	b.Run("luke", func(b *testing.B) {
		h := blake3.New(32, nil)
		b.SetBytes(int64(len(msg)))
		for b.Loop() {
			h.Reset()
			for p := msg; len(p) > 0; p = p[64<<10:] {
				h.Write(p[:64<<10])
			}
			h.Sum(nil)
		}
	})
}
