package md5

import (
	"bytes"
	"crypto/md5"
	"encoding/binary"
	"fmt"
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
			all := uint32(1)<<impl.Lanes - 1
			masks := []uint32{0, 1, 1 << (impl.Lanes - 1), all, 0x55555555 & all, 0xaaaaaaaa & all, 1 | 1<<(impl.Lanes-1), all &^ (1 | 1<<(impl.Lanes-1))}
			for lanes := 1; lanes <= impl.Lanes; lanes++ {
				masks = append(masks, 1<<lanes-1, (1<<lanes-1)<<(impl.Lanes-lanes))
			}
			for range 20 {
				masks = append(masks, r.Uint32()&all)
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
	for i := range kernel.MaxLanes {
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
	before := make([][]byte, kernel.MaxLanes)
	for i := range data {
		before[i] = bytes.Clone(data[i])
	}
	impl.Fn(&gotp, &ptrs, mask, nblocks)
	blocksGeneric(&wantp, &ptrs, mask, nblocks)
	for i := range kernel.MaxLanes {
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
			if n := testing.AllocsPerRun(100, func() { impl.Fn(&sp, &ptrs, 1<<impl.Lanes-1, 1) }); n != 0 {
				t.Fatalf("%v allocations per call", n)
			}
		})
	}
}

// BenchmarkKernel measures the kernels alone, in bytes of input hashed
// across the busy lanes; cycles per byte = clock / (MB/s * 1e6). The busy
// counts give the crossover between the single-stream and multi-lane
// kernels that the engine's choice rests on.
func BenchmarkKernel(b *testing.B) {
	const nblocks = 512 // 32 KiB per lane
	buf := randomBytes(rand.New(rand.NewPCG(1, 1)), nblocks*BlockSize)
	for _, impl := range Singles() {
		b.Run("impl="+impl.Name+"/lanes=1/busy=1", func(b *testing.B) {
			cputest.Require(b, impl.Level)
			s := Init
			b.SetBytes(int64(nblocks * BlockSize))
			for b.Loop() {
				impl.Fn(&s, buf[:nblocks*BlockSize])
			}
		})
	}
	// Lane placement: "aligned" lanes sit at equal offsets modulo 4 KiB, as
	// separately allocated large buffers do (they are page-aligned), and so
	// share an L1 set at every block; "line" puts lane i i lines further on.
	// On written memory the three measured within 2% of each other on Zen 4;
	// they stay to catch a kernel whose loads start to conflict.
	layouts := []struct {
		name   string
		stride int
	}{{"aligned", nblocks * BlockSize}, {"line", nblocks*BlockSize + 64}, {"staggered", nblocks*BlockSize + 5*64}}
	for _, impl := range Multis() {
		for _, lay := range layouts {
			for _, busy := range []int{2, 4, 8, 16, 32} {
				if busy > impl.Lanes || (lay.name != "aligned" && busy != impl.Lanes) {
					continue // layouts matter with every lane busy; busy counts measure the crossover
				}
				b.Run(fmt.Sprintf("impl=%s/lanes=%d/busy=%d/layout=%s", impl.Name, impl.Lanes, busy, lay.name), func(b *testing.B) {
					cputest.Require(b, impl.Level)
					buf := randomBytes(rand.New(rand.NewPCG(1, 1)), impl.Lanes*lay.stride) // written pages, not the zero page
					var states [kernel.MaxLanes]State
					var sp [kernel.MaxLanes]*State
					var ptrs [kernel.MaxLanes]*byte
					for i := range impl.Lanes {
						sp[i], ptrs[i] = &states[i], &buf[i*lay.stride]
					}
					b.SetBytes(int64(busy * nblocks * BlockSize))
					for b.Loop() {
						impl.Fn(&sp, &ptrs, 1<<busy-1, nblocks)
					}
				})
			}
		}
	}
}
