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
	"runtime"
	"slices"
	"sync/atomic"
	"testing"
	"time"
	"unsafe"

	"github.com/hashlanes/hashlanes/internal/cpu"
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
	Batches   []kernel.Batch
	Sum       func([]byte) []byte // reference digest of a whole message
	Size      int                 // digest bytes
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
// around the per-call limit (a hybrid kernel's fast lanes hashing their
// multiple of them); lanes outside the mask must keep their state and no
// input may be written.
func Multis[S comparable](t *testing.T, a Algorithm[S]) {
	for _, impl := range a.Multis {
		maxBlocks := impl.MaxBlocks(a.BlockSize)
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
		n := impl.LaneBlocks(i, nblocks) * a.BlockSize
		buf := RandomBytes(r, start+n+1)
		data[i] = buf[start : start+n]
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

// Batches checks every batch kernel against the reference digest, for
// every block count, lane-fulls per call from one to the most, and lengths
// at and around the padding boundaries: digest i must land in
// out[Size*idx[i]:] for i < n and nowhere else, the input must be left
// alone, and a message that ends right before a page that faults must be
// read only up to its end.
func Batches[S comparable](t *testing.T, a Algorithm[S]) {
	bs := a.BlockSize
	lenBytes := 8
	if bs == 128 {
		lenBytes = 16
	}
	for _, impl := range a.Batches {
		t.Run(impl.Name, func(t *testing.T) {
			cputest.Require(t, impl.Level)
			cputest.RequireFeatures(t, impl.Needs)
			r := rand.New(rand.NewPCG(7, 8))
			for nblocks := 1; nblocks <= kernel.MaxBatchBlocks; nblocks++ {
				lo := max(0, (nblocks-1)*bs-lenBytes) // shortest message that pads to nblocks
				hi := nblocks*bs - lenBytes - 1       // longest
				for trial := range 40 {
					n := 1 + r.IntN(impl.Lanes)
					switch {
					case trial == 0:
						n = impl.Lanes
					case trial == 1:
						n = 1
					case trial == 2:
						n = kernel.MaxBatchMsgs
					case trial%3 == 0:
						n = 1 + r.IntN(kernel.MaxBatchMsgs)
					}
					lens := make([]int, n)
					for i := range lens {
						switch r.IntN(3) {
						case 0: // a boundary
							lens[i] = []int{lo, lo + 1, hi - 1, hi, max(lo, (nblocks-1)*bs), max(lo, (nblocks-1)*bs-1)}[r.IntN(6)]
						default:
							lens[i] = lo + r.IntN(hi-lo+1)
						}
					}
					checkBatch(t, r, a, impl, lens, nblocks, trial%4 == 3)
				}
			}
		})
	}
}

func checkBatch[S comparable](t *testing.T, r *rand.Rand, a Algorithm[S], impl kernel.Batch, lens []int, nblocks int, guard bool) {
	t.Helper()
	const canary = 0xa5
	n := len(lens)
	rounded := (n + impl.Lanes - 1) / impl.Lanes * impl.Lanes
	// Messages sit at random places of a list longer than the batch.
	msgs := make([][]byte, n+n/2+3)
	idx := make([]int32, rounded)
	perm := r.Perm(len(msgs))
	page := GuardedPage()
	for i := range idx {
		if i >= n {
			idx[i] = idx[0] // the contract: entries past n name a message too
			continue
		}
		idx[i] = int32(perm[i])
		var m []byte
		switch {
		case guard && i == n-1 && page != nil:
			m = page[len(page)-lens[i]:]
			copy(m, RandomBytes(r, lens[i]))
		case lens[i] == 0 && r.IntN(2) == 0:
			m = nil
		default:
			start := r.IntN(8)
			m = RandomBytes(r, start+lens[i])[start:]
		}
		msgs[idx[i]] = m
	}
	before := make([][]byte, len(msgs))
	for i, m := range msgs {
		before[i] = bytes.Clone(m)
	}
	// Every slot of the output starts as canary bytes: those of messages
	// not among the first n must stay so, as must 8 bytes past the end.
	out := bytes.Repeat([]byte{canary}, len(msgs)*a.Size+8)
	impl.Fn(msgs, idx, n, &out[0], nblocks)
	written := make([]bool, len(msgs))
	for _, k := range idx[:n] {
		written[k] = true
	}
	for k := range msgs {
		if !bytes.Equal(before[k], msgs[k]) {
			t.Fatalf("message %d: the kernel wrote to its input", k)
		}
		got := out[k*a.Size : (k+1)*a.Size]
		if !written[k] {
			if !bytes.Equal(got, bytes.Repeat([]byte{canary}, a.Size)) {
				t.Fatalf("%d messages of %d blocks: slot %d of no message below n written: %x", n, nblocks, k, got)
			}
			continue
		}
		if want := a.Sum(msgs[k]); !bytes.Equal(got, want) {
			t.Fatalf("%d messages of %d blocks: message %d (%d bytes): got %x, want %x", n, nblocks, k, len(msgs[k]), got, want)
		}
	}
	if tail := out[len(msgs)*a.Size:]; !bytes.Equal(tail, bytes.Repeat([]byte{canary}, 8)) {
		t.Fatalf("bytes after the last slot written: %x", tail)
	}
}

// BatchNoAllocs checks that a batch call allocates nothing.
func BatchNoAllocs[S comparable](t *testing.T, a Algorithm[S]) {
	for _, impl := range a.Batches {
		t.Run(impl.Name, func(t *testing.T) {
			cputest.Require(t, impl.Level)
			cputest.RequireFeatures(t, impl.Needs)
			idx := make([]int32, kernel.MaxBatchMsgs)
			msgs := make([][]byte, kernel.MaxBatchMsgs)
			for i := range msgs {
				msgs[i], idx[i] = make([]byte, 20), int32(i)
			}
			out := make([]byte, kernel.MaxBatchMsgs*a.Size)
			if n := testing.AllocsPerRun(100, func() { impl.Fn(msgs, idx, len(idx), &out[0], 1) }); n != 0 {
				t.Fatalf("%v allocations per call", n)
			}
		})
	}
}

// laneArgs points lanes 0..lanes-1 of a multi-lane call at states and at
// buf, lane i at byte i*stride.
func laneArgs[S any](states *[kernel.MaxLanes]S, buf []byte, lanes, stride int) (sp [kernel.MaxLanes]*S, ptrs [kernel.MaxLanes]*byte) {
	for i := range lanes {
		sp[i], ptrs[i] = &states[i], &buf[i*stride]
	}
	return sp, ptrs
}

// NoAllocs checks that a multi-lane call allocates nothing.
func NoAllocs[S comparable](t *testing.T, a Algorithm[S]) {
	for _, impl := range a.Multis {
		t.Run(impl.Name, func(t *testing.T) {
			cputest.Require(t, impl.Level)
			cputest.RequireFeatures(t, impl.Needs)
			var states [kernel.MaxLanes]S
			sp, ptrs := laneArgs(&states, make([]byte, impl.LaneBlocks(0, 1)*a.BlockSize), kernel.MaxLanes, 0)
			if n := testing.AllocsPerRun(100, func() { impl.Fn(&sp, &ptrs, 1<<impl.Lanes-1, 1) }); n != 0 {
				t.Fatalf("%v allocations per call", n)
			}
		})
	}
}

// BenchmarkAfterGap measures each multi-lane kernel's call of 16 blocks a
// lane, every lane busy (a round of streams out of step in an upload
// server), run back to back (gap=none) and right after the single-stream
// kernel hashed 32 KiB of scalar code (gap=scalar), as a
// server's rounds come after its socket reads. Only the multi-lane calls
// are timed; MB/s is theirs. On some CPUs a 512-bit kernel's first call
// after other code is several times as long (the core wakes its 512-bit
// units; docs/engine.md, "Rounds after other code"): the engine times only
// a round right after a round on the same kernel.
func BenchmarkAfterGap[S comparable](b *testing.B, a Algorithm[S]) {
	const nblocks = 16
	gapBytes := RandomBytes(rand.New(rand.NewPCG(3, 3)), 32<<10)
	// The gap's work: a scalar single-stream kernel, not one on SHA-NI.
	var single kernel.Single[S]
	for _, impl := range a.Singles {
		if impl.Level <= cpu.Detected && impl.Needs == 0 && (single.Fn == nil || single.Reference) {
			single = impl
		}
	}
	for _, impl := range a.Multis {
		for _, gap := range []string{"none", "scalar"} {
			b.Run(fmt.Sprintf("impl=%s/gap=%s", impl.Name, gap), func(b *testing.B) {
				cputest.Require(b, impl.Level)
				cputest.RequireFeatures(b, impl.Needs)
				stride := nblocks * a.BlockSize * max(1, impl.FastBlocks)
				var states [kernel.MaxLanes]S
				sp, ptrs := laneArgs(&states, RandomBytes(rand.New(rand.NewPCG(1, 1)), impl.Lanes*stride), impl.Lanes, stride)
				gs := a.Random(rand.New(rand.NewPCG(2, 2)))
				var took time.Duration
				calls := 0
				for b.Loop() {
					if gap == "scalar" {
						single.Fn(&gs, gapBytes)
					}
					start := time.Now()
					impl.Fn(&sp, &ptrs, 1<<impl.Lanes-1, nblocks)
					took += time.Since(start)
					calls++
				}
				b.ReportMetric(float64(impl.Blocks(impl.Lanes, nblocks)*a.BlockSize*calls)/took.Seconds()/1e6, "call-MB/s")
			})
		}
	}
}

// BenchmarkSinglesSideBySide runs every single-stream kernel this CPU
// runs in turn within each iteration, each on the same 32 KiB from its
// own state, and reports each one's MB/s and its speed over the
// library's ("stdlib", where the package lists it): side by side, a
// noisy machine slows them together, where one benchmark after another
// compares different moments.
func BenchmarkSinglesSideBySide[S comparable](b *testing.B, a Algorithm[S]) {
	const n = 32 << 10
	p := RandomBytes(rand.New(rand.NewPCG(3, 3)), n)
	var impls []kernel.Single[S]
	for _, k := range a.Singles {
		if k.Usable(cpu.Active) {
			impls = append(impls, k)
		}
	}
	states := make([]S, len(impls))
	took := make([]time.Duration, len(impls))
	b.SetBytes(int64(n * len(impls)))
	for b.Loop() {
		for i, k := range impls {
			t := time.Now()
			k.Fn(&states[i], p)
			took[i] += time.Since(t)
		}
	}
	lib := slices.IndexFunc(impls, func(k kernel.Single[S]) bool { return k.Name == "stdlib" })
	for i, k := range impls {
		b.ReportMetric(float64(n)*float64(b.N)/took[i].Seconds()/1e6, k.Name+"-MB/s")
		if lib >= 0 && i != lib {
			b.ReportMetric(took[lib].Seconds()/took[i].Seconds(), k.Name+"/stdlib")
		}
	}
}

// Benchmark measures the kernels alone in bytes hashed across the busy
// lanes, 32 KiB per lane; the busy counts (1, 2, 3, 4, 6, 8, 16, 32 ready
// streams) give the crossover between the single-stream and multi-lane
// kernels. Lane placement: "aligned" lanes sit at equal offsets modulo
// 4 KiB, as separately allocated large buffers do, "line" puts lane i i
// cache lines further on, "staggered" 5i. Buffers are written first:
// untouched pages alias one physical page, which measured the L1, not the
// kernel. "memory" streams 1 MiB a lane (benchmarkMemory).
func Benchmark[S comparable](b *testing.B, a Algorithm[S]) {
	const laneBytes = 32 << 10
	one := RandomBytes(rand.New(rand.NewPCG(1, 1)), laneBytes)
	pool := newMessagePool()
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
			busies := []int{1, 2, 3, 4, 6, 8, 16, 32}
			if !slices.Contains(busies, impl.Lanes) {
				busies = append(busies, impl.Lanes)
			}
			for _, busy := range busies {
				if busy > impl.Lanes || (busy == 1 && impl.Lanes > 2) || (lay.name != "aligned" && busy != impl.Lanes) {
					continue // layouts matter with every lane busy; busy counts measure the crossover
				}
				b.Run(fmt.Sprintf("impl=%s/lanes=%d/busy=%d/layout=%s", impl.Name, impl.Lanes, busy, lay.name), func(b *testing.B) {
					cputest.Require(b, impl.Level)
					cputest.RequireFeatures(b, impl.Needs)
					var states [kernel.MaxLanes]S
					sp, ptrs := laneArgs(&states, RandomBytes(rand.New(rand.NewPCG(1, 1)), impl.Lanes*lay.stride), impl.Lanes, lay.stride)
					// A hybrid kernel's fast lanes hash 32 KiB, the others their share.
					nblocks := laneBytes / a.BlockSize / max(1, impl.FastBlocks)
					b.SetBytes(int64(impl.Blocks(busy, nblocks) * a.BlockSize))
					for b.Loop() {
						impl.Fn(&sp, &ptrs, 1<<busy-1, nblocks)
					}
				})
			}
		}
		if impl.Fast == 0 {
			b.Run(fmt.Sprintf("impl=%s/lanes=%d/busy=%d/layout=memory", impl.Name, impl.Lanes, impl.Lanes), func(b *testing.B) {
				benchmarkMemory(b, a, impl, pool)
			})
		}
	}
}

