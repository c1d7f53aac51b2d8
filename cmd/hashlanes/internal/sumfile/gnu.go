package sumfile

import (
	"encoding/base64"
	"strconv"
	"strings"

	"github.com/hashlanes/hashlanes/cmd/hashlanes/internal/method"
)

// GNULines is the state of b2sum's and cksum's --check (coreutils 9.10's
// split_3): the algorithm lines are read by, which for cksum without -a
// is the latest tag read, and stays for the next line and list.
type GNULines struct {
	Cksum     bool // cksum; else b2sum
	Specified bool // cksum -a
	Alg       int  // index in cksumAlgs
	// NoBase64 reads as coreutils before 9.2 did, without base64
	// digests: the tests compare with such a release.
	NoBase64 bool
}

// warnTag names the algorithm in "improperly formatted ... checksum line".
func (g *GNULines) warnTag() string { return method.CksumAlgs[g.Alg].Tag }

// minLine is the shortest untagged line b2sum and cksum read: a byte of
// digest (-l 8), a blank and a name.
const minLine = 3

// parseGNU parses a line as b2sum -c and cksum -c do.
func (p *Parser) parseGNU(line string) (Line, bool) {
	g := p.GNU
	i, escaped := lineStart(line)
	if g.Cksum && (!g.Specified || g.Alg == method.CksumSHA2) {
		t := method.CksumTagAt(line[i:])
		switch {
		case !g.Specified && t < 0:
			return Line{}, false // without -a, tagged lines only
		case !g.Specified && t <= method.CksumCRC32B:
			return Line{}, false // those sums are not checked
		case !g.Specified:
			g.Alg = t
		case t == method.CksumSHA2 || method.CksumSHA224 <= t && t <= method.CksumSHA512:
			g.Alg = t
		}
	}

	bits := method.CksumAlgs[g.Alg].Bits
	if tag := method.CksumAlgs[g.Alg].Tag; strings.HasPrefix(line[i:], tag) {
		j := i + len(tag)
		tagBits := bits
		ok := true
		if j < len(line) && line[j] == '-' {
			n, k, valid := leadingNumber(line[j+1:])
			switch {
			case !valid:
				ok = false
			case g.Alg == method.CksumSHA2 || g.Alg == method.CksumSHA3:
				ok = method.SHALength(n)
			default:
				ok = 0 < n && n <= uint64(bits) && n%8 == 0
			}
			if !ok {
				return Line{}, false
			}
			j += 1 + k
			tagBits = int(n)
		}
		if j < len(line) && line[j] == ' ' {
			j++
		}
		if j < len(line) && line[j] == '(' {
			return p.gnuTagged(line[j+1:], escaped, tagBits)
		}
		// Not tagged after all: cksum --base64 --untagged digests can
		// start like a tag.
	}

	if len(line)-i < minLine+boolInt(i < len(line) && line[i] == '\\') {
		return Line{}, false
	}
	rest := line[i:]
	if !g.Cksum || method.AutoLength(g.Alg) {
		var ok bool
		if bits, ok = g.digestBits(rest); !ok {
			return Line{}, false
		}
	}
	end := 0
	for end < len(rest) && !isWhite(rest[end]) {
		end++
	}
	if end == len(rest) {
		return Line{}, false // the digest must be followed by a blank
	}
	cl, ok := g.digest(rest[:end], bits)
	if !ok {
		return Line{}, false
	}
	if cl.Name, ok = p.untaggedName(rest, end+1, escaped); !ok {
		return Line{}, false
	}
	return cl, true
}

