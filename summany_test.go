package hashlanes

import (
	"bytes"
	"context"
	"encoding/hex"
	"fmt"
	"io"
	"math/rand/v2"
	"sync"
	"testing"
	"testing/iotest"

	"github.com/hashlanes/hashlanes/internal/reference"
	"github.com/hashlanes/hashlanes/internal/tuning"
	"github.com/hashlanes/hashlanes/internal/workload"
)

// randomBatch draws count messages with lengths weighted to 0..200 bytes
// and to block boundaries, and a few long ones.
func randomBatch(r *rand.Rand, count int) [][]byte {
	msgs := make([][]byte, count)
	for i := range msgs {
		var n int
		switch r.IntN(10) {
		case 0, 1, 2, 3, 4:
			n = r.IntN(201)
		case 5, 6, 7:
			n = 64*r.IntN(5) + r.IntN(3) - 1 // around 0, 64, 128, 192, 256
			n = max(n, 0)
		case 8:
			n = 55 + r.IntN(3) // 55, 56, 57: the padding boundary
		default:
			n = r.IntN(70000)
		}
		msgs[i] = randomBytes(r, n)
		if r.IntN(50) == 0 {
			msgs[i] = nil
		}
	}
	return msgs
}

func loopSum(a Algorithm, msgs [][]byte) []byte {
	var out []byte
	for _, m := range msgs {
		h := reference.ID(a).New()
		h.Write(m)
		out = h.Sum(out)
	}
	return out
}

func TestSumManyAgainstStdlib(t *testing.T) {
	for _, a := range Algorithms() {
		forEachCPU(t, a, func(t *testing.T, s *Server) {
			r := rand.New(rand.NewPCG(21, uint64(a)))
			for _, count := range []int{0, 1, 2, 3, 15, 16, 17, 31, 32, 33, 100, 1000} {
				msgs := randomBatch(r, count)
				want := loopSum(a, msgs)
				prefix := []byte("keep")
				got := s.SumMany(bytes.Clone(prefix), msgs)
				if !bytes.Equal(got[:4], prefix) || !bytes.Equal(got[4:], want) {
					t.Fatalf("%v, %d messages: digests differ", a, count)
				}
				got = s.SumManyHex(bytes.Clone(prefix), msgs)
				if !bytes.Equal(got[:4], prefix) || string(got[4:]) != hex.EncodeToString(want) {
					t.Fatalf("%v, %d messages: hex digests differ", a, count)
				}
			}
		})
	}
	// A 1 MiB message next to tiny ones, and one message alone.
	big := randomBytes(rand.New(rand.NewPCG(1, 1)), 1<<20)
	for _, msgs := range [][][]byte{{big, []byte("x"), nil, big[:10]}, {big}, {nil}} {
		if got, want := SumMany(MD5, nil, msgs), loopSum(MD5, msgs); !bytes.Equal(got, want) {
			t.Fatalf("%d messages with a 1 MiB one", len(msgs))
		}
	}
}

// TestSumManyHugeAmongTiny mixes a 64 MiB message with empty, one-byte
// and one-block ones (a batch's short classes and its long lanes at
// once), at every tier: the short ones finish in their batch kernel
// calls while the long one runs through its lanes.
func TestSumManyHugeAmongTiny(t *testing.T) {
	if testing.Short() {
		t.Skip("hashes 64 MiB per algorithm and tier")
	}
	r := rand.New(rand.NewPCG(64, 64))
	huge := randomBytes(r, 64<<20)
	msgs := [][]byte{nil, {}, []byte("a"), huge, randomBytes(r, 55), {0}, randomBytes(r, 56), huge[1:], nil, []byte("b")}
	for range 20 {
		msgs = append(msgs, randomBytes(r, r.IntN(120)))
	}
	for _, a := range []Algorithm{MD5, SHA1, SHA256, SHA512} { // one of each kernel family
		want := loopSum(a, msgs)
		forEachCPU(t, a, func(t *testing.T, s *Server) {
			if got := s.SumMany(nil, msgs); !bytes.Equal(got, want) {
				t.Fatal("digests differ")
			}
		})
	}
}

