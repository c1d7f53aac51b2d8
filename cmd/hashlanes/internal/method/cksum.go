package method

import (
	"strconv"
	"strings"
)

// CksumAlg is one of cksum -a's algorithms, in GNU's order (which
// decides what a tag reads as, and lists the valid arguments).
type CksumAlg struct {
	Arg, Tag string
	Bits     int // the digest's default length
}

var CksumAlgs = []CksumAlg{
	{"bsd", "BSD", 16}, {"sysv", "SYSV", 16}, {"crc", "CRC", 32}, {"crc32b", "CRC32B", 32},
	{"md5", "MD5", 128}, {"sha1", "SHA1", 160},
	{"sha224", "SHA224", 224}, {"sha256", "SHA256", 256}, {"sha384", "SHA384", 384}, {"sha512", "SHA512", 512},
	{"sha2", "SHA2", 512}, {"sha3", "SHA3", 512}, {"blake2b", "BLAKE2b", 512}, {"sm3", "SM3", 256},
}

// Indexes of cksumAlgs that the rules name.
const (
	CksumCRC32B  = 3
	CksumSHA224  = 6
	CksumSHA512  = 9
	CksumSHA2    = 10
	CksumSHA3    = 11
	CksumBLAKE2b = 12
)

func CksumIndex(arg string) int {
	for i, a := range CksumAlgs {
		if a.Arg == arg {
			return i
		}
	}
	return -1
}

// AutoLength: the algorithm's digest length is read from the line.
func AutoLength(alg int) bool { return alg == CksumBLAKE2b || alg == CksumSHA2 || alg == CksumSHA3 }

// SHALength: a length sha2 and sha3 take.
func SHALength(bits uint64) bool { return bits == 224 || bits == 256 || bits == 384 || bits == 512 }

// Cksum is the method of cksum algorithm alg with a digest of bits.
func Cksum(alg, bits int) *Method {
	var m *Method
	switch alg {
	case CksumSHA2:
		m, _ = Named("sha" + strconv.Itoa(bits))
	case CksumSHA3:
		m, _ = Named("sha3-" + strconv.Itoa(bits))
	case CksumBLAKE2b:
		m = BLAKE2bBits(bits)
	default:
		m, _ = Named(CksumAlgs[alg].Arg)
	}
	return m
}

// CksumTagAt is cksum's algorithm whose tag is the word at the start of s (up
// to a blank, '-', '(' or a NUL, where GNU's C string ends), or -1.
func CksumTagAt(s string) int {
	end := strings.IndexAny(s, " \t-(\x00")
	if end < 0 {
		end = len(s)
	}
	for i, a := range CksumAlgs {
		if a.Tag == s[:end] {
			return i
		}
	}
	return -1
}
