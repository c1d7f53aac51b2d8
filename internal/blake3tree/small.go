package blake3tree

import "lukechampine.com/blake3/guts"

// SmallMax is the longest input Sum256Small takes: one chunk.
const SmallMax = chunk

// HaveSmall reports whether Sum256Small runs on this CPU's kernel.
func HaveSmall() bool { return use16 }

// Sum256Small appends the 32-byte BLAKE3 hash of p, at most one chunk, to
// dst: its blocks compressed one after another in the rows of four vector
// registers (compressChunk1), where lukechampine.com/blake3 compresses a
// lone chunk in Go. Call it only where HaveSmall.
func Sum256Small(dst, p []byte) []byte {
	var buf [chunk]byte
	copy(buf[:], p)
	blocks := max(1, (len(p)+guts.BlockSize-1)/guts.BlockSize)
	cv := guts.IV
	compressChunk1(&cv, &buf, blocks, uint32(len(p)-guts.BlockSize*(blocks-1)), 0, 0, guts.FlagRoot)
	return appendWords(dst, &cv)
}

// Sum256 appends the 32-byte BLAKE3 hash of p, one message alone, to dst:
// one chunk in vector rows (Sum256Small) where the CPU has them, more
// through Sum.
func Sum256(dst, p []byte) []byte {
	if len(p) <= SmallMax && HaveSmall() {
		return Sum256Small(dst, p)
	}
	return append(dst, Sum(Hash(), p, 32)...)
}
