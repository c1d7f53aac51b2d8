package hashlanes

import (
	"bytes"
	"crypto/md5"
	"encoding"
	"encoding/hex"
	"fmt"
	"hash"
	"math"
	"math/rand/v2"
	"runtime"
	"slices"
	"strings"
	"sync"
	"testing"

	_ "github.com/hashlanes/hashlanes/blake2" // BLAKE2, which the library links only on request
	"github.com/hashlanes/hashlanes/internal/blake3tree"
	"github.com/hashlanes/hashlanes/internal/cpu"
	"github.com/hashlanes/hashlanes/internal/cpu/cputest"
	"github.com/hashlanes/hashlanes/internal/reference"
	_ "github.com/hashlanes/hashlanes/internal/reference/blake3ref" // BLAKE3's reference, which the library does not link
	"github.com/hashlanes/hashlanes/internal/tuning"
)

// forEachCPU runs f once per CPU tier, with a Server capped at that tier; a
// tier this machine lacks is skipped (or fails, see cputest).
func forEachCPU(t *testing.T, a Algorithm, f func(t *testing.T, s *Server), opts ...Option) {
	forEachTier(t, func(t *testing.T, c CPU) {
		s := NewServer(a, append([]Option{WithCPU(c)}, opts...)...)
		defer s.Close()
		f(t, s)
	})
}

// forEachTier runs f once per CPU tier, as a subtest, skipping the tiers
// this CPU lacks (see cputest.Require).
func forEachTier(t *testing.T, f func(t *testing.T, c CPU)) {
	for _, c := range []CPU{CPUGeneric, CPUAVX2, CPUAVX512} {
		t.Run(c.String(), func(t *testing.T) {
			cputest.Require(t, cpu.Level(c))
			f(t, c)
		})
	}
}

// laneAlgorithms are the algorithms the engine serves (the others use the
// standard library, which these tests would only compare with itself). A
// generic-tier server is on the engine whenever the algorithm is, even in
// builds where the default server falls back to the standard library.
func laneAlgorithms() []Algorithm {
	var as []Algorithm
	for _, a := range Algorithms() {
		if !NewServer(a, WithCPU(CPUGeneric)).Reference() {
			as = append(as, a)
		}
	}
	return as
}

// forEachLaneAlgorithm runs f for every algorithm on the engine and every
// CPU tier.
func forEachLaneAlgorithm(t *testing.T, f func(t *testing.T, a Algorithm, s *Server), opts ...Option) {
	for _, a := range laneAlgorithms() {
		t.Run(a.String(), func(t *testing.T) {
			forEachCPU(t, a, func(t *testing.T, s *Server) { f(t, a, s) }, opts...)
		})
	}
}

// lanesPay reports whether s's current choice runs ready streams on a
// multi-lane kernel rather than on the single-stream one.
func lanesPay(s *Server, ready int) bool {
	if s.choice == nil {
		return false
	}
	k, _ := s.choice().Pick(ready, true)
	return k >= 0
}

// refSum is the standard library's digest of msg.
func refSum(a Algorithm, msg []byte) []byte {
	h := reference.ID(a).New()
	h.Write(msg)
	return h.Sum(nil)
}

func randomBytes(r *rand.Rand, n int) []byte {
	b := make([]byte, n)
	for i := range b {
		b[i] = byte(r.Uint32())
	}
	return b
}

// writeSplit writes msg to h in random pieces, empty ones included.
func writeSplit(r *rand.Rand, h hash.Hash, msg []byte) {
	for len(msg) > 0 {
		var n int
		switch r.IntN(4) {
		case 0:
			n = 0
		case 1:
			n = r.IntN(8)
		case 2:
			n = r.IntN(200)
		default:
			n = r.IntN(len(msg) + 1)
		}
		n = min(n, len(msg))
		h.Write(msg[:n])
		msg = msg[n:]
	}
}

