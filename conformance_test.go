package hashlanes

import (
	"encoding"
	"hash"
	"strings"
	"testing"

	"golang.org/x/crypto/blake2b"

	"github.com/hashlanes/hashlanes/internal/hashtest"
)

// TestHashConformance runs the hash.Hash contract checks (those of the
// toolchain's internal/testhash, and the state encoding's) on every
// algorithm through every front door that returns a hash.Hash: New, and a
// Server's NewHash at every CPU tier this machine has.
func TestHashConformance(t *testing.T) {
	all := Algorithms()
	for i, a := range all {
		other := all[(i+1)%len(all)] // its saved state must be refused
		foreign := func() hash.Hash {
			h := New(other)
			h.Write([]byte("another algorithm's state"))
			return h
		}
		t.Run(a.String(), func(t *testing.T) {
			t.Run("New", func(t *testing.T) { hashtest.Run(t, func() hash.Hash { return New(a) }, foreign) })
			forEachCPU(t, a, func(t *testing.T, s *Server) { hashtest.Run(t, s.NewHash, foreign) })
		})
	}
}

// TestBLAKE2StateFields checks the states the library itself would take
// but this hasher must not: another digest size's, and an offset past the
// block, which would make the next Write panic.
func TestBLAKE2StateFields(t *testing.T) {
	short, err := blake2b.New256(nil)
	if err != nil {
		t.Fatal(err)
	}
	short.Write([]byte("abc"))
	s256, err := short.(encoding.BinaryMarshaler).MarshalBinary()
	if err != nil {
		t.Fatal(err)
	}
	h := New(BLAKE2b)
	h.Write([]byte("abc"))
	s512, err := h.(encoding.BinaryMarshaler).MarshalBinary()
	if err != nil {
		t.Fatal(err)
	}
	before := h.Sum(nil)
	past := append([]byte(nil), s512...)
	past[len(past)-1] = blake2b.BlockSize + 1
	for name, s := range map[string][]byte{"BLAKE2b-256": s256, "offset past the block": past} {
		err := h.(encoding.BinaryUnmarshaler).UnmarshalBinary(s)
		if err == nil || !strings.HasPrefix(err.Error(), "hashlanes: blake2b: ") {
			t.Errorf("%s state: %v, want a hashlanes: blake2b: error", name, err)
		}
		if got := h.Sum(nil); string(got) != string(before) || h.Size() != 64 {
			t.Errorf("%s state refused, but the hasher changed", name)
		}
	}
}

// TestBLAKE3State saves and restores BLAKE3 states around its chunk (1 KiB)
// and tree boundaries, where the library's stack of subtrees comes in.
func TestBLAKE3State(t *testing.T) {
	msg := make([]byte, 70_000)
	for i := range msg {
		msg[i] = byte(i * 31 >> 3)
	}
	want := refSum(BLAKE3, msg)
	for _, n := range []int{0, 1023, 1024, 1025, 2047, 2048, 2049, 3072, 4096 + 7, 8192, 16385, 65536, len(msg)} {
		h := New(BLAKE3)
		h.Write(msg[:n])
		s, err := h.(encoding.BinaryMarshaler).MarshalBinary()
		if err != nil {
			t.Fatal(err)
		}
		r := New(BLAKE3)
		if err := r.(encoding.BinaryUnmarshaler).UnmarshalBinary(s); err != nil {
			t.Fatalf("after %d bytes: %v", n, err)
		}
		r.Write(msg[n:])
		if got := r.Sum(nil); string(got) != string(want) {
			t.Errorf("restored after %d bytes: %x, want %x", n, got, want)
		}
		c, _ := h.(hash.Cloner).Clone()
		c.Write(msg[n:])
		if got := c.Sum(nil); string(got) != string(want) {
			t.Errorf("cloned after %d bytes: %x, want %x", n, got, want)
		}
	}
}
