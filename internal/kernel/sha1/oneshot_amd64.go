//go:build !purego

package sha1

import (
	"github.com/hashlanes/hashlanes/internal/cpu"
	"github.com/hashlanes/hashlanes/internal/kernel"
)

// AppendSumSHANI appends to dst the digest of msg from the initial state
// init, its first size bytes (Init and Size), on the SHA-NI kernel: the
// whole blocks straight from msg, the tail and its padding in a buffer on
// the stack. The standard library's one-shot
// function copies its hasher and writes the padding through Write. ok is
// false where the CPU lacks SHA-NI, or HASHLANES_CPU turns it off.
func AppendSumSHANI(dst []byte, init *State, size int, msg []byte) (out []byte, ok bool) {
	if !cpu.Has(cpu.SHA) {
		return dst, false
	}
	st := *init
	n := len(msg) &^ (BlockSize - 1)
	if n > 0 {
		blockSHANI((*[5]uint32)(&st), msg[:n])
	}
	var buf [2 * BlockSize]byte
	blockSHANI((*[5]uint32)(&st), kernel.PadTail64BE(&buf, msg[n:], uint64(len(msg))))
	return kernel.DigestBE[uint32](dst, &st, size), true
}
