//go:build !purego

package md5

import (
	"encoding/binary"

	"github.com/hashlanes/hashlanes/internal/kernel"
)

// AppendSumOwn appends to dst the MD5 digest of msg on hashlanes' scalar
// kernel: the whole blocks straight from msg, the tail and its padding in
// a buffer on the stack, where the standard library's one-shot function
// copies its hasher and writes the padding through Write. The 0x80 goes
// in with EndMessage, so that each of the kernel's loads is served by one
// store (docs/engine.md, "Padding a kernel can read at once"). ok is
// always true: the kernel is base x86-64.
func AppendSumOwn(dst, msg []byte) (out []byte, ok bool) {
	st := Init
	n := len(msg) &^ (BlockSize - 1)
	if n > 0 {
		blockAMD64((*[4]uint32)(&st), msg[:n])
	}
	var buf [2 * BlockSize]byte
	k := copy(buf[:], msg[n:])
	end := BlockSize
	if k >= BlockSize-8 {
		end = 2 * BlockSize
	}
	kernel.EndMessage(buf[:end], k)
	binary.LittleEndian.PutUint64(buf[end-8:end], uint64(len(msg))<<3)
	blockAMD64((*[4]uint32)(&st), buf[:end])
	var d [Size]byte
	for i, w := range st {
		binary.LittleEndian.PutUint32(d[4*i:], w)
	}
	return append(dst, d[:]...), true
}
