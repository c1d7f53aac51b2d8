package kernel

import "unsafe"

// ToLanes32 prepares a call of an assembly kernel whose states are words
// 32-bit words each, kept lane-major (word w of lane i at ls[w*len(p)+i]):
// it copies the masked lanes' states into ls and their pointers into p, and
// points masked-out lanes at zeros, so the kernel can load every lane
// without a branch and never touches memory it was not given. It reports
// false when there is nothing to hash, and panics when nblocks is over the
// per-call bound.
func ToLanes32[S any](ls []uint32, p []*byte, states *[MaxLanes]*S, ptrs *[MaxLanes]*byte, mask uint32, nblocks, maxBlocks int, zeros *byte) bool {
	lanes := len(p)
	if nblocks <= 0 || mask&(1<<lanes-1) == 0 {
		return false
	}
	if nblocks > maxBlocks {
		panic("kernel: too many blocks for one call")
	}
	words := len(ls) / lanes
	for i := range lanes {
		if mask&(1<<i) == 0 {
			p[i] = zeros
			continue
		}
		s := unsafe.Slice((*uint32)(unsafe.Pointer(states[i])), words)
		for w, v := range s {
			ls[w*lanes+i] = v
		}
		p[i] = ptrs[i]
	}
	return true
}

// FromLanes32 copies the masked lanes' states back from ls.
func FromLanes32[S any](ls []uint32, lanes int, states *[MaxLanes]*S, mask uint32) {
	words := len(ls) / lanes
	for i := range lanes {
		if mask&(1<<i) == 0 {
			continue
		}
		s := unsafe.Slice((*uint32)(unsafe.Pointer(states[i])), words)
		for w := range s {
			s[w] = ls[w*lanes+i]
		}
	}
}
