// Package hashtest checks that a hash.Hash keeps the contract Go's
// standard library hashes keep, the checks of the toolchain's own suite
// (internal/testhash, run by crypto/internal/cryptotest for every
// standard-library hash) and those of the state encoding: Write never
// fails, never touches its argument and reads nothing outside it; Sum
// appends Size bytes without changing the state; Reset returns to the
// initial state; writes may be split anywhere; a clone is independent; a
// saved state restores, and a bad one is refused, leaving the hasher as it
// was.
package hashtest

import (
	"bytes"
	"encoding"
	"fmt"
	"hash"
	"math/rand/v2"
	"strings"
	"testing"
)

// Run runs every check on hashers made by newHash. foreign, if not nil,
// makes a hasher of another algorithm, whose saved state newHash's must
// refuse.
func Run(t *testing.T, newHash func() hash.Hash, foreign func() hash.Hash) {
	rng := rand.New(rand.NewPCG(1, 2))
	random := func(n int) []byte {
		b := make([]byte, n)
		for i := range b {
			b[i] = byte(rng.Uint32())
		}
		return b
	}
	bs := newHash().BlockSize()

	t.Run("SumAppends", func(t *testing.T) {
		h := newHash()
		write(t, h, random(bs+3))
		want := sum(t, h, nil)
		if len(want) != h.Size() {
			t.Fatalf("Sum appended %d bytes, Size is %d", len(want), h.Size())
		}
		for _, prefix := range [][]byte{{}, []byte("x"), random(bs + 1), make([]byte, 5, 64)} {
			keep := bytes.Clone(prefix)
			got := sum(t, h, prefix)
			if !bytes.Equal(got[:len(keep)], keep) || !bytes.Equal(got[len(keep):], want) {
				t.Errorf("Sum onto %d bytes: got %x, want %x then %x", len(keep), got, keep, want)
			}
		}
	})

	t.Run("WriteNeverFails", func(t *testing.T) {
		h := newHash()
		for _, p := range [][]byte{nil, {}, []byte("a"), random(bs - 1), random(bs), random(3*bs + 1)} {
			write(t, h, p)
		}
	})

	t.Run("Reset", func(t *testing.T) {
		h := newHash()
		empty := sum(t, h, nil)
		write(t, h, random(2*bs+7))
		h.Reset()
		if got := sum(t, h, nil); !bytes.Equal(got, empty) {
			t.Errorf("after Reset: %x, want the empty message's %x", got, empty)
		}
	})

	t.Run("ReadsOnlyItsSlice", func(t *testing.T) {
		msg := random(2*bs + 5)
		h := newHash()
		write(t, h, msg)
		want := sum(t, h, nil)
		for _, fill := range []byte{0x00, 0xff} {
			buf := bytes.Repeat([]byte{fill}, 3*len(msg))
			copy(buf[len(msg):], msg)
			h := newHash()
			write(t, h, buf[len(msg):2*len(msg)]) // with room past its end, as assembly could overread
			if got := sum(t, h, nil); !bytes.Equal(got, want) {
				t.Errorf("a slice inside bytes of %#x: got %x, want %x", fill, got, want)
			}
		}
	})

	t.Run("EverySplit", func(t *testing.T) {
		msg := random(2*bs + 3)
		h := newHash()
		write(t, h, msg)
		want := sum(t, h, nil)
		for i := 0; i <= len(msg); i++ {
			for _, j := range []int{i, (i + len(msg)) / 2, len(msg)} {
				h.Reset()
				write(t, h, msg[:i])
				sum(t, h, nil) // a Sum between writes changes nothing
				write(t, h, msg[i:j])
				write(t, h, msg[j:])
				if got := sum(t, h, nil); !bytes.Equal(got, want) {
					t.Fatalf("split at %d and %d: got %x, want %x", i, j, got, want)
				}
			}
		}
	})

	t.Run("Clone", func(t *testing.T) {
		h, ok := newHash().(hash.Cloner)
		if !ok {
			t.Fatalf("%T is not a hash.Cloner", newHash())
		}
		prefix, suffix := random(bs+1), random(2*bs-1)
		fresh := clone(t, h)
		write(t, h, prefix)
		mid := clone(t, h)
		atPrefix := sum(t, h, nil)
		write(t, h, suffix)
		whole := sum(t, h, nil)
		if got := sum(t, mid, nil); !bytes.Equal(got, atPrefix) {
			t.Errorf("a clone moved with its original: %x, want %x", got, atPrefix)
		}
		write(t, mid, suffix)
		write(t, fresh, append(bytes.Clone(prefix), suffix...))
		for name, c := range map[string]hash.Hash{"mid-message clone": mid, "initial clone": fresh} {
			if got := sum(t, c, nil); !bytes.Equal(got, whole) {
				t.Errorf("%s: %x, want %x", name, got, whole)
			}
		}
		if got := sum(t, h, nil); !bytes.Equal(got, whole) {
			t.Errorf("the original after its clones were written: %x, want %x", got, whole)
		}
	})

	t.Run("State", func(t *testing.T) {
		h := newHash()
		m, ok := h.(encoding.BinaryMarshaler)
		u, ok2 := h.(encoding.BinaryUnmarshaler)
		a, ok3 := h.(encoding.BinaryAppender)
		if !ok || !ok2 || !ok3 {
			t.Fatalf("%T lacks MarshalBinary, UnmarshalBinary or AppendBinary", h)
		}
		msg := random(5*bs + 3)
		var states [][]byte
		for _, n := range []int{0, 1, bs - 1, bs, bs + 1, 3*bs + 2, len(msg)} {
			h.Reset()
			write(t, h, msg[:n])
			s, err := m.MarshalBinary()
			if err != nil {
				t.Fatalf("after %d bytes: MarshalBinary: %v", n, err)
			}
			prefix := []byte("prefix")
			app, err := a.AppendBinary(bytes.Clone(prefix))
			if err != nil || !bytes.Equal(app, append(prefix, s...)) {
				t.Fatalf("after %d bytes: AppendBinary: %v, or not the prefix then MarshalBinary's state", n, err)
			}
			write(t, h, msg[n:])
			want := sum(t, h, nil)
			r := newHash()
			write(t, r, random(bs+9)) // whatever it was doing is replaced
			if err := r.(encoding.BinaryUnmarshaler).UnmarshalBinary(s); err != nil {
				t.Fatalf("after %d bytes: UnmarshalBinary: %v", n, err)
			}
			write(t, r, msg[n:])
			if got := sum(t, r, nil); !bytes.Equal(got, want) {
				t.Errorf("restored after %d bytes: %x, want %x", n, got, want)
			}
			states = append(states, s)
		}
		// Refused states leave the hasher as it was.
		h.Reset()
		write(t, h, msg[:bs+1])
		before := sum(t, h, nil)
		bad := map[string][]byte{"empty": nil, "magic only": states[0][:4]}
		for i, s := range states {
			bad[fmt.Sprint("truncated #", i)] = s[:len(s)-1]
			bad[fmt.Sprint("extended #", i)] = append(bytes.Clone(s), 0)
		}
		if foreign != nil {
			if fs, err := foreign().(encoding.BinaryMarshaler).MarshalBinary(); err == nil {
				bad["another algorithm's"] = fs
			}
		}
		for name, s := range bad {
			err := u.UnmarshalBinary(s)
			if err == nil {
				t.Errorf("%s state (%d bytes) accepted", name, len(s))
				h.Reset()
				write(t, h, msg[:bs+1])
				continue
			}
			if !strings.Contains(err.Error(), "state") {
				t.Errorf("%s state: error %q does not say what is wrong", name, err)
			}
			if got := sum(t, h, nil); !bytes.Equal(got, before) {
				t.Fatalf("%s state refused, but the hasher changed: %x, want %x", name, got, before)
			}
		}
	})
}

func write(t *testing.T, h hash.Hash, p []byte) {
	t.Helper()
	keep := bytes.Clone(p)
	n, err := h.Write(p)
	if n != len(p) || err != nil {
		t.Errorf("Write of %d bytes: %d, %v", len(p), n, err)
	}
	if !bytes.Equal(p, keep) {
		t.Errorf("Write changed its argument")
	}
}

// sum returns h.Sum(b), checking that a second Sum gives the same: Sum
// leaves the state alone.
func sum(t *testing.T, h hash.Hash, b []byte) []byte {
	t.Helper()
	again := bytes.Clone(b)
	s := h.Sum(b)
	if s2 := h.Sum(again); !bytes.Equal(s, s2) {
		t.Errorf("two Sums in a row differ: %x, %x", s, s2)
	}
	return s
}

func clone(t *testing.T, h hash.Cloner) hash.Hash {
	t.Helper()
	c, err := h.Clone()
	if err != nil {
		t.Fatalf("Clone: %v", err)
	}
	return c
}
