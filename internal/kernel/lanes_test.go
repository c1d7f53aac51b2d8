package kernel

import (
	"testing"
	"unsafe"
)

// BenchmarkRows moves four states of eight 32-bit words into rows and back
// with the moves for any state type, which a hybrid kernel's call uses for
// its SHA-NI streams (the generated wrappers' own moves: BenchmarkCall in
// each kernel package).
func BenchmarkRows(b *testing.B) {
	var rows [4][8]uint32
	var p [4]*byte
	benchMoves(b, func(states *[MaxLanes]*[8]uint32, ptrs *[MaxLanes]*byte, zeros *byte) {
		ToRows32(unsafe.Slice(&rows[0][0], 32), 8, p[:], states, ptrs, 15, 2, 512, zeros)
		FromRows32(unsafe.Slice(&rows[0][0], 32), 8, 4, states, 15)
	})
}

// BenchmarkLanes moves sixteen states of four 32-bit words into lanes
// (word-major) and back with the moves for any state type, which a hybrid
// kernel's call uses for its lanes.
func BenchmarkLanes(b *testing.B) {
	var ls [4][16]uint32
	var p [16]*byte
	benchMoves(b, func(states *[MaxLanes]*[4]uint32, ptrs *[MaxLanes]*byte, zeros *byte) {
		ToLanes32(unsafe.Slice(&ls[0][0], 64), p[:], states, ptrs, 1<<16-1, 1, 512, zeros)
		FromLanes32(unsafe.Slice(&ls[0][0], 64), 16, states, 1<<16-1)
	})
}

// benchMoves times move, a kernel call's moves of its states into its
// layout and back, on MaxLanes states of type S whose blocks are zeros.
func benchMoves[S any](b *testing.B, move func(states *[MaxLanes]*S, ptrs *[MaxLanes]*byte, zeros *byte)) {
	var st [MaxLanes]S
	var states [MaxLanes]*S
	var ptrs [MaxLanes]*byte
	var zeros [64]byte
	for i := range states {
		states[i], ptrs[i] = &st[i], &zeros[0]
	}
	for b.Loop() {
		move(&states, &ptrs, &zeros[0])
	}
}

// TestRowsRoundTrip checks that states moved into rows land in their rows,
// masked-out lanes read zeros, and the states come back unchanged.
func TestRowsRoundTrip(t *testing.T) {
	var st [MaxLanes][8]uint32
	var states [MaxLanes]*[8]uint32
	var ptrs [MaxLanes]*byte
	var zeros, data [64]byte
	for i := range states {
		for w := range st[i] {
			st[i][w] = uint32(100*i + w)
		}
		states[i], ptrs[i] = &st[i], &data[0]
	}
	var rows [4][8]uint32
	var p [4]*byte
	const mask = 0b1011
	if !ToRows32(unsafe.Slice(&rows[0][0], 32), 8, p[:], &states, &ptrs, mask, 1, 512, &zeros[0]) {
		t.Fatal("nothing to hash")
	}
	for i := range 4 {
		want, wantPtr := st[i], &data[0]
		if mask&(1<<i) == 0 {
			want, wantPtr = [8]uint32{}, &zeros[0]
		}
		if rows[i] != want || p[i] != wantPtr {
			t.Errorf("row %d: %v %p, want %v %p", i, rows[i], p[i], want, wantPtr)
		}
		rows[i][0]++ // the kernel's work
	}
	FromRows32(unsafe.Slice(&rows[0][0], 32), 8, 4, &states, mask)
	for i := range 4 {
		want := uint32(100 * i)
		if mask&(1<<i) != 0 {
			want++
		}
		if st[i][0] != want || st[i][7] != uint32(100*i+7) {
			t.Errorf("state %d: %v", i, st[i])
		}
	}
}
