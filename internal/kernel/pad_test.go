package kernel

import (
	"bytes"
	"testing"
)

// TestEndMessage: at every length and every end of message, the message's
// bytes stay, the 0x80 follows them and everything after is zero, however
// dirty the buffer was.
func TestEndMessage(t *testing.T) {
	for size := 8; size <= 128; size += 8 {
		for k := range size {
			buf := bytes.Repeat([]byte{0xa5}, size)
			for i := range k {
				buf[i] = byte(i + 1)
			}
			EndMessage(buf, k)
			want := make([]byte, size)
			for i := range k {
				want[i] = byte(i + 1)
			}
			want[k] = 0x80
			if !bytes.Equal(buf, want) {
				t.Fatalf("len %d, k %d: % x, want % x", size, k, buf, want)
			}
		}
	}
}