func TestRFC1321(t *testing.T) {
	vectors := []struct{ in, out string }{
		{"", "d41d8cd98f00b204e9800998ecf8427e"},
		{"a", "0cc175b9c0f1b6a831c399e269772661"},
		{"abc", "900150983cd24fb0d6963f7d28e17f72"},
		{"message digest", "f96b697d7cb7938d525a2f31aaf161d0"},
		{"abcdefghijklmnopqrstuvwxyz", "c3fcd3d76192e4007dfb496cca67e13b"},
		{"ABCDEFGHIJKLMNOPQRSTUVWXYZabcdefghijklmnopqrstuvwxyz0123456789", "d174ab98d277d9f5a5611c2c9f419d9f"},
		{"12345678901234567890123456789012345678901234567890123456789012345678901234567890", "57edf4a22be3c955ac49da2e2107b67a"},
	}
	forEachCPU(t, MD5, func(t *testing.T, s *Server) {
		for _, v := range vectors {
			h := s.NewHash()
			h.Write([]byte(v.in))
			if got := hex.EncodeToString(h.Sum(nil)); got != v.out {
				t.Errorf("MD5(%q) = %s, want %s", v.in, got, v.out)
			}
		}
	})
	for _, v := range vectors {
		if got := hex.EncodeToString(Sum(MD5, []byte(v.in))); got != v.out {
			t.Errorf("Sum(MD5, %q) = %s, want %s", v.in, got, v.out)
		}
	}
}

// TestStreamsAgainstStdlib hashes, for every lane count 1..32, that many
// concurrent streams of random lengths in random pieces, and compares each
// digest with crypto/md5. Lengths cover 0..4 blocks+1 exactly and larger
// random ones that stay in the lanes across several kernel calls.
func TestStreamsAgainstStdlib(t *testing.T) {
	forEachLaneAlgorithm(t, func(t *testing.T, a Algorithm, s *Server) {
		r := rand.New(rand.NewPCG(7, uint64(a)))
		for streams := 1; streams <= 32; streams++ {
			msgs := make([][]byte, streams)
			for i := range msgs {
				var n int
				switch r.IntN(3) {
				case 0:
					n = r.IntN(4*64 + 2)
				case 1:
					n = r.IntN(64 << 10)
				default:
					n = 1<<10*(16+r.IntN(200)) + r.IntN(64)
				}
				msgs[i] = randomBytes(r, n)
			}
			seeds := make([]uint64, streams)
			for i := range seeds {
				seeds[i] = r.Uint64()
			}
			digests := make([][]byte, streams)
			var wg sync.WaitGroup
			for i := range msgs {
				wg.Go(func() {
					h := s.NewHash()
					writeSplit(rand.New(rand.NewPCG(seeds[i], 0)), h, msgs[i])
					digests[i] = h.Sum(nil)
				})
			}
			wg.Wait()
			for i, m := range msgs {
				if want := refSum(a, m); !bytes.Equal(digests[i], want) {
					t.Fatalf("%d streams, stream %d (%d bytes): got %x, want %x", streams, i, len(m), digests[i], want)
				}
			}
		}
		t.Logf("%s: %+v", s.Kernel(), s.Stats())
	})
}

