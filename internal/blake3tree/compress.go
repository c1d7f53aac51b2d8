package blake3tree

// BLAKE3's compression function and the nodes of its tree, as the BLAKE3
// specification defines them, in Go: what compresses where the kernels do
// not (a lone chunk, a root's output, a tree's last parents), and
// everything on a CPU without them.

import (
	"encoding/binary"
	"math/bits"
)

const (
	blockSize = 64
	chunk     = 1024
	// maxSIMD is the chunks one kernel call compresses, and the most a
	// chunk buffer (compressBuffer) holds.
	maxSIMD = 16
)

// The domain flags of a compression.
const (
	flagChunkStart        = 1 << 0
	flagChunkEnd          = 1 << 1
	flagParent            = 1 << 2
	flagRoot              = 1 << 3
	flagKeyedHash         = 1 << 4
	flagDeriveKeyContext  = 1 << 5
	flagDeriveKeyMaterial = 1 << 6
)

// iv is BLAKE3's initial chaining value, SHA-256's.
var iv = [8]uint32{
	0x6a09e667, 0xbb67ae85, 0x3c6ef372, 0xa54ff53a,
	0x510e527f, 0x9b05688c, 0x1f83d9ab, 0x5be0cd19,
}

// A node is one compression's input: what a chunk's last block or a
// parent holds before it is compressed, which the tree above it (or the
// root's output) decides how to finish.
type node struct {
	cv       [8]uint32
	block    [16]uint32
	counter  uint64
	blockLen uint32
	flags    uint32
}

// g is the quarter-round on four words of the state with two message
// words.
func g(a, b, c, d, mx, my uint32) (uint32, uint32, uint32, uint32) {
	a += b + mx
	d = bits.RotateLeft32(d^a, -16)
	c += d
	b = bits.RotateLeft32(b^c, -12)
	a += b + my
	d = bits.RotateLeft32(d^a, -8)
	c += d
	b = bits.RotateLeft32(b^c, -7)
	return a, b, c, d
}

