package kernel

// Work reports whether a call of a kernel of lanes lanes has blocks to
// hash in the lanes of mask, and panics when nblocks is over the call's
// bound. The generated wrappers (internal/kernel/_asm/lanewrap) ask it
// before moving their lanes' states into the kernel's layout.
func Work(mask uint32, lanes, nblocks, maxBlocks int) bool {
	if nblocks <= 0 || mask&(1<<lanes-1) == 0 {
		return false
	}
	if nblocks > maxBlocks {
		panic("kernel: too many blocks for one call")
	}
	return true
}
