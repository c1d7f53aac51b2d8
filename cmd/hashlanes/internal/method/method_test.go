package method

import (
	"testing"

	"github.com/hashlanes/hashlanes"
)

// TestTags pins the tags sum writes and check reads to the names the
// coreutils and OpenSSL write.
func TestTags(t *testing.T) {
	want := map[hashlanes.Algorithm]string{
		hashlanes.MD5: "MD5", hashlanes.SHA1: "SHA1", hashlanes.SHA224: "SHA224", hashlanes.SHA256: "SHA256",
		hashlanes.SHA384: "SHA384", hashlanes.SHA512: "SHA512", hashlanes.SHA512_224: "SHA512-224",
		hashlanes.SHA512_256: "SHA512-256", hashlanes.SHA3_224: "SHA3-224", hashlanes.SHA3_256: "SHA3-256",
		hashlanes.SHA3_384: "SHA3-384", hashlanes.SHA3_512: "SHA3-512", hashlanes.BLAKE2b: "BLAKE2b",
		hashlanes.BLAKE2s: "BLAKE2s", hashlanes.BLAKE3: "BLAKE3",
	}
	for _, a := range hashlanes.Algorithms() {
		if got := TagOf(a); got != want[a] {
			t.Errorf("tag(%v) = %q, want %q", a, got, want[a])
		}
	}
}