// compress is the compression function's whole output: its seven rounds
// written out, each round's message words in the order the permutation
// gives them, so that no word moves between rounds.
func compress(n *node) [16]uint32 {
	m0, m1, m2, m3 := n.block[0], n.block[1], n.block[2], n.block[3]
	m4, m5, m6, m7 := n.block[4], n.block[5], n.block[6], n.block[7]
	m8, m9, m10, m11 := n.block[8], n.block[9], n.block[10], n.block[11]
	m12, m13, m14, m15 := n.block[12], n.block[13], n.block[14], n.block[15]
	s0, s1, s2, s3 := n.cv[0], n.cv[1], n.cv[2], n.cv[3]
	s4, s5, s6, s7 := n.cv[4], n.cv[5], n.cv[6], n.cv[7]
	s8, s9, s10, s11 := iv[0], iv[1], iv[2], iv[3]
	s12, s13, s14, s15 := uint32(n.counter), uint32(n.counter>>32), n.blockLen, n.flags
	// round 1
	s0, s4, s8, s12 = g(s0, s4, s8, s12, m0, m1)
	s1, s5, s9, s13 = g(s1, s5, s9, s13, m2, m3)
	s2, s6, s10, s14 = g(s2, s6, s10, s14, m4, m5)
	s3, s7, s11, s15 = g(s3, s7, s11, s15, m6, m7)
	s0, s5, s10, s15 = g(s0, s5, s10, s15, m8, m9)
	s1, s6, s11, s12 = g(s1, s6, s11, s12, m10, m11)
	s2, s7, s8, s13 = g(s2, s7, s8, s13, m12, m13)
	s3, s4, s9, s14 = g(s3, s4, s9, s14, m14, m15)
	// round 2
	s0, s4, s8, s12 = g(s0, s4, s8, s12, m2, m6)
	s1, s5, s9, s13 = g(s1, s5, s9, s13, m3, m10)
	s2, s6, s10, s14 = g(s2, s6, s10, s14, m7, m0)
	s3, s7, s11, s15 = g(s3, s7, s11, s15, m4, m13)
	s0, s5, s10, s15 = g(s0, s5, s10, s15, m1, m11)
	s1, s6, s11, s12 = g(s1, s6, s11, s12, m12, m5)
	s2, s7, s8, s13 = g(s2, s7, s8, s13, m9, m14)
	s3, s4, s9, s14 = g(s3, s4, s9, s14, m15, m8)
	// round 3
	s0, s4, s8, s12 = g(s0, s4, s8, s12, m3, m4)
	s1, s5, s9, s13 = g(s1, s5, s9, s13, m10, m12)
	s2, s6, s10, s14 = g(s2, s6, s10, s14, m13, m2)
	s3, s7, s11, s15 = g(s3, s7, s11, s15, m7, m14)
	s0, s5, s10, s15 = g(s0, s5, s10, s15, m6, m5)
	s1, s6, s11, s12 = g(s1, s6, s11, s12, m9, m0)
	s2, s7, s8, s13 = g(s2, s7, s8, s13, m11, m15)
	s3, s4, s9, s14 = g(s3, s4, s9, s14, m8, m1)
	// round 4
	s0, s4, s8, s12 = g(s0, s4, s8, s12, m10, m7)
	s1, s5, s9, s13 = g(s1, s5, s9, s13, m12, m9)
	s2, s6, s10, s14 = g(s2, s6, s10, s14, m14, m3)
	s3, s7, s11, s15 = g(s3, s7, s11, s15, m13, m15)
	s0, s5, s10, s15 = g(s0, s5, s10, s15, m4, m0)
	s1, s6, s11, s12 = g(s1, s6, s11, s12, m11, m2)
	s2, s7, s8, s13 = g(s2, s7, s8, s13, m5, m8)
	s3, s4, s9, s14 = g(s3, s4, s9, s14, m1, m6)
	// round 5
	s0, s4, s8, s12 = g(s0, s4, s8, s12, m12, m13)
	s1, s5, s9, s13 = g(s1, s5, s9, s13, m9, m11)
	s2, s6, s10, s14 = g(s2, s6, s10, s14, m15, m10)
	s3, s7, s11, s15 = g(s3, s7, s11, s15, m14, m8)
	s0, s5, s10, s15 = g(s0, s5, s10, s15, m7, m2)
	s1, s6, s11, s12 = g(s1, s6, s11, s12, m5, m3)
	s2, s7, s8, s13 = g(s2, s7, s8, s13, m0, m1)
	s3, s4, s9, s14 = g(s3, s4, s9, s14, m6, m4)
	// round 6
	s0, s4, s8, s12 = g(s0, s4, s8, s12, m9, m14)
	s1, s5, s9, s13 = g(s1, s5, s9, s13, m11, m5)
	s2, s6, s10, s14 = g(s2, s6, s10, s14, m8, m12)
	s3, s7, s11, s15 = g(s3, s7, s11, s15, m15, m1)
	s0, s5, s10, s15 = g(s0, s5, s10, s15, m13, m3)
	s1, s6, s11, s12 = g(s1, s6, s11, s12, m0, m10)
	s2, s7, s8, s13 = g(s2, s7, s8, s13, m2, m6)
	s3, s4, s9, s14 = g(s3, s4, s9, s14, m4, m7)
	// round 7
	s0, s4, s8, s12 = g(s0, s4, s8, s12, m11, m15)
	s1, s5, s9, s13 = g(s1, s5, s9, s13, m5, m0)
	s2, s6, s10, s14 = g(s2, s6, s10, s14, m1, m9)
	s3, s7, s11, s15 = g(s3, s7, s11, s15, m8, m6)
	s0, s5, s10, s15 = g(s0, s5, s10, s15, m14, m10)
	s1, s6, s11, s12 = g(s1, s6, s11, s12, m2, m12)
	s2, s7, s8, s13 = g(s2, s7, s8, s13, m3, m4)
	s3, s4, s9, s14 = g(s3, s4, s9, s14, m7, m13)
	return [16]uint32{
		s0 ^ s8, s1 ^ s9, s2 ^ s10, s3 ^ s11,
		s4 ^ s12, s5 ^ s13, s6 ^ s14, s7 ^ s15,
		s8 ^ n.cv[0], s9 ^ n.cv[1], s10 ^ n.cv[2], s11 ^ n.cv[3],
		s12 ^ n.cv[4], s13 ^ n.cv[5], s14 ^ n.cv[6], s15 ^ n.cv[7],
	}
}

// chainingValue is the first half of n's compression: the chaining value
// a node hands the node above it.
func chainingValue(n *node) [8]uint32 {
	o := compress(n)
	return [8]uint32(o[:8])
}

