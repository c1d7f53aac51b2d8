package cksum

import (
	"bytes"
	"context"
	"encoding/binary"
	"errors"
	"math/rand/v2"
	"os"
	"os/exec"
	"path/filepath"
	"strconv"
	"strings"
	"testing"

	"github.com/hashlanes/hashlanes/internal/cpu/cputest"
)

// crcBits is the CRC bit by bit, as POSIX describes it: the reference the
// table and the fold are pinned to.
func crcBits(p []byte) uint32 {
	var c uint32
	feed := func(b byte) {
		for i := 7; i >= 0; i-- {
			in := uint32(b>>i) & 1
			top := c >> 31
			c <<= 1
			if top^in != 0 {
				c ^= poly
			}
		}
	}
	// Each bit enters at the top, xored with the bit shifted out: the
	// remainder of the message times x^32, with no zeros to append.
	for _, b := range p {
		feed(b)
	}
	for n := uint64(len(p)); n != 0; n >>= 8 {
		feed(byte(n))
	}
	return ^c
}

func sumCRC(p []byte, pieces []int) uint32 {
	h := NewCRC()
	for _, n := range pieces {
		n = min(n, len(p))
		h.Write(p[:n])
		p = p[n:]
	}
	h.Write(p)
	return h.Sum32()
}

// paths runs f with the fold and with the table alone.
func paths(t *testing.T, f func(t *testing.T)) {
	t.Run("table", func(t *testing.T) {
		defer func(u bool) { useFold = u }(useFold)
		useFold = false
		f(t)
	})
	t.Run("pclmul", func(t *testing.T) {
		cputest.RequireFlag(t, haveFold, "pclmul")
		defer func(u bool) { useFold = u }(useFold)
		useFold = true
		f(t)
	})
}

func TestCRCKnown(t *testing.T) {
	paths(t, func(t *testing.T) {
		for s, want := range map[string]uint32{"": 4294967295, "abc": 1219131554, "123456789": 930766865} {
			if got := sumCRC([]byte(s), nil); got != want {
				t.Errorf("cksum of %q: %d, want %d", s, got, want)
			}
		}
	})
}

// TestCRCAgainstReference pins every length to 1 KiB and a few larger,
// at every alignment mod 16, written whole and in random pieces.
func TestCRCAgainstReference(t *testing.T) {
	r := rand.New(rand.NewPCG(1, 2))
	buf := make([]byte, 70000+16)
	for i := range buf {
		buf[i] = byte(r.Uint32())
	}
	paths(t, func(t *testing.T) {
		lengths := []int{4096, 65536, 65537, 69999}
		for n := range 1025 {
			lengths = append(lengths, n)
		}
		for _, n := range lengths {
			off := n % 16
			p := buf[off : off+n]
			want := crcBits(p)
			if got := sumCRC(p, nil); got != want {
				t.Fatalf("%d bytes at offset %d: %d, want %d", n, off, got, want)
			}
			pieces := []int{r.IntN(300), r.IntN(70), r.IntN(1000)}
			if got := sumCRC(p, pieces); got != want {
				t.Fatalf("%d bytes in pieces %v: %d, want %d", n, pieces, got, want)
			}
		}
	})
}

func TestSums(t *testing.T) {
	// sum -s and sum -r of "abc" and of 5000 bytes 0..255 repeated, as
	// GNU's sum prints them.
	seq := make([]byte, 5000)
	for i := range seq {
		seq[i] = byte(i)
	}
	for _, c := range []struct {
		data      []byte
		sysv, bsd uint16
	}{{[]byte("abc"), 294, 16556}, {nil, 0, 0}, {seq, sysvRef(seq), bsdRef(seq)}} {
		h, g := NewSysV(), NewBSD()
		h.Write(c.data)
		g.Write(c.data)
		if got := binary.BigEndian.Uint16(h.Sum(nil)); got != c.sysv {
			t.Errorf("sysv of %d bytes: %d, want %d", len(c.data), got, c.sysv)
		}
		if got := binary.BigEndian.Uint16(g.Sum(nil)); got != c.bsd {
			t.Errorf("bsd of %d bytes: %d, want %d", len(c.data), got, c.bsd)
		}
	}
}

func sysvRef(p []byte) uint16 {
	var s uint64
	for _, b := range p {
		s += uint64(b)
	}
	s %= 1 << 32
	r := s%(1<<16) + s>>16
	return uint16(r%(1<<16) + r>>16)
}