// BenchmarkCall measures a call of each multi-lane kernel on one block in
// every lane: the fixed cost around the blocks (the states' moves into
// the kernel's layout and back, the transposes) that SumMany's short
// messages and the last round of its long ones pay a call.
func BenchmarkCall[S comparable](b *testing.B, a Algorithm[S]) {
	for _, impl := range a.Multis {
		b.Run(fmt.Sprintf("impl=%s/lanes=%d", impl.Name, impl.Lanes), func(b *testing.B) {
			cputest.Require(b, impl.Level)
			cputest.RequireFeatures(b, impl.Needs)
			var states [kernel.MaxLanes]S
			stride := a.BlockSize * max(1, impl.FastBlocks)
			sp, ptrs := laneArgs(&states, RandomBytes(rand.New(rand.NewPCG(1, 1)), impl.Lanes*stride), impl.Lanes, stride)
			for b.Loop() {
				impl.Fn(&sp, &ptrs, 1<<impl.Lanes-1, 1)
			}
		})
	}
}

// The stream workload the memory benchmarks mirror: messages of 1 MiB,
// one kernel call per 32 KiB of each lane.
const (
	msgBytes  = 1 << 20
	callBytes = 32 << 10
)

// benchmarkMemory measures a kernel as the engine runs it on streams of
// 1 MiB: every lane busy, one call per 32 KiB of each lane, on separately
// allocated messages, so that 32 lanes (32 MiB) stream from memory rather
// than from the caches. Each goroutine of b.RunParallel has its own
// messages: with -cpu 2 it measures two cores at once, the ceiling of
// the engine's two-core rounds.
func benchmarkMemory[S comparable](b *testing.B, a Algorithm[S], impl kernel.Multi[S], pool *messagePool) {
	cputest.Require(b, impl.Level)
	cputest.RequireFeatures(b, impl.Needs)
	b.SetBytes(int64(impl.Lanes * msgBytes))
	messages := pool.take(b, impl.Lanes)
	b.RunParallel(func(pb *testing.PB) {
		pass := streamPass(a, impl, messages(), msgBytes)
		for pb.Next() {
			pass()
		}
	})
}