// TestSumManyFullCalls fills the batch kernels' calls: hundreds of
// messages of one padded length, past one call's worth, and the URL
// corpus, whose paths nearly all take one block.
func TestSumManyFullCalls(t *testing.T) {
	urls := workload.URLPaths(3000)
	for _, a := range laneAlgorithms() {
		forEachCPU(t, a, func(t *testing.T, s *Server) {
			r := rand.New(rand.NewPCG(8, uint64(a)))
			for _, n := range []int{0, 1, 40, 55, 56, 63, 64, 100, 119, 120, 200, 247} {
				for _, count := range []int{255, 256, 257, 529} {
					msgs := make([][]byte, count)
					for i := range msgs {
						msgs[i] = randomBytes(r, n)
					}
					if got, want := s.SumMany(nil, msgs), loopSum(a, msgs); !bytes.Equal(got, want) {
						t.Fatalf("%d messages of %d bytes: digests differ", count, n)
					}
				}
			}
			if got, want := s.SumMany(nil, urls), loopSum(a, urls); !bytes.Equal(got, want) {
				t.Fatal("URL paths: digests differ")
			}
		})
	}
}

func TestSumManyCanaryAndAllocs(t *testing.T) {
	for _, a := range laneAlgorithms() {
		t.Run(a.String(), func(t *testing.T) { testSumManyCanaryAndAllocs(t, a) })
	}
}

func testSumManyCanaryAndAllocs(t *testing.T, a Algorithm) {
	r := rand.New(rand.NewPCG(5, 5))
	msgs := randomBatch(r, 300)
	want := loopSum(a, msgs)
	forEachCPU(t, a, func(t *testing.T, s *Server) {
		size := len(msgs) * a.Size()
		buf := make([]byte, 2+size+16)
		for i := range buf {
			buf[i] = 0x5a
		}
		got := s.SumMany(buf[:2:2+size], msgs)
		if !bytes.Equal(got[2:], want) {
			t.Fatal("digests differ")
		}
		for i, c := range buf[2+size:] {
			if c != 0x5a {
				t.Fatalf("SumMany wrote past dst's capacity at +%d", i)
			}
		}
		buf = bytes.Repeat([]byte{0x5a}, 2+2*size+16)
		got = s.SumManyHex(buf[:2:2+2*size], msgs)
		if string(got[2:]) != hex.EncodeToString(want) {
			t.Fatal("hex digests differ")
		}
		for i, c := range buf[2+2*size:] {
			if c != 0x5a {
				t.Fatalf("SumManyHex wrote past dst's capacity at +%d", i)
			}
		}
		if raceEnabled {
			return // see raceEnabled
		}
		// The tuning's one measurement a process, and the SumMany cut-off
		// it brings, allocate; where earlier tests ran no round on the
		// lanes (streams that run one after another are no company), a
		// SumMany here may be the first to make it.
		s.Calibrate()
		dst := make([]byte, 0, 2*size)
		s.SumMany(dst, msgs) // warm the pool, and ask the cut-off
		s.SumManyHex(dst, msgs)
		if n := testing.AllocsPerRun(20, func() { s.SumMany(dst[:0], msgs) }); n != 0 {
			t.Fatalf("%v allocations per call with room in dst", n)
		}
		if n := testing.AllocsPerRun(20, func() { s.SumManyHex(dst[:0], msgs) }); n != 0 {
			t.Fatalf("SumManyHex: %v allocations per call with room in dst", n)
		}
	})
}