// TestLanesAreUsed: 32 streams written at once go through the multi-lane
// kernels, not one after another (GOMAXPROCS=1, so that the one core has
// to share). Under the race detector the servers choose by a prior's
// rates (the Golden Cove Xeon's, whose choices at 32 streams are lanes at
// every tier): the detector slows the Go side of a lane kernel's call and
// not the single-stream kernel's, so the quick measurement there put two
// SHA-NI streams at the rate of one, and a run in 20 to 40 hashed most of
// its 32 streams one after another. scripts/test runs this test without
// the detector too, on rates measured in the process.
func TestLanesAreUsed(t *testing.T) {
	defer runtime.GOMAXPROCS(runtime.GOMAXPROCS(1))
	msg := make([]byte, 1<<20)
	// run writes 32 streams of 1 MiB in 32 KiB writes at one P.
	run := func(t *testing.T, s *Server) Stats {
		if !strings.Contains(s.Kernel(), "lanes") {
			t.Skip("no multi-lane kernel at this tier")
		}
		var wg sync.WaitGroup
		for range 32 {
			wg.Go(func() {
				h := s.NewHash()
				for p := msg; len(p) > 0; p = p[32<<10:] {
					h.Write(p[:32<<10])
				}
			})
		}
		wg.Wait()
		return s.Stats()
	}
	// On a prior's table the choice does not move: the lanes carry the
	// streams, and with more streams than lanes rounds run mostly full.
	t.Run("table", func(t *testing.T) {
		if runtime.GOARCH != "amd64" {
			t.Skip("the priors are amd64's: their tables rate no kernel of " + runtime.GOARCH)
		}
		forEachLaneAlgorithm(t, func(t *testing.T, a Algorithm, s *Server) {
			st := run(t, s)
			if total := st.MultiBlocks + st.SingleBlocks; st.MultiBlocks < total*3/4 {
				t.Errorf("%s: only %d of %d blocks in lanes (%+v); choices: %s", s.Kernel(), st.MultiBlocks, total, st, s.Tuning())
			}
			if st.MultiBlocks > st.MultiCapacity || st.MultiBlocks < st.MultiCapacity/2 {
				t.Errorf("%s: %d blocks hashed in lanes with room for %d (%+v)", s.Kernel(), st.MultiBlocks, st.MultiCapacity, st)
			}
		}, WithTuning("table:goldencove"))
	})
	// On the rates the process measures, the choice follows the machine:
	// in a slow spell the SHA-NI streams of the AVX2 tier can tie the
	// single stream, and the rounds then rightly run on it. What holds
	// wherever a multi-lane kernel pays for the 32 streams is that they
	// meet: hardly a block is hashed in a round that found one stream.
	// Where none pays, streams that would run one after another anyway are
	// no company, and need not meet; under an emulator the rounds' pace is
	// no machine's, and scripts/test leaves the subtest to real hardware
	// there. The rates are measured first (Calibrate): measured in the
	// middle of the burst, once the family has hashed enough, the pause
	// of a few milliseconds in one writer's goroutine left the burst's
	// streams hashing up to 26 of their 1,024 writes alone (MD5 at the
	// generic tier, 4 runs in 30; 0 in 8 processes of 6 bursts each with
	// Calibrate first).
	t.Run("measured", func(t *testing.T) {
		if raceEnabled {
			t.Skip("the race detector's slowdown is no machine to measure rates on")
		}
		forEachLaneAlgorithm(t, func(t *testing.T, a Algorithm, s *Server) {
			s.Calibrate()
			st := run(t, s)
			if !lanesPay(s, 32) {
				t.Skipf("the measured rates run 32 streams on the single-stream kernel: nothing to meet for (%s)", s.Tuning())
			}
			if total := st.MultiBlocks + st.SingleBlocks; st.LoneBlocks > total/32 {
				t.Errorf("%s: %d of %d blocks hashed alone (%+v); choices: %s", s.Kernel(), st.LoneBlocks, total, st, s.Tuning())
			}
		})
	})
}

func TestEveryLength(t *testing.T) {
	r := rand.New(rand.NewPCG(9, 10))
	msg := randomBytes(r, 4*64+70)
	forEachLaneAlgorithm(t, func(t *testing.T, a Algorithm, s *Server) {
		for n := range msg {
			want := refSum(a, msg[:n])
			h := s.NewHash()
			h.Write(msg[:n])
			if got := h.Sum(nil); !bytes.Equal(got, want) {
				t.Fatalf("len %d: got %x, want %x", n, got, want)
			}
			h = s.NewHash()
			writeSplit(r, h, msg[:n])
			if got := h.Sum(nil); !bytes.Equal(got, want) {
				t.Fatalf("len %d split: got %x, want %x", n, got, want)
			}
		}
	})
}

func TestHashContract(t *testing.T) {
	forEachLaneAlgorithm(t, func(t *testing.T, a Algorithm, s *Server) {
		r := rand.New(rand.NewPCG(11, 12))
		msg := randomBytes(r, 3<<20)
		h := s.NewHash()
		if h.Size() != a.Size() || h.BlockSize() != a.BlockSize() {
			t.Fatalf("Size %d BlockSize %d", h.Size(), h.BlockSize())
		}
		// nil and empty writes, 1-byte writes, Sum mid-stream and going on.
		h.Write(nil)
		h.Write([]byte{})
		for i := range 100 {
			h.Write(msg[i : i+1])
		}
		mid := refSum(a, msg[:100])
		prefix := []byte("prefix")
		if got := h.Sum(prefix); !bytes.Equal(got[:6], prefix) || !bytes.Equal(got[6:], mid) {
			t.Fatalf("Sum mid-stream = %x, want prefix + %x", got, mid)
		}
		if got := h.Sum(nil); !bytes.Equal(got, mid) {
			t.Fatal("Sum changed the state")
		}
		h.Write(msg[100:]) // many MiB at once
		if want := refSum(a, msg); !bytes.Equal(h.Sum(nil), want) {
			t.Fatal("large write after Sum")
		}
		// Reset mid-stream.
		h.Write(msg[:77])
		h.Reset()
		h.Write(msg[:1000])
		if want := refSum(a, msg[:1000]); !bytes.Equal(h.Sum(nil), want) {
			t.Fatal("Reset mid-stream")
		}
		if n, err := h.Write(msg[:5]); n != 5 || err != nil {
			t.Fatalf("Write = %d, %v", n, err)
		}
	})
}

