package sha1

import (
	"encoding/binary"
	"math/bits"
)

// blockGeneric is the reference single-stream block function (FIPS 180-4,
// 6.1.2); every other kernel is tested against it.
func blockGeneric(s *State, p []byte) {
	var w [80]uint32
	for len(p) >= BlockSize {
		for i := range 16 {
			w[i] = binary.BigEndian.Uint32(p[4*i:])
		}
		for i := 16; i < 80; i++ {
			w[i] = bits.RotateLeft32(w[i-3]^w[i-8]^w[i-14]^w[i-16], 1)
		}
		a, b, c, d, e := s[0], s[1], s[2], s[3], s[4]
		for i := range 80 {
			var f, k uint32
			switch i / 20 {
			case 0:
				f, k = (b&c)|(^b&d), 0x5a827999
			case 1:
				f, k = b^c^d, 0x6ed9eba1
			case 2:
				f, k = (b&c)|(b&d)|(c&d), 0x8f1bbcdc
			case 3:
				f, k = b^c^d, 0xca62c1d6
			}
			a, b, c, d, e = bits.RotateLeft32(a, 5)+f+e+k+w[i], a, bits.RotateLeft32(b, 30), c, d
		}
		s[0] += a
		s[1] += b
		s[2] += c
		s[3] += d
		s[4] += e
		p = p[BlockSize:]
	}
}
