package blake3tree

import (
	"math/rand/v2"
	"testing"

	"github.com/hashlanes/hashlanes/internal/cpu/cputest"
	"lukechampine.com/blake3"
	"lukechampine.com/blake3/guts"
)

// forEachKernels runs f on each set of this package's kernels the CPU has.
func forEachKernels(t *testing.T, f func(t *testing.T)) {
	forEachKernelSetOf(t, kernelSets[1:], f)
}

// TestChunks16 pins the chunk kernel to lukechampine.com/blake3's
// compression, lane by lane, across a counter's carry into its high word.
func TestChunks16(t *testing.T) { forEachKernels(t, testChunks16) }

func testChunks16(t *testing.T) {
	r := rand.New(rand.NewPCG(3, 4))
	buf := make([]byte, 16*chunk)
	for i := range buf {
		buf[i] = byte(r.Uint32())
	}
	for _, m := range []Mode{Hash(), Keyed(&[32]byte{1, 2, 3}), DeriveKey("ctx")} {
		for _, counter := range []uint64{0, 5, 1<<32 - 3} {
			var cvs [8][16]uint32
			var ptrs [16]*byte
			var ctr [2][16]uint32
			for i := range 16 {
				ptrs[i] = &buf[i*chunk]
				c := counter + uint64(i)
				ctr[0][i], ctr[1][i] = uint32(c), uint32(c>>32)
			}
			chunks16(&cvs, &ptrs, &m.Key, &ctr, m.Flags)
			for i := range 16 {
				want := guts.ChainingValue(guts.CompressChunk(buf[i*chunk:(i+1)*chunk], &m.Key, counter+uint64(i), m.Flags))
				for w := range 8 {
					if cvs[w][i] != want[w] {
						t.Fatalf("mode %+v counter %d lane %d word %d: %08x, want %08x", m.Flags, counter, i, w, cvs[w][i], want[w])
					}
				}
			}
		}
	}
}

// TestParents16 pins the parent kernel to lukechampine.com/blake3's.
func TestParents16(t *testing.T) { forEachKernels(t, testParents16) }

func testParents16(t *testing.T) {
	r := rand.New(rand.NewPCG(5, 6))
	var in [2][8][16]uint32
	for g := range in {
		for w := range in[g] {
			for i := range in[g][w] {
				in[g][w][i] = r.Uint32()
			}
		}
	}
	m := Keyed(&[32]byte{9})
	var out [8][16]uint32
	parents16(&out, &in, &m.Key, m.Flags)
	cv := func(k int) (c [8]uint32) {
		for w := range 8 {
			c[w] = in[k/16][w][k%16]
		}
		return c
	}
	for p := range 16 {
		want := guts.ChainingValue(guts.ParentNode(cv(2*p), cv(2*p+1), &m.Key, m.Flags))
		for w := range 8 {
			if out[w][p] != want[w] {
				t.Fatalf("parent %d word %d: %08x, want %08x", p, w, out[w][p], want[w])
			}
		}
	}
}

func BenchmarkChunks16(b *testing.B) {
	cputest.RequireFlag(b, haveKernels && cpuHasKernels(), "avx512")
	buf := make([]byte, 16*chunk)
	var cvs [8][16]uint32
	var ptrs [16]*byte
	var ctr [2][16]uint32
	for i := range 16 {
		ptrs[i] = &buf[i*chunk]
	}
	m := Hash()
	b.SetBytes(int64(len(buf)))
	for b.Loop() {
		compressChunks16(&cvs, &ptrs, &m.Key, &ctr, m.Flags)
	}
}

func BenchmarkLeaf(b *testing.B) {
	buf := new([bufLen]byte)
	m := Hash()
	for _, k := range kernelSets[1:] {
		b.Run(k.name, func(b *testing.B) {
			cputest.RequireFlag(b, k.have(), k.flag)
			defer func(u16, u8 bool) { use16, use8 = u16, u8 }(use16, use8)
			use16, use8 = k.use16, k.use8
			b.SetBytes(leafLen)
			for b.Loop() {
				leafKernels(&m, (*[leafLen]byte)(buf[:leafLen]), 0)
			}
		})
	}
	b.Run("generic", func(b *testing.B) {
		defer func(u16, u8 bool) { use16, use8 = u16, u8 }(use16, use8)
		use16, use8 = false, false
		b.SetBytes(leafLen)
		for b.Loop() {
			subtree(&m, buf, 0, leafLen, 0, leafChunks)
		}
	})
}

