package sha256

import (
	"bytes"
	"crypto/sha256"
	"math/rand/v2"
	"testing"

	"github.com/hashlanes/hashlanes/internal/cpu"
	"github.com/hashlanes/hashlanes/internal/kernel/kerneltest"
)

func TestGenericAgainstStdlib(t *testing.T) {
	r := rand.New(rand.NewPCG(1, 2))
	for n := range 4*BlockSize + 2 {
		msg := kerneltest.RandomBytes(r, n)
		s := Init256
		blockGeneric(&s, kerneltest.Pad(msg, true))
		if got, want := kerneltest.Words(&s, true), sha256.Sum256(msg); !bytes.Equal(got, want[:]) {
			t.Fatalf("len %d: got %x, want %x", n, got, want)
		}
		s = Init224
		blockGeneric(&s, kerneltest.Pad(msg, true))
		if got, want := kerneltest.Words(&s, true)[:28], sha256.Sum224(msg); !bytes.Equal(got, want[:]) {
			t.Fatalf("SHA-224 len %d: got %x, want %x", n, got, want)
		}
	}
}

var alg = kerneltest.Algorithm[State]{
	BlockSize: BlockSize,
	Ref:       blockGeneric,
	Random:    kerneltest.RandomState[State],
	Singles:   Singles(),
	Multis:    Multis(),
	Batches:   Batches(&Spec256),
	Sum:       func(m []byte) []byte { s := sha256.Sum256(m); return s[:] },
	Size:      32,
}

// alg224 is alg with the batch kernels set up for SHA-224.
var alg224 = func() kerneltest.Algorithm[State] {
	a := alg
	a.Batches = Batches(&Spec224)
	a.Sum = func(m []byte) []byte { s := sha256.Sum224(m); return s[:] }
	a.Size = 28
	return a
}()

func TestSingles(t *testing.T)       { kerneltest.Singles(t, alg) }
func TestMultis(t *testing.T)        { kerneltest.Multis(t, alg) }
func TestMultiNoAllocs(t *testing.T) { kerneltest.NoAllocs(t, alg) }
func TestBatches(t *testing.T)       { kerneltest.Batches(t, alg) }
func TestBatches224(t *testing.T)    { kerneltest.Batches(t, alg224) }
func TestBatchNoAllocs(t *testing.T) { kerneltest.BatchNoAllocs(t, alg) }

// BenchmarkKernel measures the kernels alone; see kerneltest.Benchmark.
func BenchmarkKernel(b *testing.B) { kerneltest.Benchmark(b, alg) }

// BenchmarkCall measures a call of one block a lane: its fixed cost; see
// kerneltest.BenchmarkCall.
func BenchmarkCall(b *testing.B) { kerneltest.BenchmarkCall(b, alg) }

// BenchmarkAfterGap measures the multi-lane kernels' calls right after
// other work; see kerneltest.BenchmarkAfterGap.
func BenchmarkAfterGap(b *testing.B) { kerneltest.BenchmarkAfterGap(b, alg) }

// BenchmarkFootprint measures the four-stream SHA-NI kernel, Zen 3's fastest, on
// 4 to 64 streams of 1 MiB; see kerneltest.BenchmarkFootprint.
func BenchmarkFootprint(b *testing.B) { kerneltest.BenchmarkFootprint(b, alg, "shanix4") }

// BenchmarkLaneLayout measures every lane kernel on blocks at equal
// offsets modulo 4 KiB and staggered; see kerneltest.BenchmarkLaneLayout.
func BenchmarkLaneLayout(b *testing.B) { kerneltest.BenchmarkLaneLayout(b, alg) }

// BenchmarkBatch measures the batch kernels alone; see kerneltest.BenchmarkBatch.
func BenchmarkBatch(b *testing.B) { kerneltest.BenchmarkBatch(b, alg) }

// TestAppendSumSHANI: the one-shot SHA-NI path gives the standard
// library's digests, SHA-256 and SHA-224.
func TestAppendSumSHANI(t *testing.T) {
	kerneltest.AppendSum(t, func(dst, msg []byte) ([]byte, bool) { return AppendSumSHANI(dst, &Init256, 32, msg) },
		func(msg []byte) []byte { s := sha256.Sum256(msg); return s[:] }, cpu.Generic, cpu.SHA)
	kerneltest.AppendSum(t, func(dst, msg []byte) ([]byte, bool) { return AppendSumSHANI(dst, &Init224, 28, msg) },
		func(msg []byte) []byte { s := sha256.Sum224(msg); return s[:] }, cpu.Generic, cpu.SHA)
}