func TestMarshalInterop(t *testing.T) {
	r := rand.New(rand.NewPCG(13, 14))
	forEachLaneAlgorithm(t, func(t *testing.T, a Algorithm, s *Server) {
		for _, n := range []int{0, 1, 63, 64, 65, 1000, 70000} {
			msg := randomBytes(r, n+500)
			want := refSum(a, msg)

			// hashlanes -> the standard library
			h := s.NewHash()
			h.Write(msg[:n])
			state, err := h.(encoding.BinaryMarshaler).MarshalBinary()
			if err != nil {
				t.Fatal(err)
			}
			std := reference.ID(a).New()
			if err := std.(encoding.BinaryUnmarshaler).UnmarshalBinary(state); err != nil {
				t.Fatalf("the standard library rejects our state: %v", err)
			}
			std.Write(msg[n:])
			if got := std.Sum(nil); !bytes.Equal(got, want) {
				t.Fatalf("n=%d: resumed in the standard library: %x, want %x", n, got, want)
			}

			// the standard library -> hashlanes, and AppendBinary agrees with MarshalBinary
			std = reference.ID(a).New()
			std.Write(msg[:n])
			stdState, _ := std.(encoding.BinaryMarshaler).MarshalBinary()
			if !bytes.Equal(stdState, state) {
				t.Fatalf("n=%d: state differs from the standard library's:\n%x\n%x", n, state, stdState)
			}
			h2 := s.NewHash()
			if err := h2.(encoding.BinaryUnmarshaler).UnmarshalBinary(stdState); err != nil {
				t.Fatal(err)
			}
			h2.Write(msg[n:])
			if got := h2.Sum(nil); !bytes.Equal(got, want) {
				t.Fatalf("n=%d: resumed from the standard library: %x", n, got)
			}
			app, _ := h.(encoding.BinaryAppender).AppendBinary([]byte("x"))
			if !bytes.Equal(app[1:], state) {
				t.Fatal("AppendBinary differs from MarshalBinary")
			}
		}
	})
}

func TestUnmarshalBadState(t *testing.T) {
	h := New(MD5)
	h.Write([]byte("keep me"))
	before := h.Sum(nil)
	good, _ := h.(encoding.BinaryMarshaler).MarshalBinary()
	sha, _ := New(SHA256).(encoding.BinaryMarshaler).MarshalBinary()
	for name, b := range map[string][]byte{
		"empty":     nil,
		"truncated": good[:len(good)-1],
		"long":      append(bytes.Clone(good), 0),
		"magic":     append([]byte("md5\x02"), good[4:]...),
		"sha256":    sha,
	} {
		err := h.(encoding.BinaryUnmarshaler).UnmarshalBinary(b)
		if err == nil {
			t.Errorf("%s: no error", name)
		}
		if got := h.Sum(nil); !bytes.Equal(got, before) {
			t.Errorf("%s: state changed by a failed unmarshal", name)
		}
	}
}

func TestClone(t *testing.T) {
	forEachLaneAlgorithm(t, func(t *testing.T, a Algorithm, s *Server) {
		h := s.NewHash()
		h.Write([]byte("hello, "))
		c, err := h.(hash.Cloner).Clone()
		if err != nil {
			t.Fatal(err)
		}
		h.Write([]byte("world"))
		c.Write([]byte("lanes"))
		wh, wc := refSum(a, []byte("hello, world")), refSum(a, []byte("hello, lanes"))
		if !bytes.Equal(h.Sum(nil), wh) || !bytes.Equal(c.Sum(nil), wc) {
			t.Fatal("clone is not independent")
		}
	})
}

func TestCloseKeepsHashersWorking(t *testing.T) {
	forEachCPU(t, MD5, func(t *testing.T, s *Server) {
		msg := bytes.Repeat([]byte("0123456789"), 10000)
		h := s.NewHash()
		h.Write(msg[:5000])
		if err := s.Close(); err != nil {
			t.Fatal(err)
		}
		if err := s.Close(); err != nil {
			t.Fatal("second Close:", err)
		}
		h.Write(msg[5000:])
		h2 := s.NewHash()
		h2.Write(msg)
		want := md5.Sum(msg)
		if !bytes.Equal(h.Sum(nil), want[:]) || !bytes.Equal(h2.Sum(nil), want[:]) {
			t.Fatal("wrong digest after Close")
		}
	})
}

