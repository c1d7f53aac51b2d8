package engine

import (
	"math/rand/v2"
	"slices"
	"testing"

	"github.com/hashlanes/hashlanes/internal/kernel"
)

// TestGather checks SumMany's filing by padded block count against
// paddedBlocks: every message once, each class handed over when it holds
// a batch call's worth and only then, the long ones apart, for the block
// sizes and length fields of MD5 and SHA-512, with the classes mixed
// and lengths on both sides of every class boundary.
func TestGather(t *testing.T) {
	for _, f := range []struct{ lenBytes, blockSize int }{{8, 64}, {16, 128}} {
		r := rand.New(rand.NewPCG(7, uint64(f.blockSize)))
		msgs := make([][]byte, 5000)
		for i := range msgs {
			c := 1 + r.IntN(stageBlocks+1)
			edge := c*f.blockSize - f.lenBytes // the first length of c+1 blocks
			n := max(0, edge-2+r.IntN(4))
			if r.IntN(20) == 0 {
				n = r.IntN(1 << 20)
			}
			msgs[i] = make([]byte, n)
		}
		b := new(batch[[4]uint32])
		seen := make([]int, len(msgs))
		check := func(c int, idx []int32) {
			for _, i := range idx {
				seen[i]++
				if got := paddedBlocks(len(msgs[i]), f.lenBytes, f.blockSize); got != c {
					t.Fatalf("block %d: message %d (%d bytes, %d blocks) filed as %d", f.blockSize, i, len(msgs[i]), got, c)
				}
			}
		}
		for i := 0; ; {
			c, next := b.gather(msgs, i, f.lenBytes, f.blockSize)
			if c == 0 {
				break
			}
			if b.count(c) != kernel.MaxBatchMsgs || next <= i {
				t.Fatalf("class %d handed over with count %d, from %d to %d", c, b.count(c), i, next)
			}
			check(c, b.short[c][:])
			b.clear(c)
			i = next
		}
		for c := 1; c <= stageBlocks; c++ {
			check(c, b.short[c][:b.count(c)])
		}
		for _, i := range b.long {
			seen[i]++
			if paddedBlocks(len(msgs[i]), f.lenBytes, f.blockSize) <= stageBlocks {
				t.Fatalf("block %d: message %d of %d bytes filed as long", f.blockSize, i, len(msgs[i]))
			}
		}
		if k := slices.IndexFunc(seen, func(n int) bool { return n != 1 }); k >= 0 {
			t.Fatalf("block %d: message %d filed %d times", f.blockSize, k, seen[k])
		}
	}
}