// parentNode is the parent of two subtrees with chaining values l and r.
func parentNode(l, r *[8]uint32, key *[8]uint32, flags uint32) node {
	n := node{cv: *key, blockLen: blockSize, flags: flags | flagParent}
	copy(n.block[:8], l[:])
	copy(n.block[8:], r[:])
	return n
}

// loadBlock reads a block of up to 64 bytes into n's message words, zeros
// after its end.
func (n *node) loadBlock(p []byte) {
	n.blockLen = uint32(len(p))
	if len(p) < blockSize {
		var b [blockSize]byte
		copy(b[:], p)
		p = b[:]
	}
	p = p[:blockSize]
	for i := range n.block {
		n.block[i] = binary.LittleEndian.Uint32(p[4*i:])
	}
}

// compressChunk compresses a chunk (at most 1 KiB; an empty one is the
// empty input's) but for its last block, and returns that block's node.
func compressChunk(p []byte, key *[8]uint32, counter uint64, flags uint32) node {
	n := node{cv: *key, counter: counter, flags: flags | flagChunkStart}
	for len(p) > blockSize {
		n.loadBlock(p[:blockSize])
		n.cv = chainingValue(&n)
		n.flags &^= flagChunkStart
		p = p[blockSize:]
	}
	n.loadBlock(p)
	n.flags |= flagChunkEnd
	return n
}

// compressBuffer compresses the length bytes at the front of buf, the
// chunks from counter on (at most maxSIMD), and returns the root node of
// their subtree, not compressed: on the kernels, one call for the chunks
// and one a level for the parents, where there are two chunks or more.
func compressBuffer(buf *[maxSIMD * chunk]byte, length int, key *[8]uint32, counter uint64, flags uint32) node {
	if length <= chunk {
		return compressChunk(buf[:length], key, counter, flags)
	}
	if useKernels() {
		return bufferKernels(buf, length, key, counter, flags)
	}
	var cvs [maxSIMD][8]uint32
	n := 0
	for off := 0; off < length; off += chunk {
		c := compressChunk(buf[off:min(length, off+chunk)], key, counter+uint64(n), flags)
		cvs[n] = chainingValue(&c)
		n++
	}
	return mergeCVs(cvs[:n], key, flags)
}

// mergeCVs is the root node, not compressed, of the subtree whose
// leftmost subtrees, of equal size but the last, have the chaining values
// cvs (two or more): neighbours are paired level by level, an odd last one
// rising as it is, which builds BLAKE3's left-filled tree. cvs is
// overwritten.
func mergeCVs(cvs [][8]uint32, key *[8]uint32, flags uint32) node {
	for len(cvs) > 2 {
		k := 0
		for i := 0; i+1 < len(cvs); i += 2 {
			p := parentNode(&cvs[i], &cvs[i+1], key, flags)
			cvs[k] = chainingValue(&p)
			k++
		}
		if len(cvs)%2 == 1 {
			cvs[k] = cvs[len(cvs)-1]
			k++
		}
		cvs = cvs[:k]
	}
	return parentNode(&cvs[0], &cvs[1], key, flags)
}

// bufferKernels is compressBuffer on the kernels, for two chunks or more.
func bufferKernels(buf *[maxSIMD * chunk]byte, length int, key *[8]uint32, counter uint64, flags uint32) node {
	n := (length + chunk - 1) / chunk
	var (
		ptrs [16]*byte
		ctr  [2][16]uint32
		ends [3][16]uint32
		pad  [chunk]byte // the last chunk, where short
		cvs  [2][8][16]uint32
	)
	for i := range 16 {
		if i >= n {
			ptrs[i] = &zeroChunk[0] // an idle lane: zero ends
			continue
		}
		ptrs[i], _ = lastChunkLane(&ctr, &ends, i, buf[i*chunk:min(length, (i+1)*chunk)], &pad, counter+uint64(i))
	}
	chunksVarUpTo(n, &cvs[0], &ptrs, key, &ctr, &ends, chunk/blockSize, flags)
	for n > 2 {
		odd := n % 2
		var last [8]uint32
		for w := range last {
			last[w] = cvs[0][w][n-1]
		}
		parentsLow(&cvs, key, flags)
		n /= 2
		if odd == 1 {
			for w := range last {
				cvs[0][w][n] = last[w]
			}
			n++
		}
	}
	var l, r [8]uint32
	for w := range l {
		l[w], r[w] = cvs[0][w][0], cvs[0][w][1]
	}
	return parentNode(&l, &r, key, flags)
}