// digestBits reads the digest length from an untagged line's digest: its
// hex digits, or for cksum the length its base64 form would have.
func (g *GNULines) digestBits(s string) (int, bool) {
	hexLen := 0
	for hexLen < len(s) && isHex(s[hexLen]) {
		hexLen++
	}
	if g.Cksum && !g.NoBase64 {
		b64 := hexLen
		for b64 < len(s) && isBase64(s[b64]) {
			b64++
		}
		pad := 0
		for b64+pad < len(s) && s[b64+pad] == '=' {
			pad++
		}
		switch {
		case (g.Alg == method.CksumSHA2 || g.Alg == method.CksumSHA3) && !method.SHALength(uint64(hexLen*4)):
			hexLen = 0
			for _, bits := range []int{224, 256, 384, 512} {
				if b64+pad == base64.StdEncoding.EncodedLen(bits/8) {
					hexLen = bits / 4
				}
			}
			if hexLen == 0 {
				return 0, false
			}
		case g.Alg == method.CksumBLAKE2b && hexLen < b64:
			for bits := 8; bits <= 512; bits += 8 {
				if base64.StdEncoding.EncodedLen(bits/8) == b64+pad && bits%3 == pad {
					hexLen = bits / 4
					break
				}
			}
		}
	}
	if hexLen < 2 || hexLen%2 != 0 || hexLen > 128 {
		return 0, false
	}
	return hexLen * 4, true
}

// gnuTagged parses what follows "TAG (" or "TAG-N (": the name up to the
// line's last ')', " = " and the digest.
func (p *Parser) gnuTagged(s string, escaped bool, bits int) (Line, bool) {
	name, d, ok := taggedTail(s, escaped)
	if !ok {
		return Line{}, false
	}
	cl, ok := p.GNU.digest(d, bits)
	if !ok {
		return Line{}, false
	}
	cl.Name = name
	return cl, true
}

// digest reads a digest of bits in hex, or for cksum in base64 (tried
// first, as cksum does, where both forms could have that length).
func (g *GNULines) digest(d string, bits int) (Line, bool) {
	var m *method.Method
	if g.Cksum {
		m = method.Cksum(g.Alg, bits)
	} else {
		m = method.BLAKE2bBits(bits)
	}
	if m == nil {
		return Line{}, false
	}
	cl := Line{Alg: m, Bytes: bits / 8}
	if g.Cksum && m.Style == method.DigestLine {
		cl.Bytes = min(bits/8, m.Size)
	}
	if g.Cksum && !g.NoBase64 && len(d) == base64.StdEncoding.EncodedLen(bits/8) {
		pad := bits % 3
		for k := range len(d) {
			if k < len(d)-pad && !isBase64(d[k]) || k >= len(d)-pad && d[k] != '=' {
				return Line{}, false
			}
		}
		cl.Hex, cl.Base64 = d, true
		return cl, true
	}
	h, ok := hexDigits(d, bits/4)
	if !ok {
		return Line{}, false
	}
	cl.Hex = h
	return cl, true
}

func isHex(c byte) bool {
	return '0' <= c && c <= '9' || 'a' <= c && c <= 'f' || 'A' <= c && c <= 'F'
}

func isBase64(c byte) bool {
	return 'A' <= c && c <= 'Z' || 'a' <= c && c <= 'z' || '0' <= c && c <= '9' || c == '+' || c == '/'
}

// leadingNumber reads the number at the start of s as strtoumax with base
// 0 would (0x for hex, a leading 0 for octal): its value, its length, and
// whether there was one that fits.
func leadingNumber(s string) (uint64, int, bool) {
	k := 0
	for k < len(s) && strings.IndexByte(" \t\n\v\f\r", s[k]) >= 0 {
		k++
	}
	if k < len(s) && s[k] == '+' {
		k++
	}
	base := 10
	switch r := s[k:]; {
	case strings.HasPrefix(r, "0x") || strings.HasPrefix(r, "0X"):
		if len(r) > 2 && isHex(r[2]) {
			base, k = 16, k+2
		}
	case strings.HasPrefix(r, "0"):
		base = 8
	}
	start := k
	for k < len(s) && digitIn(s[k], base) {
		k++
	}
	if k == start {
		return 0, 0, false
	}
	n, err := strconv.ParseUint(s[start:k], base, 64)
	return n, k, err == nil
}

func digitIn(c byte, base int) bool {
	switch base {
	case 8:
		return '0' <= c && c <= '7'
	case 16:
		return isHex(c)
	}
	return '0' <= c && c <= '9'
}
