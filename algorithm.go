package hashlanes

import (
	"fmt"
	"strings"
)

// Algorithm names a hash function.
type Algorithm int

const (
	MD5 Algorithm = iota + 1
	SHA1
	SHA224
	SHA256
	SHA384
	SHA512
	SHA512_224
	SHA512_256
	// The algorithms below are served by their reference libraries (the
	// standard library's crypto/sha3, golang.org/x/crypto's BLAKE2,
	// lukechampine.com/blake3), not by lanes: the checksum command and the
	// benchmarks offer them beside the others.
	SHA3_224
	SHA3_256
	SHA3_384
	SHA3_512
	BLAKE2b // BLAKE2b-512, as b2sum
	BLAKE2s // BLAKE2s-256
	BLAKE3  // 256-bit output
	maxAlgorithm
)

var algorithmInfo = [maxAlgorithm]struct {
	name            string
	size, blockSize int
}{
	MD5:        {"md5", 16, 64},
	SHA1:       {"sha1", 20, 64},
	SHA224:     {"sha224", 28, 64},
	SHA256:     {"sha256", 32, 64},
	SHA384:     {"sha384", 48, 128},
	SHA512:     {"sha512", 64, 128},
	SHA512_224: {"sha512-224", 28, 128},
	SHA512_256: {"sha512-256", 32, 128},
	SHA3_224:   {"sha3-224", 28, 144},
	SHA3_256:   {"sha3-256", 32, 136},
	SHA3_384:   {"sha3-384", 48, 104},
	SHA3_512:   {"sha3-512", 64, 72},
	BLAKE2b:    {"blake2b", 64, 128},
	BLAKE2s:    {"blake2s", 32, 64},
	BLAKE3:     {"blake3", 32, 64},
}

// Algorithms lists every algorithm, in the order of the constants.
func Algorithms() []Algorithm {
	all := make([]Algorithm, 0, maxAlgorithm-1)
	for a := MD5; a < maxAlgorithm; a++ {
		all = append(all, a)
	}
	return all
}

func (a Algorithm) valid() bool { return a >= MD5 && a < maxAlgorithm }

// String returns the algorithm's name as ParseAlgorithm accepts it: "md5",
// "sha256", "sha512-256".
func (a Algorithm) String() string {
	if !a.valid() {
		return fmt.Sprintf("Algorithm(%d)", int(a))
	}
	return algorithmInfo[a].name
}

// Size returns the digest length in bytes.
func (a Algorithm) Size() int { return a.mustInfo().size }

// BlockSize returns the block length in bytes.
func (a Algorithm) BlockSize() int { return a.mustInfo().blockSize }

func (a Algorithm) mustInfo() struct {
	name            string
	size, blockSize int
} {
	if !a.valid() {
		panic(fmt.Sprintf("hashlanes: unknown algorithm %d", int(a)))
	}
	return algorithmInfo[a]
}

// ParseAlgorithm returns the algorithm with the given name. Case and the
// punctuation people write ("SHA-256", "sha512/256", "sha512_256") do not
// matter.
func ParseAlgorithm(name string) (Algorithm, error) {
	n := strings.ToLower(name)
	n = strings.NewReplacer("_", "-", "/", "-").Replace(n)
	if strings.HasPrefix(n, "sha-") {
		n = "sha" + n[len("sha-"):]
	}
	switch n {
	case "blake2b-512", "b2":
		return BLAKE2b, nil
	case "blake2s-256":
		return BLAKE2s, nil
	}
	for a := MD5; a < maxAlgorithm; a++ {
		if algorithmInfo[a].name == n {
			return a, nil
		}
	}
	return 0, fmt.Errorf("hashlanes: unknown algorithm %q", name)
}
