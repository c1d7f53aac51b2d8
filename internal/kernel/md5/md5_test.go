package md5

import (
	"bytes"
	"crypto/md5"
	"math/rand/v2"
	"testing"

	"github.com/hashlanes/hashlanes/internal/cpu"
	"github.com/hashlanes/hashlanes/internal/kernel/kerneltest"
)

func TestGenericAgainstStdlib(t *testing.T) {
	r := rand.New(rand.NewPCG(1, 2))
	for n := range 4*BlockSize + 2 {
		msg := kerneltest.RandomBytes(r, n)
		s := Init
		blockGeneric(&s, kerneltest.Pad(msg, false))
		if got, want := kerneltest.Words(&s, false), md5.Sum(msg); !bytes.Equal(got, want[:]) {
			t.Fatalf("len %d: got %x, want %x", n, got, want)
		}
	}
}

var alg = kerneltest.Algorithm[State]{
	BlockSize: BlockSize,
	Ref:       blockGeneric,
	Random:    kerneltest.RandomState[State],
	Singles:   Singles(),
	Multis:    Multis(),
	Batches:   Batches(&Spec),
	Sum:       func(m []byte) []byte { s := md5.Sum(m); return s[:] },
	Size:      Size,
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

// BenchmarkMemoryLanes measures the 32-lane kernel with a varying number
// of its lanes streaming from beyond the L2; see
// kerneltest.BenchmarkMemoryLanes.
func BenchmarkMemoryLanes(b *testing.B) { kerneltest.BenchmarkMemoryLanes(b, alg, "avx512ymmx32") }

// BenchmarkFootprint measures the 16-lane AVX2 kernel, Zen 3's fastest, on
// 4 to 64 streams of 1 MiB; see kerneltest.BenchmarkFootprint.
func BenchmarkFootprint(b *testing.B) { kerneltest.BenchmarkFootprint(b, alg, "avx2x16") }

// BenchmarkLaneLayout measures every lane kernel on blocks at equal
// offsets modulo 4 KiB and staggered; see kerneltest.BenchmarkLaneLayout.
func BenchmarkLaneLayout(b *testing.B) { kerneltest.BenchmarkLaneLayout(b, alg) }

// BenchmarkBatch measures the batch kernels alone; see kerneltest.BenchmarkBatch.
func BenchmarkBatch(b *testing.B) { kerneltest.BenchmarkBatch(b, alg) }

// TestAppendSumOwn: the one-shot path on hashlanes' scalar kernel gives
// the standard library's digests.
func TestAppendSumOwn(t *testing.T) {
	kerneltest.AppendSum(t, AppendSumOwn, func(msg []byte) []byte { s := md5.Sum(msg); return s[:] }, cpu.Generic, 0)
}
