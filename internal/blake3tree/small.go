package blake3tree

// SmallMax is the longest input Sum256Small takes: one chunk.
const SmallMax = chunk

// HaveSmall reports whether Sum256Small runs on this CPU's kernel.
func HaveSmall() bool { return use16 }

// Sum256Small appends the 32-byte BLAKE3 hash of p, at most one chunk, to
// dst: its blocks compressed one after another in the rows of four vector
// registers (compressChunk1), where the compression function in Go would
// take its blocks one at a time. Call it only where HaveSmall.
func Sum256Small(dst, p []byte) []byte {
	var buf [chunk]byte
	copy(buf[:], p)
	blocks := max(1, (len(p)+blockSize-1)/blockSize)
	cv := iv
	compressChunk1(&cv, &buf, blocks, uint32(len(p)-blockSize*(blocks-1)), 0, 0, flagRoot)
	return appendWords(dst, &cv)
}

// Sum256 appends the 32-byte BLAKE3 hash of p, one message alone, to dst:
// one chunk in vector rows (Sum256Small) where the CPU has them, or its
// blocks one after another in Go; more through Sum.
func Sum256(dst, p []byte) []byte {
	if len(p) <= SmallMax {
		if HaveSmall() {
			return Sum256Small(dst, p)
		}
		key := iv
		root := compressChunk(p, &key, 0, 0)
		root.flags |= flagRoot
		cv := chainingValue(&root)
		return appendWords(dst, &cv)
	}
	return append(dst, Sum(Hash(), p, 32)...)
}
