// Package kerneltest pins an algorithm's kernels to its pure-Go reference:
// whole chaining states compared for every single-stream and multi-lane
// implementation this CPU has, over ragged masks, empty lanes, all lanes
// empty, odd start offsets and block counts up to the per-call limit.
package kerneltest

import (
	"bytes"
	"encoding/binary"
	"fmt"
	"math/rand/v2"
	"testing"
	"unsafe"

	"github.com/hashlanes/hashlanes/internal/cpu/cputest"
	"github.com/hashlanes/hashlanes/internal/kernel"
)

// Algorithm is what the checks need to know of one algorithm's kernels.
type Algorithm[S comparable] struct {
	BlockSize int
	Ref       func(*S, []byte) // reference single-stream block function
	Random    func(*rand.Rand) S
	Singles   []kernel.Single[S]
	Multis    []kernel.Multi[S]
}

// RandomBytes returns n bytes from r.
func RandomBytes(r *rand.Rand, n int) []byte {
	b := make([]byte, n)
	for i := range b {
		b[i] = byte(r.Uint32())
	}
	return b
}

// Pad returns msg followed by the Merkle-Damgard padding of a 64-byte-block
// hash with a 64-bit length, so that whole-block kernels can be checked
// against the standard library directly.
func Pad(msg []byte, bigEndian bool) []byte {
	p := append(bytes.Clone(msg), 0x80)
	for len(p)%64 != 56 {
		p = append(p, 0)
	}
	if bigEndian {
		return binary.BigEndian.AppendUint64(p, uint64(len(msg))<<3)
	}
	return binary.LittleEndian.AppendUint64(p, uint64(len(msg))<<3)
}

// Words returns the state's 32-bit words, in the given byte order.
func Words[S any](s *S, bigEndian bool) []byte {
	w := unsafe.Slice((*uint32)(unsafe.Pointer(s)), unsafe.Sizeof(*s)/4)
	var out []byte
	for _, v := range w {
		if bigEndian {
			out = binary.BigEndian.AppendUint32(out, v)
		} else {
			out = binary.LittleEndian.AppendUint32(out, v)
		}
	}
	return out
}

// RandomState fills a state of 32-bit words from r.
func RandomState[S any](r *rand.Rand) S {
	var s S
	w := unsafe.Slice((*uint32)(unsafe.Pointer(&s)), unsafe.Sizeof(s)/4)
	for i := range w {
		w[i] = r.Uint32()
	}
	return s
}

// Singles checks every single-stream kernel against the reference.
func Singles[S comparable](t *testing.T, a Algorithm[S]) {
	r := rand.New(rand.NewPCG(3, 4))
	for _, impl := range a.Singles {
		t.Run(impl.Name, func(t *testing.T) {
			cputest.Require(t, impl.Level)
			cputest.RequireFeatures(t, impl.Needs)
			for nblocks := range 10 {
				for _, start := range []int{0, 1, 3} {
					buf := RandomBytes(r, start+(nblocks+1)*a.BlockSize)
					p := buf[start : start+nblocks*a.BlockSize+r.IntN(a.BlockSize)] // a ragged tail is ignored
					got := a.Random(r)
					want := got
					impl.Fn(&got, p)
					a.Ref(&want, p)
					if got != want {
						t.Fatalf("%d blocks at offset %d: got %v, want %v", nblocks, start, got, want)
					}
				}
			}
		})
	}
}

// Multis checks every multi-lane kernel against the reference run lane by
// lane, for every lane count, ragged and random masks, and block counts
// around the per-call limit; lanes outside the mask must keep their state
// and no input may be written.
func Multis[S comparable](t *testing.T, a Algorithm[S]) {
	maxBlocks := kernel.MaxLaneBytes / a.BlockSize
	for _, impl := range a.Multis {
		t.Run(impl.Name, func(t *testing.T) {
			cputest.Require(t, impl.Level)
			cputest.RequireFeatures(t, impl.Needs)
			r := rand.New(rand.NewPCG(5, 6))
			all := uint32(1)<<impl.Lanes - 1
			masks := []uint32{0, 1, 1 << (impl.Lanes - 1), all, 0x55555555 & all, 0xaaaaaaaa & all, 1 | 1<<(impl.Lanes-1), all &^ (1 | 1<<(impl.Lanes-1))}
			for lanes := 1; lanes <= impl.Lanes; lanes++ {
				masks = append(masks, 1<<lanes-1, (1<<lanes-1)<<(impl.Lanes-lanes))
			}
			for range 20 {
				masks = append(masks, r.Uint32()&all)
			}
			for _, mask := range masks {
				for _, nblocks := range []int{0, 1, 2, 3, 4, 5, 17, maxBlocks - 1, maxBlocks} {
					if nblocks > 5 && r.IntN(4) != 0 {
						continue // the long counts on a sample of masks keep the test quick
					}
					checkMulti(t, r, a, impl, mask, nblocks)
				}
			}
		})
	}
}

