package sha512

import (
	"encoding/binary"
	"math/bits"

	"github.com/hashlanes/hashlanes/internal/kernel/sha512/rounds"
)

// blockGeneric is the reference single-stream block function (FIPS 180-4,
// 6.4.2); every other kernel is tested against it.
func blockGeneric(s *State, p []byte) {
	var w [80]uint64
	for len(p) >= BlockSize {
		for i := range 16 {
			w[i] = binary.BigEndian.Uint64(p[8*i:])
		}
		for i := 16; i < 80; i++ {
			v1, v2 := w[i-2], w[i-15]
			s1 := bits.RotateLeft64(v1, -19) ^ bits.RotateLeft64(v1, -61) ^ v1>>6
			s0 := bits.RotateLeft64(v2, -1) ^ bits.RotateLeft64(v2, -8) ^ v2>>7
			w[i] = s1 + w[i-7] + s0 + w[i-16]
		}
		a, b, c, d, e, f, g, h := s[0], s[1], s[2], s[3], s[4], s[5], s[6], s[7]
		for i := range 80 {
			t1 := h + (bits.RotateLeft64(e, -14) ^ bits.RotateLeft64(e, -18) ^ bits.RotateLeft64(e, -41)) +
				((e & f) ^ (^e & g)) + rounds.K[i] + w[i]
			t2 := (bits.RotateLeft64(a, -28) ^ bits.RotateLeft64(a, -34) ^ bits.RotateLeft64(a, -39)) +
				((a & b) ^ (a & c) ^ (b & c))
			h, g, f, e, d, c, b, a = g, f, e, d+t1, c, b, a, t1+t2
		}
		s[0] += a
		s[1] += b
		s[2] += c
		s[3] += d
		s[4] += e
		s[5] += f
		s[6] += g
		s[7] += h
		p = p[BlockSize:]
	}
}
