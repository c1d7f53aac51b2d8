package md5

import (
	"bytes"
	"crypto/md5"
	"encoding/binary"
	"math/rand/v2"
	"testing"

	"github.com/hashlanes/hashlanes/internal/cpu/cputest"
	"github.com/hashlanes/hashlanes/internal/kernel"
)

// pad returns msg followed by MD5 padding, so that whole-block kernels can
// be checked against crypto/md5 directly.
func pad(msg []byte) []byte {
	p := append([]byte(nil), msg...)
	p = append(p, 0x80)
	for len(p)%BlockSize != 56 {
		p = append(p, 0)
	}
	return binary.LittleEndian.AppendUint64(p, uint64(len(msg))<<3)
}

func digest(s State) []byte {
	var out []byte
	for _, w := range s {
		out = binary.LittleEndian.AppendUint32(out, w)
	}
	return out
}

func randomState(r *rand.Rand) State {
	return State{r.Uint32(), r.Uint32(), r.Uint32(), r.Uint32()}
}

func randomBytes(r *rand.Rand, n int) []byte {
	b := make([]byte, n)
	for i := range b {
		b[i] = byte(r.Uint32())
	}
	return b
}

func TestGenericAgainstStdlib(t *testing.T) {
	r := rand.New(rand.NewPCG(1, 2))
	for n := range 4*BlockSize + 2 {
		msg := randomBytes(r, n)
		s := Init
		blockGeneric(&s, pad(msg))
		if want := md5.Sum(msg); !bytes.Equal(digest(s), want[:]) {
			t.Fatalf("len %d: got %x, want %x", n, digest(s), want)
		}
	}
}

func TestSingles(t *testing.T) {
	r := rand.New(rand.NewPCG(3, 4))
	for _, impl := range Singles() {
		t.Run(impl.Name, func(t *testing.T) {
			cputest.Require(t, impl.Level)
			for nblocks := range 10 {
				for _, start := range []int{0, 1, 3} {
					buf := randomBytes(r, start+nblocks*BlockSize+BlockSize-1)
					p := buf[start : start+nblocks*BlockSize+r.IntN(BlockSize)] // ragged tail is ignored
					s0 := randomState(r)
					got, want := s0, s0
					impl.Fn(&got, p)
					blockGeneric(&want, p)
					if got != want {
						t.Fatalf("%d blocks at offset %d: got %08x, want %08x", nblocks, start, got, want)
					}
				}
			}
		})
	}
}

// TestMultis pins every multi-lane kernel to the reference: whole states for
// every lane count, ragged masks, empty lanes, all lanes empty, odd start
// offsets, block counts around the per-call limit.
func TestMultis(t *testing.T) {
	for _, impl := range Multis() {
		t.Run(impl.Name, func(t *testing.T) {
			cputest.Require(t, impl.Level)
			r := rand.New(rand.NewPCG(5, 6))
			masks := []uint32{0, 1, 1 << 15, 0xffff, 0x5555, 0xaaaa, 0x8001, 0x7ffe}
			for lanes := 1; lanes <= Lanes; lanes++ {
				masks = append(masks, 1<<lanes-1, (1<<lanes-1)<<(Lanes-lanes))
			}
			for range 20 {
				masks = append(masks, r.Uint32()&0xffff)
			}
			counts := []int{0, 1, 2, 3, 4, 5, 17, maxBlocks - 1, maxBlocks}
			for _, mask := range masks {
				for _, nblocks := range counts {
					if nblocks > 5 && r.IntN(4) != 0 {
						continue // the long counts on a sample of masks keep the test quick
					}
					checkMulti(t, r, impl, mask, nblocks)
				}
			}
		})
	}
}