func TestNoAllocs(t *testing.T) {
	if raceEnabled {
		t.Skip("allocation counts are meaningless under the race detector (see raceEnabled)")
	}
	forEachLaneAlgorithm(t, func(t *testing.T, a Algorithm, s *Server) {
		h := s.NewHash()
		small, big := make([]byte, 100), make([]byte, 32<<10)
		out := make([]byte, 0, a.Size())
		h.Write(big) // warm the pools
		for name, f := range map[string]func(){
			"Write small": func() { h.Write(small) },
			"Write 32KiB": func() { h.Write(big) },
			"Sum":         func() { out = h.Sum(out[:0]) },
			"Reset":       func() { h.Reset() },
		} {
			if n := testing.AllocsPerRun(200, f); n != 0 {
				t.Errorf("%s: %v allocations", name, n)
			}
		}
	})
}

// TestNewCostsWhatTheLibraryCosts: a hasher made per short message
// allocates what the standard library's allocates and a few words more,
// and no more objects where the lone stream runs hashlanes' own kernel.
// The engine's state (480 bytes for SHA-1) made with every hasher cost
// hashers made per 16 KiB upload 6% at two Ps, on memory traffic alone.
func TestNewCostsWhatTheLibraryCosts(t *testing.T) {
	if raceEnabled {
		t.Skip("allocation counts are meaningless under the race detector (see raceEnabled)")
	}
	if cpu.Active == cpu.Generic && cpu.Detected > cpu.Generic {
		t.Skip("HASHLANES_CPU=generic: new streams start in the engine's own state, so that its pure-Go path is tested")
	}
	const n, slack = 1000, 48
	msg := make([]byte, 100)
	out := make([]byte, 0, 64)
	// The least of three measurements: about one run in ten, something
	// outside the hashers (the runtime's own, as a collection starts)
	// allocated a few KiB in one of them.
	perHasher := func(newHash func() hash.Hash) uint64 {
		least := uint64(math.MaxUint64)
		for range 3 {
			var before, after runtime.MemStats
			runtime.ReadMemStats(&before)
			for range n {
				h := newHash()
				h.Write(msg)
				out = h.Sum(out[:0])
			}
			runtime.ReadMemStats(&after)
			least = min(least, (after.TotalAlloc-before.TotalAlloc)/n)
		}
		return least
	}
	for _, a := range laneAlgorithms() {
		New(a) // the default server, made once
		lib := perHasher(reference.ID(a).New)
		ours := perHasher(func() hash.Hash { return New(a) })
		t.Logf("%v: %d bytes a hasher, the standard library's %d", a, ours, lib)
		if ours > lib+slack {
			t.Errorf("%v: a hasher allocates %d bytes, the standard library's %d", a, ours, lib)
		}
		// And in as many objects, each a first touch of its memory in a
		// fresh process, wherever the lone stream runs hashlanes' own
		// kernel (a new stream's front); where it runs the library's own
		// block function (on arm64), the library's hasher stays
		// behind the stream, one object more.
		if strings.HasSuffix(DefaultServer(a).Kernel(), "stdlib (single stream)") {
			continue
		}
		objects := func(newHash func() hash.Hash) float64 {
			return testing.AllocsPerRun(100, func() {
				h := newHash()
				h.Write(msg)
				out = h.Sum(out[:0])
			})
		}
		if o, l := objects(func() hash.Hash { return New(a) }), objects(reference.ID(a).New); o > l {
			t.Errorf("%v: a hasher is %v allocations, the standard library's %v (%s)", a, o, l, DefaultServer(a).Kernel())
		}
	}
}

// TestConcurrentUseOfOneHasher: unsupported, but it must panic in the
// offending goroutines, never corrupt another stream.
func TestConcurrentUseOfOneHasher(t *testing.T) {
	s := NewServer(MD5)
	shared := s.NewHash()
	msg := make([]byte, 64<<10)
	var wg sync.WaitGroup
	var panics sync.Map
	for g := range 4 {
		wg.Go(func() {
			defer func() {
				if r := recover(); r != nil {
					panics.Store(g, r)
				}
			}()
			for range 200 {
				shared.Write(msg)
			}
		})
	}
	bystanders := make([][]byte, 8)
	for i := range bystanders {
		wg.Go(func() {
			h := s.NewHash()
			for range 50 {
				h.Write(msg)
			}
			bystanders[i] = h.Sum(nil)
		})
	}
	wg.Wait()
	want := md5.Sum(bytes.Repeat(msg, 50))
	for i, d := range bystanders {
		if !bytes.Equal(d, want[:]) {
			t.Fatalf("bystander %d corrupted", i)
		}
	}
	panics.Range(func(k, v any) bool {
		if msg := fmt.Sprint(v); msg != "hashlanes: concurrent use of one hash.Hash by several goroutines" {
			t.Errorf("unexpected panic: %s", msg)
		}
		return true
	})
}

