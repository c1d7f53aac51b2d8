//go:build !amd64 || purego

package blake3tree

var use16, use8 = false, false

const haveKernels = false

func cpuHasKernels() bool  { return false }
func cpuHasKernels8() bool { return false }

func compressChunks16(cvs *[8][16]uint32, ptrs *[16]*byte, key *[8]uint32, ctr *[2][16]uint32, flags uint32) {
	panic("unreachable")
}

func compressChunksVar16(cvs *[8][16]uint32, ptrs *[16]*byte, key *[8]uint32, ctr *[2][16]uint32, ends *[3][16]uint32, blocks int, flags uint32) {
	panic("unreachable")
}

func compressParents16(out *[8][16]uint32, in *[2][8][16]uint32, key *[8]uint32, flags uint32) {
	panic("unreachable")
}

func compressChunk1(cv *[8]uint32, buf *[1024]byte, blocks int, lastLen uint32, counter uint64, flags uint32, lastFlags uint32) {
	panic("unreachable")
}

func compressChunks8(cvs *[8][16]uint32, ptrs *[16]*byte, key *[8]uint32, ctr *[2][16]uint32, flags uint32, lane int) {
	panic("unreachable")
}

func compressChunksVar8(cvs *[8][16]uint32, ptrs *[16]*byte, key *[8]uint32, ctr *[2][16]uint32, ends *[3][16]uint32, blocks int, flags uint32, lane int) {
	panic("unreachable")
}

func compressParents8(out *[8][16]uint32, in *[2][8][16]uint32, key *[8]uint32, flags uint32, half int) {
	panic("unreachable")
}