// messagePool gives each goroutine of b.RunParallel messages of its own,
// msgBytes each, made once for all of a benchmark's rows and before the
// timer starts. Made inside the timed function they would cost the rows
// their making, the more the more lanes (docs/figures.md, "On AMD Zen 3").
type messagePool struct {
	sets [][][]byte // by goroutine
	r    *rand.Rand
}

func newMessagePool() *messagePool {
	return &messagePool{r: rand.New(rand.NewPCG(1, 1))}
}

// take makes sure each of GOMAXPROCS goroutines has n messages, resets
// b's timer, and returns what each goroutine calls once for its own.
func (p *messagePool) take(b *testing.B, n int) func() [][]byte {
	procs := runtime.GOMAXPROCS(0)
	for len(p.sets) < procs {
		p.sets = append(p.sets, nil)
	}
	for g := range procs {
		for len(p.sets[g]) < n {
			p.sets[g] = append(p.sets[g], RandomBytes(p.r, msgBytes))
		}
	}
	b.ResetTimer()
	var next atomic.Int32
	return func() [][]byte { return p.sets[next.Add(1)-1][:n] }
}

// streamPass returns one pass of a kernel over streams of size bytes as
// the engine runs them, every lane busy and one call per 32 KiB of each:
// the streams msgs, a multiple of the kernel's lanes, taken its lanes at a
// time, each stream reading its message from the start again where it is
// shorter.
func streamPass[S comparable](a Algorithm[S], impl kernel.Multi[S], msgs [][]byte, size int) func() {
	states := make([]S, len(msgs))
	var sp [kernel.MaxLanes]*S
	var ptrs [kernel.MaxLanes]*byte
	return func() {
		for off := 0; off < size; off += callBytes {
			for g := 0; g < len(msgs); g += impl.Lanes {
				for i, m := range msgs[g : g+impl.Lanes] {
					sp[i], ptrs[i] = &states[g+i], &m[off%len(m)]
				}
				impl.Fn(&sp, &ptrs, 1<<impl.Lanes-1, callBytes/a.BlockSize)
			}
		}
	}
}

