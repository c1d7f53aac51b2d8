package hexenc

import (
	"bytes"
	"encoding/hex"
	"math/rand/v2"
	"testing"

	"github.com/hashlanes/hashlanes/internal/cpu"
	"github.com/hashlanes/hashlanes/internal/cpu/cputest"
)

func check(t *testing.T, avx2 bool, src []byte) {
	t.Helper()
	buf := make([]byte, 2*len(src)+8)
	copy(buf[len(src):], src)
	copy(buf[2*len(src):], "canary!!")
	expand(buf[:2*len(src)], avx2)
	if got, want := buf[:2*len(src)], hex.EncodeToString(src); string(got) != want {
		t.Fatalf("%d bytes: got %q, want %q", len(src), got, want)
	}
	if string(buf[2*len(src):]) != "canary!!" {
		t.Fatalf("%d bytes: wrote past the end", len(src))
	}
}

func TestExpand(t *testing.T) {
	r := rand.New(rand.NewPCG(1, 2))
	for _, path := range []struct {
		name  string
		avx2  bool
		level cpu.Level
	}{{"generic", false, cpu.Generic}, {"avx2", true, cpu.AVX2}} {
		t.Run(path.name, func(t *testing.T) {
			cputest.Require(t, path.level)
			if path.avx2 && !haveAVX2 {
				t.Skip("built without the AVX2 loop")
			}
			for n := range 200 {
				src := make([]byte, n)
				for i := range src {
					src[i] = byte(r.Uint32())
				}
				check(t, path.avx2, src)
			}
			all := make([]byte, 256) // every byte value
			for i := range all {
				all[i] = byte(i)
			}
			check(t, path.avx2, all)
			check(t, path.avx2, bytes.Repeat([]byte{0xff, 0x00, 0x9a}, 10000))
		})
	}
	Expand(nil)
	buf := []byte("\x00\x00\xab")
	Expand(buf[:0])
}

func FuzzExpand(f *testing.F) {
	f.Add([]byte("hello"))
	f.Fuzz(func(t *testing.T, src []byte) {
		check(t, false, src)
		if haveAVX2 && cpu.Supports(cpu.AVX2) {
			check(t, true, src)
		}
	})
}

// BenchmarkExpand compares the in-place expansion with encoding/hex over
// 10,000 MD5 digests.
func BenchmarkExpand(b *testing.B) {
	src := make([]byte, 16*10000)
	buf := make([]byte, 2*len(src))
	b.Run("impl=encoding-hex", func(b *testing.B) {
		b.SetBytes(int64(len(src)))
		for b.Loop() {
			hex.Encode(buf, src)
		}
	})
	for _, path := range []struct {
		name  string
		avx2  bool
		level cpu.Level
	}{{"generic", false, cpu.Generic}, {"avx2", true, cpu.AVX2}} {
		b.Run("impl="+path.name, func(b *testing.B) {
			cputest.Require(b, path.level)
			if path.avx2 && !haveAVX2 {
				b.Skip("built without the AVX2 loop")
			}
			b.SetBytes(int64(len(src)))
			for b.Loop() {
				copy(buf[len(src):], src)
				expand(buf, path.avx2)
			}
		})
	}
}
