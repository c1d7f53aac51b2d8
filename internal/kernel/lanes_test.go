package kernel

import "testing"

// TestWork checks a call's checks: nothing to do without blocks or busy
// lanes (mask bits beyond the kernel's lanes do not count), a panic over
// the bound.
func TestWork(t *testing.T) {
	for _, c := range []struct {
		mask           uint32
		lanes, nblocks int
		want           bool
	}{
		{1, 16, 1, true}, {0, 16, 1, false}, {1, 16, 0, false}, {1 << 16, 16, 1, false},
		{1 << 31, 32, 1, true}, {1<<32 - 1, 32, 4, true}, {3, 2, 512, true},
	} {
		if got := Work(c.mask, c.lanes, c.nblocks, 512); got != c.want {
			t.Errorf("Work(%#x, %d lanes, %d blocks) = %v, want %v", c.mask, c.lanes, c.nblocks, got, c.want)
		}
	}
	defer func() {
		if recover() == nil {
			t.Error("Work over the bound did not panic")
		}
	}()
	Work(1, 16, 513, 512)
}