func TestThousandsOfHashers(t *testing.T) {
	s := NewServer(MD5)
	const n = 3000
	msg := make([]byte, 10<<10)
	var wg sync.WaitGroup
	digests := make([][]byte, n)
	for i := range n {
		wg.Go(func() {
			h := s.NewHash()
			m := append([]byte{byte(i), byte(i >> 8)}, msg...)
			h.Write(m)
			digests[i] = h.Sum(nil)
		})
	}
	wg.Wait()
	for i := range n {
		want := md5.Sum(append([]byte{byte(i), byte(i >> 8)}, msg...))
		if !bytes.Equal(digests[i], want[:]) {
			t.Fatalf("hasher %d", i)
		}
	}
}

// TestDroppedHashers: a million hashers, written and dropped without any
// Close, leave no goroutine and no memory behind.
func TestDroppedHashers(t *testing.T) {
	if testing.Short() {
		t.Skip("a million hashers")
	}
	s := NewServer(MD5)
	goroutines := runtime.NumGoroutine()
	var before, after runtime.MemStats
	runtime.GC()
	runtime.ReadMemStats(&before)
	msg := make([]byte, 2048)
	for range 1_000_000 {
		h := s.NewHash()
		h.Write(msg)
	}
	runtime.GC()
	runtime.ReadMemStats(&after)
	if g := runtime.NumGoroutine(); g > goroutines {
		t.Errorf("%d goroutines before, %d after", goroutines, g)
	}
	if grown := int64(after.HeapAlloc) - int64(before.HeapAlloc); grown > 4<<20 {
		t.Errorf("heap grew by %d bytes", grown)
	}
}

func TestParseAlgorithm(t *testing.T) {
	for _, a := range Algorithms() {
		got, err := ParseAlgorithm(a.String())
		if err != nil || got != a {
			t.Errorf("ParseAlgorithm(%q) = %v, %v", a.String(), got, err)
		}
	}
	for in, want := range map[string]Algorithm{"MD5": MD5, "SHA-256": SHA256, "sha512/256": SHA512_256, "SHA512_224": SHA512_224} {
		if got, err := ParseAlgorithm(in); err != nil || got != want {
			t.Errorf("ParseAlgorithm(%q) = %v, %v", in, got, err)
		}
	}
	if _, err := ParseAlgorithm("md4"); err == nil || err.Error() != `hashlanes: unknown algorithm "md4"` {
		t.Errorf("md4: %v", err)
	}
	if MD5.Size() != 16 || SHA512.BlockSize() != 128 || SHA256.String() != "sha256" {
		t.Error("sizes or names")
	}
}

func TestSumEveryAlgorithm(t *testing.T) {
	msg := []byte("The quick brown fox jumps over the lazy dog")
	for _, a := range Algorithms() {
		h := reference.ID(a).New()
		h.Write(msg)
		if got, want := Sum(a, msg), h.Sum(nil); !bytes.Equal(got, want) {
			t.Errorf("%v: %x, want %x", a, got, want)
		}
	}
}

// TestDefaultNeverPureGo: a default server whose only single-stream kernel
// would be the pure-Go reference uses the standard library instead, so a
// lone stream is never slower than crypto/*; only a forced generic tier
// runs the pure-Go engine.
func TestDefaultNeverPureGo(t *testing.T) {
	forced := ActiveCPU() == CPUGeneric && DetectedCPU() > CPUGeneric
	for _, a := range Algorithms() {
		k := DefaultServer(a).Kernel()
		if strings.Contains(k, "generic (single stream)") && !forced {
			t.Errorf("%v: default server runs %q", a, k)
		}
	}
}

