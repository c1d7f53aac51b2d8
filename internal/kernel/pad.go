package kernel

import "encoding/binary"

// PadTail64BE writes the tail of a message of n bytes, fewer than a
// 64-byte block, and the message's padding (0x80, zeros, the length in
// bits big-endian: SHA-1's and SHA-256's) into buf, and returns the one or
// two blocks to hash. The buffer is the caller's, on its stack: a one-shot
// sum that calls its assembly directly pads without an allocation. Its
// 0x80 is a byte store (not EndMessage): the buffer is zero already, and
// the SHA-NI kernels' 16-byte loads span more than one store either way.
func PadTail64BE(buf *[128]byte, tail []byte, n uint64) []byte {
	k := copy(buf[:64], tail)
	buf[k] = 0x80
	end := 64
	if k >= 64-8 { // no room for the length after the 0x80
		end = 128
	}
	PutLength(buf[:end], n, 8, true)
	return buf[:end]
}

// PadTail128BE is PadTail64BE for 128-byte blocks and a 16-byte length
// (SHA-384, SHA-512 and SHA-512/t).
func PadTail128BE(buf *[256]byte, tail []byte, n uint64) []byte {
	k := copy(buf[:128], tail)
	buf[k] = 0x80
	end := 128
	if k >= 128-16 { // no room for the length after the 0x80
		end = 256
	}
	PutLength(buf[:end], n, 16, true)
	return buf[:end]
}

// PadTail64LE is PadTail64BE with the length little-endian (MD5's), and
// its 0x80 written with EndMessage: MD5's kernel loads 4-byte words, each
// then served by one store, where a byte store made the padding block's
// first loads wait for the block before (a one-shot MD5 read 0.81-0.99x
// crypto/md5's that way, level with EndMessage).
func PadTail64LE(buf *[128]byte, tail []byte, n uint64) []byte {
	k := copy(buf[:64], tail)
	end := 64
	if k >= 64-8 { // no room for the length after the 0x80
		end = 128
	}
	EndMessage(buf[:end], k)
	PutLength(buf[:end], n, 8, false)
	return buf[:end]
}

// PutLength writes the padding's length field for a message of n bytes
// at the end of block: the length in bits in lenBytes bytes (8, or 16 for
// the SHA-512 family), big-endian (the SHA family) or little-endian
// (MD5). The one-shot paths pass constants, which fold its branches.
func PutLength(block []byte, n uint64, lenBytes int, bigEndian bool) {
	end := len(block)
	if !bigEndian {
		binary.LittleEndian.PutUint64(block[end-8:], n<<3)
		return
	}
	binary.BigEndian.PutUint64(block[end-8:], n<<3)
	if lenBytes == 16 {
		binary.BigEndian.PutUint64(block[end-16:], n>>61)
	}
}

// EndMessage writes the padding's first byte, 0x80, after the k bytes of a
// message's end in buf, and zeroes buf past it. The 8-byte word that holds
// the 0x80 is written whole, the message's bytes in it included: a
// kernel's load of that word is then served by one store, where a byte
// store beside the zeroing would make the load wait until both reach the
// cache, which is after every instruction before them (the last block's
// hashing too) has retired (docs/engine.md, "Padding a kernel can read
// at once"). len(buf) is a multiple of 8 greater than k.
func EndMessage(buf []byte, k int) {
	w := k &^ 7
	word := uint64(0x80) << (8 * (k & 7))
	for i := w; i < k; i++ {
		word |= uint64(buf[i]) << (8 * (i - w))
	}
	clear(buf[w:])
	binary.LittleEndian.PutUint64(buf[w:], word)
}
