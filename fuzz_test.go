package hashlanes

import (
	"bytes"
	"crypto/md5"
	"encoding"
	"math/rand/v2"
	"sync"
	"testing"

	"github.com/hashlanes/hashlanes/internal/cpu"
)

// fuzzServers are built once: one per algorithm on the engine and CPU tier
// this machine has.
var fuzzServers = sync.OnceValue(func() []*Server {
	var s []*Server
	for _, a := range laneAlgorithms() {
		for _, c := range []CPU{CPUGeneric, CPUAVX2, CPUAVX512} {
			if cpu.Supports(cpu.Level(c)) {
				s = append(s, NewServer(a, WithCPU(c)))
			}
		}
	}
	return s
})

// sumWithCanary checks that Sum appends within the capacity it is given
// and touches nothing past it.
func sumWithCanary(t *testing.T, h interface{ Sum([]byte) []byte }, size int) []byte {
	t.Helper()
	buf := make([]byte, 3+size+8)
	for i := range buf {
		buf[i] = 0xa5
	}
	out := h.Sum(buf[: 3 : 3+size])
	for i, c := range buf[3+size:] {
		if c != 0xa5 {
			t.Fatalf("Sum wrote past its slice's capacity at +%d", i)
		}
	}
	if !bytes.Equal(out[:3], []byte{0xa5, 0xa5, 0xa5}) || len(out) != 3+size {
		t.Fatalf("Sum did not append: %x", out)
	}
	return out[3:]
}

// FuzzWrite: any message in any split, on every path, equals crypto/md5,
// and Sum mid-stream does not disturb the stream.
func FuzzWrite(f *testing.F) {
	f.Add([]byte("abc"), []byte{1, 2})
	f.Add(bytes.Repeat([]byte{7}, 3000), []byte{0, 63, 64, 65, 200})
	f.Fuzz(func(t *testing.T, msg, splits []byte) {
		for _, s := range fuzzServers() {
			want := refSum(s.Algorithm(), msg)
			h := s.NewHash()
			rest := msg
			for _, sp := range splits {
				n := min(int(sp)*17, len(rest))
				h.Write(rest[:n])
				rest = rest[n:]
				h.Sum(nil)
			}
			h.Write(rest)
			if got := sumWithCanary(t, h, s.Algorithm().Size()); !bytes.Equal(got, want) {
				t.Fatalf("%s: %x, want %x", s.Kernel(), got, want)
			}
		}
	})
}

// FuzzStreams: concurrent streams of fuzzed lengths and splits share the
// lanes; each digest equals the standard library's. Each input runs on one
// of the servers (algorithm and CPU tier), chosen by the input, so that one
// input stays quick.
func FuzzStreams(f *testing.F) {
	f.Add(uint64(1), uint8(16), uint16(40000))
	f.Add(uint64(2), uint8(33), uint16(1))
	f.Fuzz(func(t *testing.T, seed uint64, streams uint8, maxLen uint16) {
		servers := fuzzServers()
		s := servers[seed%uint64(len(servers))]
		r := rand.New(rand.NewPCG(seed, 0))
		n := int(streams%40) + 1
		msgs := make([][]byte, n)
		for i := range msgs {
			msgs[i] = randomBytes(r, r.IntN(int(maxLen)+1))
		}
		var wg sync.WaitGroup
		got := make([][]byte, n)
		for i := range msgs {
			splitSeed := r.Uint64()
			wg.Go(func() {
				h := s.NewHash()
				writeSplit(rand.New(rand.NewPCG(splitSeed, 1)), h, msgs[i])
				got[i] = h.Sum(nil)
			})
		}
		wg.Wait()
		for i, m := range msgs {
			if want := refSum(s.Algorithm(), m); !bytes.Equal(got[i], want) {
				t.Fatalf("%v %s: stream %d of %d (%d bytes)", s.Algorithm(), s.Kernel(), i, n, len(m))
			}
		}
	})
}

