//go:build !purego

package sha512

import (
	"github.com/hashlanes/hashlanes/internal/cpu"
	"github.com/hashlanes/hashlanes/internal/kernel"
)

// AppendSumOwn appends to dst the digest of msg from the initial state
// init, its first size bytes, on hashlanes' single-stream kernel of tier
// l (AVX-512 or AVX2; l is capped at cpu.Active): the whole blocks
// straight from msg, the tail and its padding in a buffer on the stack.
// The standard library's one-shot function copies its hasher and writes
// the padding through Write, and runs a slower kernel. ok is false below
// the AVX2 tier. The kernels are called directly, never through a
// function value, which would move the buffer to the heap.
func AppendSumOwn(dst []byte, init *State, size int, msg []byte, l cpu.Level) (out []byte, ok bool) {
	l = min(l, cpu.Active)
	if l < cpu.AVX2 {
		return dst, false
	}
	st := *init
	n := len(msg) &^ (BlockSize - 1)
	var buf [2 * BlockSize]byte
	tail := kernel.PadTail128BE(&buf, msg[n:], uint64(len(msg)))
	if l >= cpu.AVX512 {
		if n > 0 {
			blockAVX512((*[8]uint64)(&st), msg[:n])
		}
		blockAVX512((*[8]uint64)(&st), tail)
	} else {
		if n > 0 {
			blockAVX2((*[8]uint64)(&st), msg[:n])
		}
		blockAVX2((*[8]uint64)(&st), tail)
	}
	return kernel.DigestBE[uint64](dst, &st, size), true
}