// multiNamed is a's multi-lane kernel of that name; it skips b where this
// build has none.
func multiNamed[S comparable](b *testing.B, a Algorithm[S], name string) kernel.Multi[S] {
	k := slices.IndexFunc(a.Multis, func(m kernel.Multi[S]) bool { return m.Name == name })
	if k < 0 {
		b.Skipf("kernel %q not built for this GOARCH or tags", name)
	}
	return a.Multis[k]
}

// BenchmarkMemoryLanes measures the named kernel as benchmarkMemory does,
// every lane busy and one call per 32 KiB of each lane, but with only
// `streaming` of its lanes reading 1 MiB messages from beyond the L2; the
// others re-read 32 KiB of their own, which stay in the L2. The kernel's
// work is the same in every row: how the rate falls with streaming says what
// the lanes that leave the L2 cost, each (a steady fall) or past some
// count of streams (a step, as a prefetcher tracking too few would give).
func BenchmarkMemoryLanes[S comparable](b *testing.B, a Algorithm[S], name string) {
	impl := multiNamed(b, a, name)
	for streaming := 0; streaming <= impl.Lanes; streaming += impl.Lanes / 8 {
		b.Run(fmt.Sprintf("impl=%s/lanes=%d/streaming=%d", impl.Name, impl.Lanes, streaming), func(b *testing.B) {
			cputest.Require(b, impl.Level)
			cputest.RequireFeatures(b, impl.Needs)
			r := rand.New(rand.NewPCG(1, 1))
			msgs := make([][]byte, impl.Lanes)
			for i := range msgs {
				if i < streaming {
					msgs[i] = RandomBytes(r, msgBytes)
				} else {
					msgs[i] = RandomBytes(r, callBytes)
				}
			}
			pass := streamPass(a, impl, msgs, msgBytes)
			b.SetBytes(int64(impl.Lanes * msgBytes))
			for b.Loop() {
				pass()
			}
		})
	}
}

