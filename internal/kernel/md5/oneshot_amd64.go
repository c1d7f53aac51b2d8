//go:build !purego

package md5

import (
	"encoding/binary"

	"github.com/hashlanes/hashlanes/internal/kernel"
)

// AppendSumOwn appends to dst the MD5 digest of msg on hashlanes' scalar
// kernel: the whole blocks straight from msg, the tail and its padding in
// a buffer on the stack (kernel.PadTail64LE), where the standard
// library's one-shot function copies its hasher and writes the padding
// through Write. ok is always true: the kernel is base x86-64.
func AppendSumOwn(dst, msg []byte) (out []byte, ok bool) {
	st := Init
	n := len(msg) &^ (BlockSize - 1)
	if n > 0 {
		blockAMD64((*[4]uint32)(&st), msg[:n])
	}
	var buf [2 * BlockSize]byte
	blockAMD64((*[4]uint32)(&st), kernel.PadTail64LE(&buf, msg[n:], uint64(len(msg))))
	// Spec.AppendDigest's words, written here: called through the Spec's
	// function value, dst would escape to the heap.
	var d [Size]byte
	for i, w := range st {
		binary.LittleEndian.PutUint32(d[4*i:], w)
	}
	return append(dst, d[:]...), true
}
