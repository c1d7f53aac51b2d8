package blake3tree

import (
	"bytes"
	"fmt"
	"math/rand/v2"
	"testing"

	"github.com/hashlanes/hashlanes/internal/cpu/cputest"
	"lukechampine.com/blake3"
)

// reference is lukechampine.com/blake3's output of msg in mode m.
func reference(m string, msg []byte, outLen int) []byte {
	var h *blake3.Hasher
	switch m {
	case "hash":
		h = blake3.New(outLen, nil)
	case "keyed":
		h = blake3.New(outLen, manyKey[:])
	default:
		out := make([]byte, outLen)
		blake3.DeriveKey(out, "hashlanes many", msg)
		return out
	}
	h.Write(msg)
	return h.Sum(nil)
}

var manyKey = [32]byte{7, 6, 5, 4, 3, 2, 1}

func modeNamed(m string) Mode {
	switch m {
	case "hash":
		return Hash()
	case "keyed":
		return Keyed(&manyKey)
	}
	return DeriveKey("hashlanes many")
}

// TestSumMany checks every length class around the chunk boundaries, up
// to ManyMax and past it, in batches of mixed lengths (so that a
// kernel call holds chunks of several messages, and the last call is
// partly empty), in every mode, at 32 bytes and longer outputs.
func TestSumMany(t *testing.T) { forEachKernels(t, testSumMany) }

func testSumMany(t *testing.T) {
	r := rand.New(rand.NewPCG(21, 22))
	data := make([]byte, ManyMax+3*chunk)
	for i := range data {
		data[i] = byte(r.Uint32())
	}
	var lengths []int
	for c := 0; c <= ManyMax/chunk+2; c++ {
		for _, d := range []int{-65, -64, -1, 0, 1, 63, 64, 65} {
			if n := c*chunk + d; n >= 0 && n <= len(data) {
				lengths = append(lengths, n)
			}
		}
	}
	for _, mode := range []string{"hash", "keyed", "derive"} {
		for _, outLen := range []int{32, 1, 100} {
			t.Run(fmt.Sprintf("%s/%d", mode, outLen), func(t *testing.T) {
				m := modeNamed(mode)
				for batch := range 40 {
					n := 1 + r.IntN(37)
					if batch == 0 {
						n = len(lengths)
					}
					msgs := make([][]byte, n)
					for i := range msgs {
						l := lengths[r.IntN(len(lengths))]
						if batch == 0 {
							l = lengths[i]
						}
						off := r.IntN(len(data) - l + 1)
						msgs[i] = data[off : off+l]
					}
					got := SumMany([]byte("x"), m, msgs, outLen)
					if got[0] != 'x' || len(got) != 1+n*outLen {
						t.Fatalf("batch %d: %d bytes out, want 1+%d", batch, len(got), n*outLen)
					}
					for i, msg := range msgs {
						want := reference(mode, msg, outLen)
						if g := got[1+i*outLen : 1+(i+1)*outLen]; !bytes.Equal(g, want) {
							t.Fatalf("batch %d, message %d of %d bytes: %x, want %x", batch, i, len(msg), g, want)
						}
					}
				}
			})
		}
	}
	if got := SumMany(nil, Hash(), nil, 32); len(got) != 0 {
		t.Errorf("no messages: %x", got)
	}
}

// BenchmarkSumMany hashes 64 messages of one length: in lanes across
// messages, one after another as Sum hashes a message (16 chunks a call
// of lukechampine.com/blake3's AVX-512 kernel), and as its Sum256 does.
func BenchmarkSumMany(b *testing.B) {
	for _, size := range []int{1 << 10, 2 << 10, 4 << 10, 8 << 10, 16 << 10, 40 << 10, 64 << 10} {
		msgs := make([][]byte, 64)
		for i := range msgs {
			msgs[i] = make([]byte, size)
			msgs[i][0] = byte(i)
		}
		dst := make([]byte, 0, 64*32)
		for _, k := range kernelSets[1:] {
			b.Run(fmt.Sprintf("size=%d/impl=lanes-%s", size, k.name), func(b *testing.B) {
				cputest.RequireFlag(b, k.have(), k.flag)
				defer func(u16, u8 bool) { use16, use8 = u16, u8 }(use16, use8)
				use16, use8 = k.use16, k.use8
				b.SetBytes(int64(64 * size))
				for b.Loop() {
					SumMany(dst, Hash(), msgs, 32)
				}
			})
		}
		b.Run(fmt.Sprintf("size=%d/impl=sum", size), func(b *testing.B) {
			b.SetBytes(int64(64 * size))
			for b.Loop() {
				for _, m := range msgs {
					Sum(Hash(), m, 32)
				}
			}
		})
		b.Run(fmt.Sprintf("size=%d/impl=luke", size), func(b *testing.B) {
			b.SetBytes(int64(64 * size))
			for b.Loop() {
				for _, m := range msgs {
					blake3.Sum256(m)
				}
			}
		})
	}
}
