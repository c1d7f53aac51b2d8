package blake3tree

import "lukechampine.com/blake3/guts"

// leafKernels is the chaining value of a whole leaf (leafChunks chunks,
// the first at counter) on this package's kernels: 16 calls of 16 chunks,
// four levels of 16 parents, and the last four levels (15 parents) one at
// a time. The kernels read the leaf's bytes only: it may end a mapping.
func leafKernels(m *Mode, leaf *[leafLen]byte, counter uint64) [8]uint32 {
	const groups = leafChunks / 16
	var cvs [groups][8][16]uint32
	var ptrs [16]*byte
	var ctr [2][16]uint32
	for g := range groups {
		for i := range 16 {
			ptrs[i] = &leaf[(16*g+i)*chunk]
			c := counter + uint64(16*g+i)
			ctr[0][i], ctr[1][i] = uint32(c), uint32(c>>32)
		}
		compressChunks16(&cvs[g], &ptrs, &m.Key, &ctr, m.Flags)
	}
	for n := groups; n > 1; n /= 2 {
		for p := range n / 2 {
			// Parent group p overwrites a group its own inputs or an
			// earlier parent's already read.
			compressParents16(&cvs[p], (*[2][8][16]uint32)(cvs[2*p:]), &m.Key, m.Flags)
		}
	}
	var lanes [16][8]uint32
	for w := range 8 {
		for i := range 16 {
			lanes[i][w] = cvs[0][w][i]
		}
	}
	level := lanes[:]
	for len(level) > 1 {
		for p := range len(level) / 2 {
			level[p] = guts.ChainingValue(guts.ParentNode(level[2*p], level[2*p+1], &m.Key, m.Flags))
		}
		level = level[:len(level)/2]
	}
	return level[0]
}
