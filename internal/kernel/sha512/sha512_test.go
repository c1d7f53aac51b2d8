package sha512

import (
	"bytes"
	"crypto/sha512"
	"encoding/binary"
	"math/rand/v2"
	"testing"

	"github.com/hashlanes/hashlanes/internal/cpu"
	"github.com/hashlanes/hashlanes/internal/kernel"
	"github.com/hashlanes/hashlanes/internal/kernel/kerneltest"
)

// pad appends SHA-512's padding: 0x80, zeros, and a 128-bit length.
func pad(msg []byte) []byte {
	p := append(bytes.Clone(msg), 0x80)
	for len(p)%BlockSize != BlockSize-16 {
		p = append(p, 0)
	}
	p = binary.BigEndian.AppendUint64(p, 0)
	return binary.BigEndian.AppendUint64(p, uint64(len(msg))<<3)
}

func digest(s *State, size int) []byte {
	var out []byte
	for _, w := range s {
		out = binary.BigEndian.AppendUint64(out, w)
	}
	return out[:size]
}

func TestSinglesAgainstStdlib(t *testing.T) {
	r := rand.New(rand.NewPCG(1, 2))
	for _, impl := range Singles() {
		for n := range 4*BlockSize + 2 {
			msg := kerneltest.RandomBytes(r, n)
			for _, c := range []struct {
				init State
				want func([]byte) []byte
			}{
				{Init512, func(m []byte) []byte { s := sha512.Sum512(m); return s[:] }},
				{Init384, func(m []byte) []byte { s := sha512.Sum384(m); return s[:] }},
				{Init512_224, func(m []byte) []byte { s := sha512.Sum512_224(m); return s[:] }},
				{Init512_256, func(m []byte) []byte { s := sha512.Sum512_256(m); return s[:] }},
			} {
				s := c.init
				impl.Fn(&s, pad(msg))
				want := c.want(msg)
				if got := digest(&s, len(want)); !bytes.Equal(got, want) {
					t.Fatalf("%s, len %d: got %x, want %x", impl.Name, n, got, want)
				}
			}
		}
	}
}

var alg = kerneltest.Algorithm[State]{
	BlockSize: BlockSize,
	Ref:       blockGeneric,
	Random:    kerneltest.RandomState[State],
	Singles:   Singles(),
	Multis:    Multis(),
	Batches:   Batches(&Spec512),
	Sum:       func(m []byte) []byte { s := sha512.Sum512(m); return s[:] },
	Size:      64,
}

// variant is alg with the batch kernels set up for another algorithm of
// the family.
func variant(sp *kernel.Spec[State], sum func([]byte) []byte) kerneltest.Algorithm[State] {
	a := alg
	a.Batches, a.Sum, a.Size = Batches(sp), sum, sp.Size
	return a
}

func TestBatchesVariants(t *testing.T) {
	t.Run("sha384", func(t *testing.T) {
		kerneltest.Batches(t, variant(&Spec384, func(m []byte) []byte { s := sha512.Sum384(m); return s[:] }))
	})
	t.Run("sha512-224", func(t *testing.T) {
		kerneltest.Batches(t, variant(&Spec512_224, func(m []byte) []byte { s := sha512.Sum512_224(m); return s[:] }))
	})
	t.Run("sha512-256", func(t *testing.T) {
		kerneltest.Batches(t, variant(&Spec512_256, func(m []byte) []byte { s := sha512.Sum512_256(m); return s[:] }))
	})
}

func TestSingles(t *testing.T)       { kerneltest.Singles(t, alg) }
func TestMultis(t *testing.T)        { kerneltest.Multis(t, alg) }
func TestMultiNoAllocs(t *testing.T) { kerneltest.NoAllocs(t, alg) }
func TestBatches(t *testing.T)       { kerneltest.Batches(t, alg) }
func TestBatchNoAllocs(t *testing.T) { kerneltest.BatchNoAllocs(t, alg) }

// BenchmarkKernel measures the kernels alone; see kerneltest.Benchmark.
func BenchmarkKernel(b *testing.B) { kerneltest.Benchmark(b, alg) }

// BenchmarkCall measures a call of one block a lane: its fixed cost; see
// kerneltest.BenchmarkCall.
func BenchmarkCall(b *testing.B) { kerneltest.BenchmarkCall(b, alg) }

// BenchmarkAfterGap measures the multi-lane kernels' calls right after
// other work; see kerneltest.BenchmarkAfterGap.
func BenchmarkAfterGap(b *testing.B) { kerneltest.BenchmarkAfterGap(b, alg) }

// BenchmarkFootprint measures the 4-lane AVX2 kernel, Zen 3's fastest, on
// 4 to 64 streams of 1 MiB; see kerneltest.BenchmarkFootprint.
func BenchmarkFootprint(b *testing.B) { kerneltest.BenchmarkFootprint(b, alg, "avx2x4") }

// BenchmarkLaneLayout measures every lane kernel on blocks at equal
// offsets modulo 4 KiB and staggered; see kerneltest.BenchmarkLaneLayout.
func BenchmarkLaneLayout(b *testing.B) { kerneltest.BenchmarkLaneLayout(b, alg) }

// BenchmarkBatch measures the batch kernels alone; see kerneltest.BenchmarkBatch.
func BenchmarkBatch(b *testing.B) { kerneltest.BenchmarkBatch(b, alg) }

// TestAppendSumOwn: the one-shot path on hashlanes' own kernels gives the
// standard library's digests, for every algorithm of the family, at both
// tiers.
func TestAppendSumOwn(t *testing.T) {
	for _, l := range []cpu.Level{cpu.AVX2, cpu.AVX512} {
		t.Run(l.String(), func(t *testing.T) { testAppendSumOwn(t, l) })
	}
}

func testAppendSumOwn(t *testing.T, l cpu.Level) {
	for _, c := range []struct {
		init *State
		size int
		want func(msg []byte) []byte
	}{
		{&Init512, 64, func(msg []byte) []byte { s := sha512.Sum512(msg); return s[:] }},
		{&Init384, 48, func(msg []byte) []byte { s := sha512.Sum384(msg); return s[:] }},
		{&Init512_224, 28, func(msg []byte) []byte { s := sha512.Sum512_224(msg); return s[:] }},
		{&Init512_256, 32, func(msg []byte) []byte { s := sha512.Sum512_256(msg); return s[:] }},
	} {
		kerneltest.AppendSum(t, func(dst, msg []byte) ([]byte, bool) { return AppendSumOwn(dst, c.init, c.size, msg, l) },
			c.want, l, 0)
	}
}

// BenchmarkSingles measures the single-stream kernels side by side, the
// library's among them; see kerneltest.BenchmarkSinglesSideBySide.
func BenchmarkSingles(b *testing.B) { kerneltest.BenchmarkSinglesSideBySide(b, alg) }