func checkMulti(t *testing.T, r *rand.Rand, impl kernel.Multi[State], mask uint32, nblocks int) {
	t.Helper()
	var got, want [kernel.MaxLanes]State
	var gotp, wantp [kernel.MaxLanes]*State
	var ptrs [kernel.MaxLanes]*byte
	var data [kernel.MaxLanes][]byte
	for i := range Lanes {
		got[i] = randomState(r)
		want[i] = got[i]
		gotp[i], wantp[i] = &got[i], &want[i]
		if mask&(1<<i) == 0 {
			continue // nil pointer: the kernel must not read it
		}
		start := r.IntN(8)
		buf := randomBytes(r, start+nblocks*BlockSize+1)
		data[i] = buf[start : start+nblocks*BlockSize]
		if nblocks > 0 {
			ptrs[i] = &data[i][0]
		} else {
			ptrs[i] = &buf[0]
		}
	}
	before := make([][]byte, Lanes)
	for i := range data {
		before[i] = bytes.Clone(data[i])
	}
	impl.Fn(&gotp, &ptrs, mask, nblocks)
	blocksGeneric(&wantp, &ptrs, mask, nblocks)
	for i := range Lanes {
		if got[i] != want[i] {
			t.Fatalf("mask %04x, %d blocks, lane %d: got %08x, want %08x", mask, nblocks, i, got[i], want[i])
		}
		if !bytes.Equal(before[i], data[i]) {
			t.Fatalf("lane %d: kernel wrote to its input", i)
		}
	}
}

func TestMultiNoAllocs(t *testing.T) {
	for _, impl := range Multis() {
		t.Run(impl.Name, func(t *testing.T) {
			cputest.Require(t, impl.Level)
			var states [kernel.MaxLanes]State
			var sp [kernel.MaxLanes]*State
			var ptrs [kernel.MaxLanes]*byte
			buf := make([]byte, BlockSize)
			for i := range sp {
				sp[i], ptrs[i] = &states[i], &buf[0]
			}
			if n := testing.AllocsPerRun(100, func() { impl.Fn(&sp, &ptrs, 0xffff, 1) }); n != 0 {
				t.Fatalf("%v allocations per call", n)
			}
		})
	}
}

// BenchmarkKernel measures the kernels alone, all lanes busy, in bytes of
// input across lanes; cycles per byte = clock / (MB/s * 1e6).
func BenchmarkKernel(b *testing.B) {
	const nblocks = 512 // 32 KiB per lane
	// Lanes sit 32 KiB + 5 lines apart: lanes at equal offsets modulo 4 KiB
	// would fight over one L1 set, which measures the cache, not the kernel.
	const stride = nblocks*BlockSize + 5*64
	buf := make([]byte, Lanes*stride)
	for _, impl := range Singles() {
		b.Run("impl="+impl.Name+"/lanes=1", func(b *testing.B) {
			cputest.Require(b, impl.Level)
			s := Init
			b.SetBytes(int64(nblocks * BlockSize))
			for b.Loop() {
				impl.Fn(&s, buf[:nblocks*BlockSize])
			}
		})
	}
	// Lane placement decides L1 behaviour: lanes at equal offsets modulo
	// 4 KiB (separately allocated large buffers are page-aligned) share one
	// L1 set per block; "line" puts lane i i cache lines further on.
	layouts := []struct {
		name   string
		stride int
	}{{"aligned", nblocks * BlockSize}, {"line", nblocks*BlockSize + 64}, {"staggered", nblocks*BlockSize + 5*64}}
	for _, impl := range Multis() {
		for _, lay := range layouts {
			b.Run("impl="+impl.Name+"/lanes=16/layout="+lay.name, func(b *testing.B) {
				cputest.Require(b, impl.Level)
				buf := randomBytes(rand.New(rand.NewPCG(1, 1)), Lanes*lay.stride) // written pages, not the zero page
				var states [kernel.MaxLanes]State
				var sp [kernel.MaxLanes]*State
				var ptrs [kernel.MaxLanes]*byte
				for i := range Lanes {
					sp[i], ptrs[i] = &states[i], &buf[i*lay.stride]
				}
				b.SetBytes(int64(Lanes * nblocks * BlockSize))
				for b.Loop() {
					impl.Fn(&sp, &ptrs, 0xffff, nblocks)
				}
			})
		}
	}
}