// TestReferenceServers: a server of an algorithm that is not on the
// engine reports it (Reference) and names the package that hashes for it,
// not "stdlib" for x/crypto's BLAKE2 or lukechampine.com/blake3; one on
// the engine runs kernels of its own.
func TestReferenceServers(t *testing.T) {
	onEngine := laneAlgorithms()
	for _, a := range Algorithms() {
		s := NewServer(a, WithCPU(CPUGeneric))
		if slices.Contains(onEngine, a) {
			if s.Reference() || strings.Contains(s.Kernel(), "/") {
				t.Errorf("%v: Reference() = %v, Kernel() = %q on the engine", a, s.Reference(), s.Kernel())
			}
			continue
		}
		want, ok := map[Algorithm]string{
			SHA3_224: "crypto/sha3", SHA3_256: "crypto/sha3", SHA3_384: "crypto/sha3", SHA3_512: "crypto/sha3",
			BLAKE2b: "golang.org/x/crypto/blake2b", BLAKE2s: "golang.org/x/crypto/blake2s",
			BLAKE3: blake3tree.Kernels(), // its own hasher, on the process's kernels
		}[a]
		if !ok { // an engine algorithm with no kernels for this GOARCH yet
			want = reference.ID(a).Package()
		}
		if !s.Reference() || s.Kernel() != want {
			t.Errorf("%v: Reference() = %v, Kernel() = %q, want true, %q", a, s.Reference(), s.Kernel(), want)
		}
	}
	// amd64 and arm64 run MD5, SHA-1 and the six SHA-2 on the engine.
	if want := map[string]int{"amd64": 8, "arm64": 8}[runtime.GOARCH]; len(onEngine) != want {
		t.Errorf("%d algorithms on the engine (%v), want %d on %s", len(onEngine), onEngine, want, runtime.GOARCH)
	}
}

// TestLibraryAlgorithms pins the algorithms served by their reference
// libraries to published vectors, so the wiring itself is checked.
func TestLibraryAlgorithms(t *testing.T) {
	for _, c := range []struct {
		a        Algorithm
		in, want string
	}{
		{SHA3_256, "abc", "3a985da74fe225b2045c172d6bd390bd855f086e3e9d525b46bfe24511431532"},
		{SHA3_512, "abc", "b751850b1a57168a5693cd924b6b096e08f621827444f70d884f5d0240d2712e10e116e9192af3c91a7ec57647e3934057340b4cf408d5a56592f8274eec53f0"},
		{BLAKE2b, "abc", "ba80a53f981c4d0d6a2797b69f12f6e94c212f14685ac4b74b12bb6fdbffa2d17d87c5392aab792dc252d5de4533cc9518d38aa8dbf1925ab92386edd4009923"},
		{BLAKE2s, "abc", "508c5e8c327c14e2e1a72ba34eeb452f37458b209ed63a294d999b4c86675982"},
		{BLAKE3, "", "af1349b9f5f9a1a6a0404dea36dcc9499bcb25c9adc112b7cc9a93cae41f3262"},
	} {
		if got := hex.EncodeToString(Sum(c.a, []byte(c.in))); got != c.want {
			t.Errorf("%v(%q) = %s, want %s", c.a, c.in, got, c.want)
		}
		if got := hex.EncodeToString(SumMany(c.a, nil, [][]byte{[]byte(c.in)})); got != c.want {
			t.Errorf("SumMany %v(%q) = %s, want %s", c.a, c.in, got, c.want)
		}
	}
}

// TestAppendSum checks Sum and AppendSum against the reference for every
// algorithm, at lengths around the one where Sum hands a message to the
// engine, and that AppendSum appends to what dst holds.
func TestAppendSum(t *testing.T) {
	r := rand.New(rand.NewPCG(21, 22))
	for _, a := range Algorithms() {
		for _, n := range []int{0, 1, 55, 56, 63, 64, 119, 120, 1000, sumLanesMin - 1, sumLanesMin, sumLanesMin + 129, 100_000} {
			msg := randomBytes(r, n)
			h := reference.ID(a).New()
			h.Write(msg)
			want := h.Sum(nil)
			if got := Sum(a, msg); !bytes.Equal(got, want) {
				t.Errorf("%v, %d bytes: Sum %x, want %x", a, n, got, want)
			}
			prefix := []byte("prefix")
			if got := AppendSum(a, prefix, msg); !bytes.Equal(got, append([]byte("prefix"), want...)) {
				t.Errorf("%v, %d bytes: AppendSum %x", a, n, got)
			}
		}
	}
}

