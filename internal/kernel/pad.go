package kernel

import "encoding/binary"

// PadTail64BE writes the tail of a message of n bytes, fewer than a
// 64-byte block, and the message's padding (0x80, zeros, the length in
// bits big-endian: SHA-1's and SHA-256's) into buf, and returns the one or
// two blocks to hash. The buffer is the caller's, on its stack: a one-shot
// sum that calls its assembly directly pads without an allocation.
func PadTail64BE(buf *[128]byte, tail []byte, n uint64) []byte {
	k := copy(buf[:64], tail)
	buf[k] = 0x80
	end := 64
	if k >= 64-8 { // no room for the length after the 0x80
		end = 128
	}
	binary.BigEndian.PutUint64(buf[end-8:end], n<<3)
	return buf[:end]
}