func checkMulti[S comparable](t *testing.T, r *rand.Rand, a Algorithm[S], impl kernel.Multi[S], mask uint32, nblocks int) {
	t.Helper()
	var got, want [kernel.MaxLanes]S
	var gotp [kernel.MaxLanes]*S
	var ptrs [kernel.MaxLanes]*byte
	var data, before [kernel.MaxLanes][]byte
	for i := range kernel.MaxLanes {
		got[i] = a.Random(r)
		want[i] = got[i]
		gotp[i] = &got[i]
		if mask&(1<<i) == 0 {
			continue // nil pointer: the kernel must not read it
		}
		start := r.IntN(8)
		buf := RandomBytes(r, start+nblocks*a.BlockSize+1)
		data[i] = buf[start : start+nblocks*a.BlockSize]
		ptrs[i] = &buf[start]
		before[i] = bytes.Clone(data[i])
		a.Ref(&want[i], data[i])
	}
	impl.Fn(&gotp, &ptrs, mask, nblocks)
	for i := range kernel.MaxLanes {
		if got[i] != want[i] {
			t.Fatalf("mask %08x, %d blocks, lane %d: got %v, want %v", mask, nblocks, i, got[i], want[i])
		}
		if !bytes.Equal(before[i], data[i]) {
			t.Fatalf("lane %d: the kernel wrote to its input", i)
		}
	}
}

// NoAllocs checks that a multi-lane call allocates nothing.
func NoAllocs[S comparable](t *testing.T, a Algorithm[S]) {
	for _, impl := range a.Multis {
		t.Run(impl.Name, func(t *testing.T) {
			cputest.Require(t, impl.Level)
			cputest.RequireFeatures(t, impl.Needs)
			var states [kernel.MaxLanes]S
			var sp [kernel.MaxLanes]*S
			var ptrs [kernel.MaxLanes]*byte
			buf := make([]byte, a.BlockSize)
			for i := range sp {
				sp[i], ptrs[i] = &states[i], &buf[0]
			}
			if n := testing.AllocsPerRun(100, func() { impl.Fn(&sp, &ptrs, 1<<impl.Lanes-1, 1) }); n != 0 {
				t.Fatalf("%v allocations per call", n)
			}
		})
	}
}

// Benchmark measures the kernels alone in bytes hashed across the busy
// lanes, 32 KiB per lane; the busy counts give the crossover between the
// single-stream and multi-lane kernels. Lane placement: "aligned" lanes sit
// at equal offsets modulo 4 KiB, as separately allocated large buffers do,
// "line" puts lane i i cache lines further on, "staggered" 5i. Buffers are
// written first: untouched pages alias one physical page, which measured
// the L1, not the kernel.
func Benchmark[S comparable](b *testing.B, a Algorithm[S]) {
	const laneBytes = 32 << 10
	nblocks := laneBytes / a.BlockSize
	one := RandomBytes(rand.New(rand.NewPCG(1, 1)), laneBytes)
	for _, impl := range a.Singles {
		b.Run("impl="+impl.Name+"/lanes=1/busy=1", func(b *testing.B) {
			cputest.Require(b, impl.Level)
			cputest.RequireFeatures(b, impl.Needs)
			s := a.Random(rand.New(rand.NewPCG(2, 2)))
			b.SetBytes(laneBytes)
			for b.Loop() {
				impl.Fn(&s, one)
			}
		})
	}
	layouts := []struct {
		name   string
		stride int
	}{{"aligned", laneBytes}, {"line", laneBytes + 64}, {"staggered", laneBytes + 5*64}}
	for _, impl := range a.Multis {
		for _, lay := range layouts {
			for _, busy := range []int{1, 2, 4, 8, 16, 32} {
				if busy > impl.Lanes || (busy == 1 && impl.Lanes > 2) || (lay.name != "aligned" && busy != impl.Lanes) {
					continue // layouts matter with every lane busy; busy counts measure the crossover
				}
				b.Run(fmt.Sprintf("impl=%s/lanes=%d/busy=%d/layout=%s", impl.Name, impl.Lanes, busy, lay.name), func(b *testing.B) {
					cputest.Require(b, impl.Level)
					cputest.RequireFeatures(b, impl.Needs)
					buf := RandomBytes(rand.New(rand.NewPCG(1, 1)), impl.Lanes*lay.stride)
					var states [kernel.MaxLanes]S
					var sp [kernel.MaxLanes]*S
					var ptrs [kernel.MaxLanes]*byte
					for i := range impl.Lanes {
						sp[i], ptrs[i] = &states[i], &buf[i*lay.stride]
					}
					b.SetBytes(int64(busy * laneBytes))
					for b.Loop() {
						impl.Fn(&sp, &ptrs, 1<<busy-1, nblocks)
					}
				})
			}
		}
	}
}
