package blake3tree

// leafKernels is the chaining value of a whole leaf (leafChunks chunks,
// the first at counter) on this package's kernels: 16 calls of 16 chunks,
// four levels of 16 parents, and four of fewer. The kernels read the leaf's bytes only: it may end a mapping.
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
		chunks16(&cvs[g], &ptrs, &m.Key, &ctr, m.Flags)
	}
	for n := groups; n > 1; n /= 2 {
		for p := range n / 2 {
			// Parent group p overwrites a group its own inputs or an
			// earlier parent's already read.
			parents16(&cvs[p], (*[2][8][16]uint32)(cvs[2*p:]), &m.Key, m.Flags)
		}
	}
	// The last four levels in the kernel too, its upper lanes idle: the
	// 16 chaining values become 8, 4, 2, 1.
	var pair [2][8][16]uint32
	pair[0] = cvs[0]
	parentsTo1(&pair, &m.Key, m.Flags)
	var cv [8]uint32
	for w := range cv {
		cv[w] = pair[0][w][0]
	}
	return cv
}