// TestSumAllocs checks that Sum of a short message allocates its result
// and nothing else, on every path it takes (the SHA-NI one-shot path, the
// standard library's function).
func TestSumAllocs(t *testing.T) {
	if raceEnabled {
		t.Skip("allocation counts are meaningless under the race detector (see raceEnabled)")
	}
	msg := make([]byte, 64)
	for _, a := range laneAlgorithms() {
		if allocs := testing.AllocsPerRun(20, func() { Sum(a, msg) }); allocs != 1 {
			t.Errorf("%v: %.1f allocations a call, want the result's one", a, allocs)
		}
	}
}

// TestAppendSumAllocs checks that AppendSum into room allocates nothing,
// below the engine's length and above it, for every algorithm but BLAKE3:
// lukechampine.com/blake3's own Sum256 allocates 30 times for 64 KiB.
func TestAppendSumAllocs(t *testing.T) {
	if raceEnabled {
		t.Skip("the race detector makes sync.Pool drop items")
	}
	for _, a := range Algorithms() {
		if a == BLAKE3 {
			continue
		}
		dst := make([]byte, 0, a.Size())
		for _, n := range []int{64, 64 << 10} {
			msg := make([]byte, n)
			AppendSum(a, dst[:0], msg)
			if allocs := testing.AllocsPerRun(20, func() { AppendSum(a, dst[:0], msg) }); allocs > 0 {
				t.Errorf("%v, %d bytes: %.1f allocations a call", a, n, allocs)
			}
		}
	}
}

// TestReferenceIDs: the reference package's IDs are the Algorithm values
// the library converts to them.
func TestReferenceIDs(t *testing.T) {
	for _, a := range Algorithms() {
		if id, ok := reference.Named(a.String()); !ok || id != reference.ID(a) || id.Name() != a.String() {
			t.Errorf("%v: reference ID %d (%v), want %d", a, id, ok, int(a))
		}
	}
}

// TestBurstAfterLonePhase: two streams that start together after a spell
// of lone streams meet in the lanes. The lone spell's probes found nobody
// and backed off; the new streams' first writes are a new writer's, which
// still yield, so the second writer queues beside the first instead
// of each hashing its whole message alone (and waiting for the other).
// The rates are a prior's, fixed, one where two streams run in lanes:
// where lanes and the single stream tie for two streams (SHA-512's
// four-lane AVX2 kernel on Zen 4), measured and refined rates move the
// choice either way during the run, and streams that run one after
// another by the choice do not meet, by design.
func TestBurstAfterLonePhase(t *testing.T) {
	defer runtime.GOMAXPROCS(runtime.GOMAXPROCS(1))
	for _, a := range laneAlgorithms() {
		t.Run(a.String(), func(t *testing.T) {
			forEachTier(t, func(t *testing.T, c CPU) {
				s := serverWhereLanesPay(a, c, 2)
				if s == nil {
					t.Skip("no prior runs two streams in lanes at this tier: no company to meet")
				}
				defer s.Close()
				testBurstAfterLonePhase(t, s)
			})
		})
	}
}

// serverWhereLanesPay returns a server of a at tier c on fixed rates, this
// CPU's prior or else another, that runs ready streams on a multi-lane
// kernel; nil if none does.
func serverWhereLanesPay(a Algorithm, c CPU, ready int) *Server {
	modes := []string{"table"}
	for _, name := range tuning.PriorNames() {
		modes = append(modes, "table:"+name)
	}
	for _, m := range modes {
		s := NewServer(a, WithCPU(c), WithTuning(m))
		if lanesPay(s, ready) {
			return s
		}
		s.Close()
	}
	return nil
}

func testBurstAfterLonePhase(t *testing.T, s *Server) {
	msg := make([]byte, 256<<10)
	run := func(hs []hash.Hash, times int) {
		for range times {
			var wg sync.WaitGroup
			for _, h := range hs {
				wg.Go(func() {
					h.Reset()
					for p := msg; len(p) > 0; p = p[32<<10:] {
						h.Write(p[:32<<10])
					}
					h.Sum(nil)
				})
			}
			wg.Wait()
		}
	}
	run([]hash.Hash{s.NewHash()}, 40) // lone: the probes back off
	before := s.Stats()
	run([]hash.Hash{s.NewHash(), s.NewHash()}, 20)
	st := s.Stats()
	lone, total := st.LoneBlocks-before.LoneBlocks, st.MultiBlocks+st.SingleBlocks-before.MultiBlocks-before.SingleBlocks
	if lone > total/4 {
		t.Errorf("%s (%s): two streams after a lone spell: %d of %d blocks hashed alone (%+v)", s.Kernel(), s.Tuning(), lone, total, st)
	}
}
