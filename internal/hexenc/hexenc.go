// Package hexenc writes lower-case hex in place: the n bytes at the end
// of a 2n-byte buffer become its hex, so that a batch of digests can be
// hashed straight into the buffer its keys go to. encoding/hex takes
// about a nanosecond a byte, as long as hashing a short message in lanes
// takes; the AVX2 loop takes a few hundredths.
package hexenc

const digits = "0123456789abcdef"

// Expand writes the lower-case hex of buf[len(buf)/2:] to buf, in place.
// len(buf) must be even.
func Expand(buf []byte) { expand(buf, useAVX2) }

// expand is Expand with the AVX2 loop on or off.
func expand(buf []byte, avx2 bool) {
	n := len(buf) / 2
	done := 0
	if avx2 && n >= 16 {
		done = n &^ 15
		expandAVX2(&buf[0], &buf[n], done)
		// The rest is still where it was, past the 2*done bytes written.
	}
	expandGeneric(buf, done)
}

// expandGeneric encodes bytes from.. of buf[n:] into buf[2i:2i+2],
// forward: byte n+i is read before buf[2i+1] <= n+i is written.
func expandGeneric(buf []byte, from int) {
	n := len(buf) / 2
	src, dst := buf[n:2*n], buf[:2*n]
	for i := from; i < len(src); i++ {
		v := src[i]
		d := dst[2*i : 2*i+2 : 2*i+2]
		d[0], d[1] = digits[v>>4], digits[v&15]
	}
}