// TestSum256Small: every length of one chunk against the reference.
func TestSum256Small(t *testing.T) {
	cputest.RequireFlag(t, haveKernels && cpuHasKernels(), "avx512")
	p := make([]byte, SmallMax)
	for i := range p {
		p[i] = byte(i*7 + i>>3)
	}
	for n := 0; n <= SmallMax; n++ {
		want := blake3.Sum256(p[:n])
		if got := Sum256Small([]byte("x"), p[:n]); string(got[1:]) != string(want[:]) || got[0] != 'x' {
			t.Fatalf("%d bytes: %x, want %x", n, got[1:], want)
		}
	}
}

func BenchmarkSum256Small(b *testing.B) {
	cputest.RequireFlag(b, haveKernels && cpuHasKernels(), "avx512")
	p := make([]byte, SmallMax)
	dst := make([]byte, 0, 32)
	b.SetBytes(SmallMax)
	for b.Loop() {
		Sum256Small(dst, p)
	}
}

// TestChunksVar16 pins the kernel of chunks of their own lengths to
// lukechampine.com/blake3's compression, lane by lane: every length of a
// last block, roots among the lanes, lanes that end blocks before others.
func TestChunksVar16(t *testing.T) { forEachKernels(t, testChunksVar16) }

func testChunksVar16(t *testing.T) {
	r := rand.New(rand.NewPCG(7, 8))
	bufs := make([][chunk]byte, 16)
	for _, m := range []Mode{Hash(), Keyed(&[32]byte{1, 2, 3}), DeriveKey("ctx")} {
		for round := range 300 {
			var cvs [8][16]uint32
			var ptrs [16]*byte
			var ctr [2][16]uint32
			var ends [3][16]uint32
			lens := make([]int, 16)
			roots := make([]bool, 16)
			blocks := 0
			for i := range 16 {
				lens[i] = r.IntN(chunk + 1)
				if round%3 == 0 {
					lens[i] = 1 + r.IntN(64) // one short block in every lane
				}
				roots[i] = r.IntN(2) == 0
				clear(bufs[i][:])
				for k := range lens[i] {
					bufs[i][k] = byte(r.Uint32())
				}
				ptrs[i] = &bufs[i][0]
				c := uint64(r.IntN(20))
				if roots[i] {
					c = 0
				}
				ctr[0][i], ctr[1][i] = uint32(c), uint32(c>>32)
				nb := max(1, (lens[i]+63)/64)
				ends[0][i] = uint32(nb - 1)
				ends[1][i] = uint32(lens[i] - 64*(nb-1))
				ends[2][i] = guts.FlagChunkEnd
				if roots[i] {
					ends[2][i] |= guts.FlagRoot
				}
				blocks = max(blocks, nb)
			}
			chunksVar16(&cvs, &ptrs, &m.Key, &ctr, &ends, blocks, m.Flags)
			for i := range 16 {
				c := uint64(ctr[0][i]) | uint64(ctr[1][i])<<32
				n := guts.CompressChunk(bufs[i][:lens[i]], &m.Key, c, m.Flags)
				var want [8]uint32
				if roots[i] {
					n.Flags |= guts.FlagRoot
					out := guts.CompressNode(n)
					copy(want[:], out[:8])
				} else {
					want = guts.ChainingValue(n)
				}
				for w := range 8 {
					if cvs[w][i] != want[w] {
						t.Fatalf("mode %x round %d lane %d (%d bytes, root %v) word %d: %08x, want %08x", m.Flags, round, i, lens[i], roots[i], w, cvs[w][i], want[w])
					}
				}
			}
		}
	}
}