// FuzzUnmarshal: any bytes are either rejected, leaving the hasher as it
// was, or accepted exactly when crypto/md5 accepts them, with the same
// digest afterwards.
func FuzzUnmarshal(f *testing.F) {
	h := md5.New()
	h.Write([]byte("seed state"))
	st, _ := h.(encoding.BinaryMarshaler).MarshalBinary()
	f.Add(st)
	f.Add([]byte("md5\x01"))
	f.Fuzz(func(t *testing.T, b []byte) {
		ours := New(MD5)
		ours.Write([]byte("before"))
		before := ours.Sum(nil)
		std := md5.New()
		errOurs := ours.(encoding.BinaryUnmarshaler).UnmarshalBinary(b)
		errStd := std.(encoding.BinaryUnmarshaler).UnmarshalBinary(b)
		if (errOurs == nil) != (errStd == nil) {
			t.Fatalf("ours: %v, crypto/md5: %v", errOurs, errStd)
		}
		if errOurs != nil {
			if !bytes.Equal(ours.Sum(nil), before) {
				t.Fatal("rejected state changed the hasher")
			}
			return
		}
		ours.Write([]byte("after"))
		std.Write([]byte("after"))
		if !bytes.Equal(ours.Sum(nil), std.Sum(nil)) {
			t.Fatal("digest differs after unmarshal")
		}
	})
}

// FuzzLibraryState feeds arbitrary states to the BLAKE2b, BLAKE2s and
// BLAKE3 hashers, whose state encoding hashlanes adds to their libraries':
// a refused state leaves the hasher as it was, an accepted one hashes on
// without panicking and saves back to the same bytes.
func FuzzLibraryState(f *testing.F) {
	algs := []Algorithm{BLAKE2b, BLAKE2s, BLAKE3}
	for i, a := range algs {
		for _, n := range []int{0, 5, 64, 1500, 5000} {
			h := New(a)
			h.Write(make([]byte, n))
			st, _ := h.(encoding.BinaryMarshaler).MarshalBinary()
			f.Add(uint8(i), st)
		}
	}
	f.Fuzz(func(t *testing.T, which uint8, b []byte) {
		a := algs[int(which)%len(algs)]
		h := New(a)
		h.Write([]byte("before"))
		before := h.Sum(nil)
		if err := h.(encoding.BinaryUnmarshaler).UnmarshalBinary(b); err != nil {
			if !bytes.Equal(h.Sum(nil), before) {
				t.Fatalf("%v: refused state changed the hasher", a)
			}
			return
		}
		again, err := h.(encoding.BinaryMarshaler).MarshalBinary()
		if err != nil || !bytes.Equal(again, b) {
			t.Fatalf("%v: accepted state saves back as %x, %v; was %x", a, again, err, b)
		}
		h.Write(make([]byte, 3000))
		h.Sum(nil)
	})
}

// FuzzSum: Sum and AppendSum of any message equal the standard library's
// digest for every algorithm on the engine, whichever path the message
// takes (the one-shot SHA-NI path, the standard library's function, or
// the engine for long ones), and AppendSum appends to what dst holds.
func FuzzSum(f *testing.F) {
	for _, n := range []int{0, 1, 55, 56, 63, 64, 119, 120, 1000} {
		f.Add(bytes.Repeat([]byte{byte(n)}, n))
	}
	f.Fuzz(func(t *testing.T, msg []byte) {
		for _, a := range laneAlgorithms() {
			want := refSum(a, msg)
			if got := Sum(a, msg); !bytes.Equal(got, want) {
				t.Fatalf("%v, %d bytes: Sum %x, want %x", a, len(msg), got, want)
			}
			if got := AppendSum(a, []byte("prefix"), msg); !bytes.Equal(got, append([]byte("prefix"), want...)) {
				t.Fatalf("%v, %d bytes: AppendSum %x", a, len(msg), got)
			}
		}
	})
}
