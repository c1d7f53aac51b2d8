package sha1

import (
	"bytes"
	"crypto/sha1"
	"encoding/binary"
	"math/rand/v2"
	"testing"

	"github.com/hashlanes/hashlanes/internal/kernel/kerneltest"
)

func pad(msg []byte) []byte {
	p := append([]byte(nil), msg...)
	p = append(p, 0x80)
	for len(p)%BlockSize != 56 {
		p = append(p, 0)
	}
	return binary.BigEndian.AppendUint64(p, uint64(len(msg))<<3)
}

func TestGenericAgainstStdlib(t *testing.T) {
	r := rand.New(rand.NewPCG(1, 2))
	for n := range 4*BlockSize + 2 {
		msg := kerneltest.RandomBytes(r, n)
		s := Init
		blockGeneric(&s, pad(msg))
		var got []byte
		for _, w := range s {
			got = binary.BigEndian.AppendUint32(got, w)
		}
		if want := sha1.Sum(msg); !bytes.Equal(got, want[:]) {
			t.Fatalf("len %d: got %x, want %x", n, got, want)
		}
	}
}

var alg = kerneltest.Algorithm[State]{
	BlockSize: BlockSize,
	Ref:       blockGeneric,
	Random: func(r *rand.Rand) (s State) {
		for i := range s {
			s[i] = r.Uint32()
		}
		return s
	},
	Singles: Singles(),
	Multis:  Multis(),
}

func TestSingles(t *testing.T)       { kerneltest.Singles(t, alg) }
func TestMultis(t *testing.T)        { kerneltest.Multis(t, alg) }
func TestMultiNoAllocs(t *testing.T) { kerneltest.NoAllocs(t, alg) }

// BenchmarkKernel measures the kernels alone; see kerneltest.Benchmark.
func BenchmarkKernel(b *testing.B) { kerneltest.Benchmark(b, alg) }