// BenchmarkLaneLayout measures every multi-lane kernel on lanes whose
// blocks sit at equal offsets modulo 4 KiB (layout=aliased: buffers of a
// power of two from 4 KiB up, as Go allocates them, and the streams of
// io.Copy) and on lanes staggered 256 bytes apart (layout=staggered), 64
// KiB a lane, in the L2, one call per 32 KiB. Blocks at equal offsets
// share an L1 set; a kernel that loads a block in pieces at different
// times can lose it between them (docs/kernel-design.md, "Loading the
// lanes"). Compare the two rows of a kernel run in one process.
func BenchmarkLaneLayout[S comparable](b *testing.B, a Algorithm[S]) {
	const laneBytes = 64 << 10
	for _, impl := range a.Multis {
		if impl.Reference || impl.FastBlocks > 0 {
			continue // the reference's and the hybrids' loads are not the lanes' transpose
		}
		for _, layout := range []struct {
			name    string
			stagger int
		}{{"aliased", 0}, {"staggered", 256}} {
			b.Run(fmt.Sprintf("impl=%s/lanes=%d/layout=%s", impl.Name, impl.Lanes, layout.name), func(b *testing.B) {
				cputest.Require(b, impl.Level)
				cputest.RequireFeatures(b, impl.Needs)
				stride := laneBytes + layout.stagger
				buf := RandomBytes(rand.New(rand.NewPCG(3, 3)), impl.Lanes*stride+4096)
				buf = buf[(4096-int(uintptr(unsafe.Pointer(&buf[0]))%4096))%4096:] // lane 0 at a page
				msgs := make([][]byte, impl.Lanes)
				for i := range msgs {
					msgs[i] = buf[i*stride:][:laneBytes]
				}
				pass := streamPass(a, impl, msgs, laneBytes)
				b.SetBytes(int64(impl.Lanes * laneBytes))
				for b.Loop() {
					pass()
				}
			})
		}
	}
}

