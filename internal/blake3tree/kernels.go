package blake3tree

// useKernels: this package's kernels run on this CPU, 16 lanes at a time
// in one call or two.
func useKernels() bool { return use16 || use8 }

// chunks16 is compressChunks16 on the CPU's kernels: one AVX-512 call, or
// two AVX2 calls of eight lanes.
func chunks16(cvs *[8][16]uint32, ptrs *[16]*byte, key *[8]uint32, ctr *[2][16]uint32, flags uint32) {
	if use16 {
		compressChunks16(cvs, ptrs, key, ctr, flags)
		return
	}
	compressChunks8(cvs, ptrs, key, ctr, flags, 0)
	compressChunks8(cvs, ptrs, key, ctr, flags, 8)
}

// chunksVar16 is compressChunksVar16 on the CPU's kernels.
func chunksVar16(cvs *[8][16]uint32, ptrs *[16]*byte, key *[8]uint32, ctr *[2][16]uint32, ends *[3][16]uint32, blocks int, flags uint32) {
	if use16 {
		compressChunksVar16(cvs, ptrs, key, ctr, ends, blocks, flags)
		return
	}
	compressChunksVar8(cvs, ptrs, key, ctr, ends, blocks, flags, 0)
	compressChunksVar8(cvs, ptrs, key, ctr, ends, blocks, flags, 8)
}

// parents16 is compressParents16 on the CPU's kernels.
func parents16(out *[8][16]uint32, in *[2][8][16]uint32, key *[8]uint32, flags uint32) {
	if use16 {
		compressParents16(out, in, key, flags)
		return
	}
	compressParents8(out, in, key, flags, 0)
	compressParents8(out, in, key, flags, 8)
}

// chunksVarUpTo is chunksVar16 for the first n lanes (the others idle):
// on AVX2, the second call of eight only where n is more than 8.
func chunksVarUpTo(n int, cvs *[8][16]uint32, ptrs *[16]*byte, key *[8]uint32, ctr *[2][16]uint32, ends *[3][16]uint32, blocks int, flags uint32) {
	if use16 {
		compressChunksVar16(cvs, ptrs, key, ctr, ends, blocks, flags)
		return
	}
	compressChunksVar8(cvs, ptrs, key, ctr, ends, blocks, flags, 0)
	if n > 8 {
		compressChunksVar8(cvs, ptrs, key, ctr, ends, blocks, flags, 8)
	}
}

// lastChunkLane sets lane l of a chunksVar16 call to the chunk p (a whole
// chunk or less, at counter c, its last block flagged as the chunk's
// end), and returns the lane's pointer and blocks: p itself where whole,
// else a copy in pad with zeros to its last block's end, since the kernel
// reads whole blocks. The pointer is returned, not stored: stored through
// a parameter, it would move the caller's pad to the heap.
func lastChunkLane(ctr *[2][16]uint32, ends *[3][16]uint32, l int, p []byte, pad *[chunk]byte, c uint64) (*byte, int) {
	nb := max(1, (len(p)+blockSize-1)/blockSize)
	ptr := &pad[0]
	if len(p) == chunk {
		ptr = &p[0]
	} else {
		copy(pad[:], p)
		clear(pad[len(p) : nb*blockSize])
	}
	ctr[0][l], ctr[1][l] = uint32(c), uint32(c>>32)
	ends[0][l] = uint32(nb - 1)
	ends[1][l] = uint32(len(p) - blockSize*(nb-1))
	ends[2][l] = flagChunkEnd
	return ptr, nb
}

// parentsLow replaces the chaining values in lanes 0..15 of cvs[0] by
// their parents, pair by pair, in lanes 0..7 (the kernel's other lanes
// idle; on AVX2 one call of 8).
func parentsLow(cvs *[2][8][16]uint32, key *[8]uint32, flags uint32) {
	if use16 {
		compressParents16(&cvs[0], cvs, key, flags)
	} else {
		compressParents8(&cvs[0], cvs, key, flags, 0)
	}
}

// parentsTo1 reduces the 16 chaining values of a group in lanes 0..15 of
// cvs[0] to the group's, in lane 0: four levels of parents, 8, 4, 2, 1.
func parentsTo1(cvs *[2][8][16]uint32, key *[8]uint32, flags uint32) {
	for range 4 {
		parentsLow(cvs, key, flags)
	}
}

// Kernels describes what compresses the chunks and parents: the kernels
// at the CPU's tier, with the compression function in Go for what they
// leave (a lone chunk, a root's output), or that alone.
func Kernels() string {
	switch {
	case use16:
		return "avx512x16 (16 chunks a call) + generic"
	case use8:
		return "avx2x8 (8 chunks a call) + generic"
	}
	return "generic"
}
