package blake3tree

import (
	"math/rand/v2"
	"testing"

	"lukechampine.com/blake3/guts"
)

// The compression function and the nodes in Go against lukechampine.com/
// blake3/guts, an implementation written apart from this one.

func gutsNode(n *node) guts.Node {
	return guts.Node{CV: n.cv, Block: n.block, Counter: n.counter, BlockLen: n.blockLen, Flags: n.flags}
}

func TestCompressAgainstGuts(t *testing.T) {
	r := rand.New(rand.NewPCG(1, 2))
	for range 2000 {
		var n node
		for i := range n.cv {
			n.cv[i] = r.Uint32()
		}
		for i := range n.block {
			n.block[i] = r.Uint32()
		}
		n.counter, n.blockLen, n.flags = r.Uint64(), r.Uint32N(65), r.Uint32N(128)
		if got, want := compress(&n), guts.CompressNode(gutsNode(&n)); got != want {
			t.Fatalf("compress(%+v) = %x, want %x", n, got, want)
		}
	}
}

// TestCompressBuffer: every length of a chunk buffer that ends a block
// short, on a block or a chunk (and their neighbours), in each way this
// package can run, against guts' buffer of the same bytes.
func TestCompressBuffer(t *testing.T) {
	forEachKernelSet(t, func(t *testing.T) {
		buf := new([maxSIMD * chunk]byte)
		for i := range buf {
			buf[i] = byte(i*13 + i>>9)
		}
		m := Keyed(&[32]byte{7: 1, 31: 9})
		for length := 0; length <= len(buf); length++ {
			if length%blockSize > 1 && length%blockSize < blockSize-1 && length > 3*blockSize {
				continue
			}
			for _, counter := range []uint64{0, 16, 1<<32 - 3} {
				got := compressBuffer(buf, length, &m.Key, counter, m.Flags)
				var gb [maxSIMD * chunk]byte
				copy(gb[:], buf[:length])
				want := guts.CompressBuffer(&gb, length, &m.Key, counter, m.Flags)
				if gutsNode(&got) != want {
					t.Fatalf("length %d, counter %d: node %+v, want %+v", length, counter, got, want)
				}
			}
		}
	})
}

// TestMergeCVs: the root node of 2 to 16 subtrees against guts' tree of
// as many chunks.
func TestMergeCVs(t *testing.T) {
	buf := new([maxSIMD * chunk]byte)
	for i := range buf {
		buf[i] = byte(i * 31)
	}
	key := iv
	for n := 2; n <= maxSIMD; n++ {
		cvs := make([][8]uint32, n)
		for i := range cvs {
			c := compressChunk(buf[i*chunk:(i+1)*chunk], &key, uint64(i), 0)
			cvs[i] = chainingValue(&c)
		}
		got := mergeCVs(cvs, &key, 0)
		if want := guts.CompressBuffer(buf, n*chunk, &key, 0, 0); gutsNode(&got) != want {
			t.Errorf("%d chunks: %+v, want %+v", n, got, want)
		}
	}
}

// BenchmarkCompressChunk is one chunk's compressions in Go, against guts'.
func BenchmarkCompressChunk(b *testing.B) {
	p := make([]byte, chunk)
	key := iv
	b.Run("hashlanes", func(b *testing.B) {
		b.SetBytes(chunk)
		for b.Loop() {
			n := compressChunk(p, &key, 0, 0)
			chainingValue(&n)
		}
	})
	b.Run("guts", func(b *testing.B) {
		b.SetBytes(chunk)
		for b.Loop() {
			guts.ChainingValue(guts.CompressChunk(p, &key, 0, 0))
		}
	})
}