func TestSumManyConcurrent(t *testing.T) {
	r := rand.New(rand.NewPCG(6, 6))
	batches := make([][][]byte, 8)
	for i := range batches {
		batches[i] = randomBatch(r, 200)
	}
	var wg sync.WaitGroup
	for _, msgs := range batches {
		wg.Go(func() {
			for range 5 {
				if !bytes.Equal(SumMany(MD5, nil, msgs), loopSum(MD5, msgs)) {
					t.Error("concurrent SumMany differs")
					return
				}
			}
		})
	}
	wg.Wait()
}

func FuzzSumMany(f *testing.F) {
	f.Add([]byte("hello"), uint8(3), uint8(1))
	f.Add(bytes.Repeat([]byte{1}, 500), uint8(40), uint8(7))
	f.Fuzz(func(t *testing.T, data []byte, count, step uint8) {
		// Messages are windows of data of varying lengths.
		msgs := make([][]byte, int(count)%64)
		for i := range msgs {
			start := (i * int(step)) % (len(data) + 1)
			end := min(len(data), start+i*int(step)%130)
			msgs[i] = data[start:end]
		}
		for _, s := range fuzzServers() {
			want := loopSum(s.Algorithm(), msgs)
			if got := s.SumMany(nil, msgs); !bytes.Equal(got, want) {
				t.Fatalf("%s: SumMany differs from the loop", s.Kernel())
			}
			if got := s.SumManyHex([]byte("x"), msgs); string(got) != "x"+hex.EncodeToString(want) {
				t.Fatalf("%s: SumManyHex differs from the loop", s.Kernel())
			}
		}
	})
}

// BenchmarkSumMany compares SumMany with the one-shot loop (the standard
// library's Sum appending to a preallocated dst). ns/op is per batch;
// divide by n for ns per message.
func BenchmarkSumMany(b *testing.B) {
	type batch struct {
		name string
		msgs [][]byte
	}
	var loads []batch
	loads = append(loads, batch{"msgs=urls/n=10000", workload.URLPaths(10000)}, batch{"msgs=urls/n=3", workload.URLPaths(3)},
		batch{"msgs=nil/n=10000", make([][]byte, 10000)})
	for _, size := range []int{64, 1 << 10} {
		r := rand.New(rand.NewPCG(7, uint64(size)))
		msgs := make([][]byte, 2000)
		for i := range msgs {
			msgs[i] = randomBytes(r, size)
		}
		loads = append(loads, batch{fmt.Sprintf("size=%s/n=2000", workload.SizeName(int64(size))), msgs})
	}
	// isa-l_crypto's perf programs' batch (bench/peers/isal).
	r := rand.New(rand.NewPCG(7, 4096))
	isal := make([][]byte, 32)
	for i := range isal {
		isal[i] = randomBytes(r, 4<<10)
	}
	loads = append(loads, batch{"size=4KiB/n=32", isal})
	for _, a := range []Algorithm{MD5, SHA1, SHA256, SHA512, SHA224, SHA384, SHA512_256} {
		for _, w := range loads {
			if a != MD5 && a != SHA1 && a != SHA256 && a != SHA512 && w.name != "msgs=urls/n=10000" {
				continue // the other members of the SHA-2 families: the URL paths only
			}
			var total int64
			for _, m := range w.msgs {
				total += int64(len(m))
			}
			dst := make([]byte, 0, len(w.msgs)*a.Size())
			b.Run(fmt.Sprintf("alg=%v/impl=loop/%s", a, w.name), func(b *testing.B) {
				b.SetBytes(total)
				b.ReportAllocs()
				for b.Loop() {
					stdLoop(a, dst[:0], w.msgs)
				}
			})
			b.Run(fmt.Sprintf("alg=%v/impl=hashlanes/%s", a, w.name), func(b *testing.B) {
				b.SetBytes(total)
				b.ReportAllocs()
				for b.Loop() {
					SumMany(a, dst[:0], w.msgs)
				}
			})
			// Hex keys: SumMany then encoding/hex, against SumManyHex.
			if w.name == "msgs=urls/n=10000" {
				keys := make([]byte, 0, 2*cap(dst))
				b.Run(fmt.Sprintf("alg=%v/impl=hashlanes+encoding-hex/%s", a, w.name), func(b *testing.B) {
					b.SetBytes(total)
					b.ReportAllocs()
					for b.Loop() {
						hex.Encode(keys[:cap(keys)], SumMany(a, dst[:0], w.msgs))
					}
				})
				b.Run(fmt.Sprintf("alg=%v/impl=hashlanes-hex/%s", a, w.name), func(b *testing.B) {
					b.SetBytes(total)
					b.ReportAllocs()
					for b.Loop() {
						SumManyHex(a, keys[:0], w.msgs)
					}
				})
			}
			// The same capped at AVX2: which kernels suit short messages.
			if DetectedCPU() >= CPUAVX512 {
				s := NewServer(a, WithCPU(CPUAVX2))
				b.Run(fmt.Sprintf("alg=%v/impl=hashlanes-avx2/%s", a, w.name), func(b *testing.B) {
					b.SetBytes(total)
					b.ReportAllocs()
					for b.Loop() {
						s.SumMany(dst[:0], w.msgs)
					}
				})
			}
		}
	}
}

