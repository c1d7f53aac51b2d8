package md5

import (
	"bytes"
	"crypto/md5"
	"encoding/binary"
	"math/rand/v2"
	"testing"

	"github.com/hashlanes/hashlanes/internal/kernel/kerneltest"
)

// pad returns msg followed by MD5 padding, so that whole-block kernels can
// be checked against crypto/md5 directly.
func pad(msg []byte) []byte {
	p := append([]byte(nil), msg...)
	p = append(p, 0x80)
	for len(p)%BlockSize != 56 {
		p = append(p, 0)
	}
	return binary.LittleEndian.AppendUint64(p, uint64(len(msg))<<3)
}

func digest(s State) []byte {
	var out []byte
	for _, w := range s {
		out = binary.LittleEndian.AppendUint32(out, w)
	}
	return out
}

func randomState(r *rand.Rand) State {
	return State{r.Uint32(), r.Uint32(), r.Uint32(), r.Uint32()}
}

func TestGenericAgainstStdlib(t *testing.T) {
	r := rand.New(rand.NewPCG(1, 2))
	for n := range 4*BlockSize + 2 {
		msg := kerneltest.RandomBytes(r, n)
		s := Init
		blockGeneric(&s, pad(msg))
		if want := md5.Sum(msg); !bytes.Equal(digest(s), want[:]) {
			t.Fatalf("len %d: got %x, want %x", n, digest(s), want)
		}
	}
}

var alg = kerneltest.Algorithm[State]{
	BlockSize: BlockSize,
	Ref:       blockGeneric,
	Random:    randomState,
	Singles:   Singles(),
	Multis:    Multis(),
}

func TestSingles(t *testing.T)       { kerneltest.Singles(t, alg) }
func TestMultis(t *testing.T)        { kerneltest.Multis(t, alg) }
func TestMultiNoAllocs(t *testing.T) { kerneltest.NoAllocs(t, alg) }

// BenchmarkKernel measures the kernels alone; see kerneltest.Benchmark.
func BenchmarkKernel(b *testing.B) { kerneltest.Benchmark(b, alg) }