func bsdRef(p []byte) uint16 {
	var s int
	for _, b := range p {
		s = (s >> 1) + ((s & 1) << 15)
		s = (s + int(b)) & 0xffff
	}
	return uint16(s)
}

// TestAgainstGNUCksum compares with the coreutils cksum and sum on this
// machine, where they are.
func TestAgainstGNUCksum(t *testing.T) {
	gnu, err := exec.LookPath("cksum")
	if err != nil {
		t.Skip("no cksum on PATH")
	}
	r := rand.New(rand.NewPCG(3, 4))
	dir := t.TempDir()
	for _, n := range []int{0, 1, 255, 256, 4097, 1 << 20} {
		p := make([]byte, n)
		for i := range p {
			p[i] = byte(r.Uint32())
		}
		name := filepath.Join(dir, strconv.Itoa(n))
		if err := os.WriteFile(name, p, 0o644); err != nil {
			t.Fatal(err)
		}
		out, err := exec.Command(gnu, name).Output()
		if err != nil {
			t.Fatal(err)
		}
		want := strings.Fields(string(out))[0]
		paths(t, func(t *testing.T) {
			if got := strconv.FormatUint(uint64(sumCRC(p, nil)), 10); got != want {
				t.Errorf("%d bytes: %s, want cksum's %s", n, got, want)
			}
		})
	}
}

func BenchmarkCRC(b *testing.B) {
	p := bytes.Repeat([]byte{0x5a, 0x3c}, 1<<19)
	b.Run("pclmul", func(b *testing.B) {
		cputest.RequireFlag(b, haveFold, "pclmul")
		b.SetBytes(int64(len(p)))
		h := NewCRC()
		for b.Loop() {
			h.Write(p)
		}
	})
	b.Run("table", func(b *testing.B) {
		defer func(u bool) { useFold = u }(useFold)
		useFold = false
		b.SetBytes(int64(len(p)))
		h := NewCRC()
		for b.Loop() {
			h.Write(p)
		}
	})
}

// FuzzCRC: the fold, the table and the bit-by-bit reference agree on any
// input cut anywhere.
func FuzzCRC(f *testing.F) {
	f.Add(bytes.Repeat([]byte("hashlanes"), 40), 7)
	f.Fuzz(func(t *testing.T, p []byte, cut int) {
		want := crcBits(p)
		paths(t, func(t *testing.T) {
			if got := sumCRC(p, []int{max(cut, 0) % (len(p) + 1)}); got != want {
				t.Fatalf("%d bytes cut at %d: %d, want %d", len(p), cut, got, want)
			}
		})
	})
}

// TestSumReaderAt splits inputs of every size around the part boundaries
// and wants the CRC of the whole.
func TestSumReaderAt(t *testing.T) {
	r := rand.New(rand.NewPCG(5, 6))
	p := make([]byte, 300_000)
	for i := range p {
		p[i] = byte(r.Uint32())
	}
	paths(t, func(t *testing.T) {
		for _, n := range []int{0, 1, 7, 64, 1000, 4096, 4097, 65536, 299_999} {
			want := crcBits(p[:n])
			for _, parts := range []int{1, 2, 3, 7} {
				for _, buf := range []int{1, 100, 4096} {
					got, err := SumReaderAt(context.Background(), bytes.NewReader(p[:n]), int64(n), parts, buf)
					if err != nil || got != want {
						t.Fatalf("%d bytes in %d parts, %d-byte buffers: %d, %v; want %d", n, parts, buf, got, err, want)
					}
				}
			}
		}
	})
}

// TestSumReaderAtError: a read error in any part is the result.
func TestSumReaderAtError(t *testing.T) {
	boom := errors.New("boom")
	r := failingReaderAt{at: 5000, err: boom}
	if _, err := SumReaderAt(context.Background(), r, 10000, 3, 512); err != boom {
		t.Fatalf("error %v, want %v", err, boom)
	}
	ctx, cancel := context.WithCancel(context.Background())
	cancel()
	if _, err := SumReaderAt(ctx, failingReaderAt{at: 1 << 30}, 10000, 2, 512); err != context.Canceled {
		t.Fatalf("cancelled: error %v", err)
	}
}

// failingReaderAt reads zeros, and fails from offset at on.
type failingReaderAt struct {
	at  int64
	err error
}

func (f failingReaderAt) ReadAt(p []byte, off int64) (int, error) {
	if off+int64(len(p)) > f.at {
		return 0, f.err
	}
	clear(p)
	return len(p), nil
}