// BenchmarkSumManyFew is the measurement behind sumManyCutoff: a few URL
// paths through the server's lanes (its SumMany path whatever the count,
// where SumMany itself runs the one-shot loop below the cut-off) against
// that loop (fewLoop: hashlanes' one-shot path where it has one, else the
// standard library's), per message count.
func BenchmarkSumManyFew(b *testing.B) {
	paths := workload.URLPaths(16)
	for _, a := range []Algorithm{MD5, SHA1, SHA224, SHA256, SHA384, SHA512} {
		s := DefaultServer(a)
		for _, n := range []int{1, 2, 3, 4, 5, 6, 8, 12, 16} {
			msgs := paths[:n]
			dst := make([]byte, 0, n*a.Size())
			b.Run(fmt.Sprintf("alg=%v/n=%d/impl=loop", a, n), func(b *testing.B) {
				b.ReportAllocs()
				for b.Loop() {
					s.fewLoop(dst[:0], msgs)
				}
			})
			b.Run(fmt.Sprintf("alg=%v/n=%d/impl=lanes", a, n), func(b *testing.B) {
				b.ReportAllocs()
				for b.Loop() {
					s.many(dst[:0], msgs)
				}
			})
		}
	}
}

// stdLoop is the baseline of BenchmarkSumMany: a plain loop of the standard
// library's one-shot function appending to dst, the function chosen once
// (reference.ID.SumEach, which SumMany itself runs below its cut-off where
// hashlanes has no one-shot path of its own).
func stdLoop(a Algorithm, d []byte, msgs [][]byte) []byte { return reference.ID(a).SumEach(d, msgs) }

// TestFewForLanes checks SumMany's choice of the one-shot loop against
// its definition, counted plainly: under manyMinBytes in all, and one
// message, or fewer messages that pad to one block count than the
// cut-off, for every cut-off and block size.
func TestFewForLanes(t *testing.T) {
	r := rand.New(rand.NewPCG(7, 7))
	for _, a := range []Algorithm{MD5, SHA256, SHA512} {
		s := NewServer(a)
		if s.choice == nil {
			t.Skipf("%v is not on the engine in this build", a)
		}
		for cut := 0; cut <= maxManyMin+1; cut++ {
			s.manyMin.Store(&manyMinCached{n: cut, final: true})
			for range 2000 {
				msgs := make([][]byte, r.IntN(maxManyMin+1))
				for i := range msgs {
					msgs[i] = make([]byte, r.IntN(3*a.BlockSize()))
					if r.IntN(20) == 0 {
						msgs[i] = make([]byte, r.IntN(2*manyMinBytes))
					}
				}
				total, counts := 0, map[int]int{}
				most := 0
				for _, m := range msgs {
					total += len(m)
					lenField := 8
					if a.BlockSize() == 128 {
						lenField = 16
					}
					c := min((len(m)+lenField)/a.BlockSize(), maxManyMin-1)
					counts[c]++
					most = max(most, counts[c])
				}
				want := total < manyMinBytes && (len(msgs) < 2 || most < cut)
				if got := s.fewForLanes(msgs); got != want {
					t.Fatalf("%v, cut-off %d, lengths %v: fewForLanes %v, want %v", a, cut, lengths(msgs), got, want)
				}
			}
		}
	}
}