// BenchmarkBatch measures the batch kernels alone, on one lane-full and
// on the most messages a call takes, each of the longest length that pads
// to nblocks blocks: what SumMany costs a message besides its gathering.
func BenchmarkBatch[S comparable](b *testing.B, a Algorithm[S]) {
	r := rand.New(rand.NewPCG(9, 9))
	for _, impl := range a.Batches {
		for _, count := range []int{impl.Lanes, kernel.MaxBatchMsgs} {
			for _, nblocks := range []int{1, 2, 4} {
				b.Run(fmt.Sprintf("impl=%s/lanes=%d/msgs=%d/blocks=%d", impl.Name, impl.Lanes, count, nblocks), func(b *testing.B) {
					cputest.Require(b, impl.Level)
					cputest.RequireFeatures(b, impl.Needs)
					size := nblocks*a.BlockSize - 2*a.BlockSize/8 - 1 // the longest that pads to nblocks (8- or 16-byte length)
					msgs := make([][]byte, count)
					idx := make([]int32, count)
					for i := range msgs {
						msgs[i], idx[i] = RandomBytes(r, size), int32(i)
					}
					out := make([]byte, count*a.Size)
					b.SetBytes(int64(count * size))
					for b.Loop() {
						impl.Fn(msgs, idx, count, &out[0], nblocks)
					}
				})
			}
		}
	}
}

// BenchmarkFootprint measures the named kernel on streams of 1 MiB as the
// engine runs N of them, N a multiple of its lanes: one call per 32 KiB of
// each lane, the streams taken a kernel's lanes at a time, every stream a
// separate allocation. The kernel's work per byte is the same in every row;
// only the messages' footprint grows (streams MiB a goroutine). Each
// goroutine of b.RunParallel has its own streams, so with -cpu 2 the two
// cores' footprints add up: what the engine's N=32 rounds at two Ps meet
// when the last-level cache, shared with the rest of the machine, no longer
// holds the messages.
func BenchmarkFootprint[S comparable](b *testing.B, a Algorithm[S], name string) {
	impl := multiNamed(b, a, name)
	pool := newMessagePool()
	for _, streams := range []int{4, 8, 16, 32, 64} {
		if streams%impl.Lanes != 0 {
			continue
		}
		b.Run(fmt.Sprintf("impl=%s/lanes=%d/streams=%d", impl.Name, impl.Lanes, streams), func(b *testing.B) {
			cputest.Require(b, impl.Level)
			cputest.RequireFeatures(b, impl.Needs)
			b.SetBytes(int64(streams * msgBytes))
			messages := pool.take(b, streams)
			b.RunParallel(func(pb *testing.PB) {
				pass := streamPass(a, impl, messages(), msgBytes)
				for pb.Next() {
					pass()
				}
			})
		})
	}
}

// AppendSum checks a one-shot sum, sum(dst, msg) appending msg's digest to
// dst, against the standard library's (want), at every length around the
// padding's one- and two-block cases of 64- and 128-byte blocks, appended
// after what dst holds. It skips t where sum reports it has no path here
// (ok false), after cputest's level and feature checks, which
// HASHLANES_TEST_REQUIRE can turn into a failure.
func AppendSum(t *testing.T, sum func(dst, msg []byte) ([]byte, bool), want func(msg []byte) []byte, level cpu.Level, features cpu.Feature) {
	if _, ok := sum(nil, nil); !ok {
		cputest.Require(t, level)
		cputest.RequireFeatures(t, features)
		t.Skip("no such path in this build")
	}
	r := rand.New(rand.NewPCG(3, 4))
	prefix := []byte("prefix")
	for n := range 4*128 + 2 {
		msg := RandomBytes(r, n)
		got, _ := sum(append([]byte(nil), prefix...), msg)
		if w := want(msg); !bytes.Equal(got[:len(prefix)], prefix) || !bytes.Equal(got[len(prefix):], w) {
			t.Fatalf("len %d: got %x, want %s%x", n, got, prefix, w)
		}
	}
}
