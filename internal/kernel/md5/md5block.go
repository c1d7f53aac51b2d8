package md5

import (
	"encoding/binary"
	"math/bits"

	"github.com/hashlanes/hashlanes/internal/kernel/md5/rounds"
)

// blockGeneric is the reference single-stream block function; every other
// kernel is tested against it.
func blockGeneric(s *State, p []byte) {
	a, b, c, d := s[0], s[1], s[2], s[3]
	var m [16]uint32
	for len(p) >= BlockSize {
		for i := range m {
			m[i] = binary.LittleEndian.Uint32(p[4*i:])
		}
		aa, bb, cc, dd := a, b, c, d
		for i := range 64 {
			var f uint32
			switch i / 16 {
			case 0:
				f = (b & c) | (^b & d)
			case 1:
				f = (b & d) | (c &^ d)
			case 2:
				f = b ^ c ^ d
			case 3:
				f = c ^ (b | ^d)
			}
			f += a + rounds.K[i] + m[rounds.Word(i)]
			a, d, c, b = d, c, b, b+bits.RotateLeft32(f, rounds.Shift[i/16][i%4])
		}
		a, b, c, d = a+aa, b+bb, c+cc, d+dd
		p = p[BlockSize:]
	}
	*s = State{a, b, c, d}
}