func lengths(msgs [][]byte) []int {
	var n []int
	for _, m := range msgs {
		n = append(n, len(m))
	}
	return n
}

// TestManyMinMsgs checks that every prior's cut-offs cover the
// algorithms on the engine: a missing one would send few messages through
// the lanes at the default cut-off, and a lone message must never go
// there (it measured slower than the one-shot function everywhere).
func TestManyMinMsgs(t *testing.T) {
	for _, name := range tuning.PriorNames() {
		for _, a := range []Algorithm{MD5, SHA1, SHA224, SHA256, SHA384, SHA512, SHA512_224, SHA512_256} {
			s := NewServer(a, WithTuning("table:"+name))
			if s.choice == nil {
				t.Skipf("%v is not on the engine in this build", a)
			}
			if n := s.sumManyCutoff(); n < 2 {
				t.Errorf("%s: %v goes through the lanes from %d messages, want at least 2", name, a, n)
			}
		}
	}
	// Measured, the cut-off is at least 2 and at most one past the most
	// messages measured.
	if s := NewServer(SHA1, WithTuning("measure")); s.choice != nil {
		if n := s.sumManyCutoff(); n < 2 || n > maxManyMin+1 {
			t.Errorf("measured SHA-1 cut-off %d", n)
		}
	}
}

// FuzzBLAKE3Many: BLAKE3 of many messages, in lanes across them, through
// SumMany and through SumStreams (where short streams of BLAKE3 alone are
// read whole and hashed together), equals the reference's message by
// message. The messages are windows of data repeated to chunk-crossing
// lengths.
func FuzzBLAKE3Many(f *testing.F) {
	f.Add([]byte("hello"), uint8(3), uint16(1500))
	f.Add(bytes.Repeat([]byte{1, 2, 3}, 700), uint8(40), uint16(7))
	f.Fuzz(func(t *testing.T, data []byte, count uint8, step uint16) {
		if len(data) == 0 {
			data = []byte{0}
		}
		msgs := make([][]byte, int(count)%48)
		for i := range msgs {
			n := (i * int(step)) % (70 << 10)
			msgs[i] = bytes.Repeat(data, n/len(data)+1)[:n]
		}
		want := loopSum(BLAKE3, msgs)
		for i, m := range msgs {
			if ref := refSum(BLAKE3, m); !bytes.Equal(want[32*i:32*i+32], ref) {
				t.Fatalf("message %d: the loop differs from the reference", i)
			}
		}
		if got := SumMany(BLAKE3, nil, msgs); !bytes.Equal(got, want) {
			t.Fatalf("SumMany differs from the reference")
		}
		next := 0
		SumStreams(context.Background(), []Algorithm{BLAKE3}, len(msgs),
			func(i int) (io.Reader, error) { return iotest.HalfReader(bytes.NewReader(msgs[i])), nil },
			func(i int, s StreamSum) {
				if s.Err != nil || !bytes.Equal(s.Sums[0], want[32*i:32*i+32]) {
					t.Fatalf("SumStreams, stream %d of %d bytes: %x, %v", i, len(msgs[i]), s.Sums, s.Err)
				}
				next++
			}, WithJobs(int(count)%9+1))
		if next != len(msgs) {
			t.Fatalf("%d of %d streams delivered", next, len(msgs))
		}
	})
}
