package sumfile

import (
	"cmp"
	"hash"
	"hash/crc32"
	"math"
	"slices"
	"strconv"
	"strings"
	"sync"

	"github.com/hashlanes/hashlanes/cmd/hashlanes/internal/method"
	"golang.org/x/crypto/md4"
	"golang.org/x/crypto/ripemd160"
)

// The lists of the tools people switch from, beside GNU's forms (line.go, gnu.go):
// hashdeep's known files, md5deep's lines with sizes, rhash's lines of
// several digests, and SFV. hashlanes check and --audit read them; the
// GNU drop-ins read only what GNU's tools do.

// toolLines read the lines of other tools' lists that need no header, in
// the order they are tried on a line GNU's forms did not read; a new
// format is a reader here.
var toolLines = []func(string) (Line, bool){rhashLine, md5deepSizedLine, sfvLine}

// Digest is one digest a line gives for its file, where a line gives
// several (hashdeep, rhash): it holds when one of algs computes it, and
// is read and not verified when algs is empty (Tiger, GOST, ...). A
// hashdeep column names its algorithm; an rhash column is known only by
// its place among rhash's algorithms, which may leave a choice.
type Digest struct {
	Algs []*method.Method
	Hex  string
}

// Methods are every method that computes some digest of the line.
func (l Line) Methods() []*method.Method {
	if len(l.Digests) == 0 {
		return []*method.Method{l.Alg}
	}
	var ms []*method.Method
	for _, d := range l.Digests {
		for _, m := range d.Algs {
			if !slices.Contains(ms, m) {
				ms = append(ms, m)
			}
		}
	}
	return ms
}

// Verify reports whether a file of size bytes whose digests are sumOf's
// is the one the line lists: every digest, and the size where the line
// gives one.
func (l Line) Verify(sumOf func(*method.Method) []byte, size int64) bool {
	if l.Sized && size != l.Size {
		return false
	}
	if len(l.Digests) == 0 {
		return l.Matches(sumOf(l.Alg))
	}
	for _, d := range l.Digests {
		if len(d.Algs) > 0 && !slices.ContainsFunc(d.Algs, func(m *method.Method) bool { return method.Hex(sumOf(m)) == d.Hex }) {
			return false
		}
	}
	return true
}

// withDigests makes a line of several digests: the first one verified is
// its alg and hex, as messages and the audit's moved files name it; false
// if none is.
func withDigests(name string, ds []Digest) (Line, bool) {
	for _, d := range ds {
		if len(d.Algs) > 0 {
			return Line{Alg: d.Algs[0], Hex: d.Hex, Name: name, Digests: ds}, true
		}
	}
	return Line{}, false
}

// header reads a list's header line, hashdeep's "%%%% HASHDEEP-1.0" and
// "%%%% size,md5,sha256,filename", and reports whether line was one.
func (p *Parser) header(line string) bool {
	rest, ok := strings.CutPrefix(line, "%%%% ")
	if !ok || !p.aliases || p.GNU != nil {
		return false
	}
	if rest == "HASHDEEP-1.0" {
		p.hashdeep = nil
		return true
	}
	cols := strings.Split(rest, ",")
	if len(cols) < 3 || cols[0] != "size" || cols[len(cols)-1] != "filename" {
		return false
	}
	p.hashdeep = cols[1 : len(cols)-1]
	return true
}

// hashdeepAlgs are hashdeep's column names of the algorithms hashlanes
// computes; its tiger and whirlpool columns are read and not verified.
var hashdeepAlgs = map[string]string{"md5": "md5", "sha1": "sha1", "sha256": "sha256"}

// hashdeepDigitsOf are the hex digits of each of hashdeep's columns.
var hashdeepDigitsOf = map[string]int{"md5": 32, "sha1": 40, "sha256": 64, "tiger": 48, "whirlpool": 128}

// hashdeepLine reads a known-file line of hashdeep, under the header that
// named its columns: "SIZE,HEX,...,NAME", the name as hashdeep recorded
// it (absolute, or relative with -l) and free to hold commas.
func (p *Parser) hashdeepLine(line string) (Line, bool) {
	fields := strings.SplitN(line, ",", len(p.hashdeep)+2)
	if len(fields) != len(p.hashdeep)+2 || fields[len(fields)-1] == "" || strings.IndexByte(line, 0) >= 0 {
		return Line{}, false
	}
	size, err := strconv.ParseInt(fields[0], 10, 64)
	if err != nil || size < 0 {
		return Line{}, false
	}
	var ds []Digest
	for i, col := range p.hashdeep {
		d, ok := hexDigits(fields[i+1], hashdeepDigitsOf[col])
		if !ok {
			return Line{}, false
		}
		var algs []*method.Method
		if m, known := method.Named(hashdeepAlgs[col]); known {
			algs = []*method.Method{m}
		}
		ds = append(ds, Digest{algs, d})
	}
	l, ok := withDigests(fields[len(fields)-1], ds) // not ok: Tiger or Whirlpool alone
	l.Size, l.Sized = size, ok
	return l, ok
}

// md5deepSizedLine reads a line of md5deep -z (and sha1deep, sha256deep):
// the size right-aligned in ten, two spaces, the digest, two spaces, the
// name.
func md5deepSizedLine(line string) (Line, bool) {
	s := strings.TrimLeft(line, " ")
	sizeText, rest, ok := strings.Cut(s, "  ")
	if !ok {
		return Line{}, false
	}
	size, err := strconv.ParseInt(sizeText, 10, 64)
	if err != nil || size < 0 {
		return Line{}, false
	}
	digest, name, ok := strings.Cut(rest, "  ")
	alg := map[int]string{32: "md5", 40: "sha1", 64: "sha256"}[len(digest)]
	m, known := method.Named(alg)
	d, isHex := hexDigits(digest, len(digest))
	if !ok || !known || !isHex || name == "" || strings.IndexByte(name, 0) >= 0 {
		return Line{}, false
	}
	l := Line{Alg: m, Hex: d, Name: name, Size: size, Sized: true}
	return l, true
}

// rhashColumn is one of rhash's algorithms, in the order rhash prints
// them whatever the order of its options (rhash --list-hashes): the
// digest's form, and the method that computes it where hashlanes has one.
type rhashColumn struct {
	digits int  // hex digits, or base32 characters
	base32 bool // TTH and AICH
	method string
}

var rhashColumns = []rhashColumn{
	{8, false, "crc32b"}, {32, false, "md4"}, {32, false, "md5"}, {40, false, "sha1"},
	{48, false, ""}, {39, true, ""}, {40, false, ""}, {32, false, ""}, // Tiger, TTH, BTIH, ED2K
	{32, true, ""}, {128, false, ""}, {40, false, "ripemd160"}, // AICH, Whirlpool
	{64, false, ""}, {64, false, ""}, {40, false, ""}, {64, false, ""}, {128, false, ""}, // GOST94 (2), HAS-160, GOST12 (2)
	{56, false, "sha224"}, {64, false, "sha256"}, {96, false, "sha384"}, {128, false, "sha512"},
	{64, false, ""}, {128, false, ""}, // EDON-R
	{56, false, "sha3-224"}, {64, false, "sha3-256"}, {96, false, "sha3-384"}, {128, false, "sha3-512"},
	{8, false, "crc32c"}, {32, false, ""}, {64, false, ""}, // CRC32C, Snefru
	{64, false, "blake2s"}, {128, false, "blake2b"},
}

// fits reports whether s has the form of the column's digests.
func (c rhashColumn) fits(s string) bool {
	if len(s) != c.digits {
		return false
	}
	for i := range len(s) {
		if b := s[i]; !(c.base32 && ('a' <= b && b <= 'z' || '2' <= b && b <= '7') || !c.base32 && isHex(b)) {
			return false
		}
	}
	return true
}

// rhashLine reads a line of rhash with several algorithms ("rhash --md5
// --sha256", "rhash -a"): the name, then two spaces before each digest.
// Each digest's algorithm is what its place allows among rhash's columns,
// by form and order; a digest none of whose possible algorithms hashlanes
// computes (Tiger, GOST, ...) is not verified.
func rhashLine(line string) (Line, bool) {
	var tokens []string
	rest := line
	for {
		i := strings.LastIndex(rest, "  ")
		if i <= 0 || !slices.ContainsFunc(rhashColumns, func(c rhashColumn) bool { return c.fits(strings.ToLower(rest[i+2:])) }) {
			break
		}
		tokens = append(tokens, strings.ToLower(rest[i+2:]))
		rest = rest[:i]
	}
	if len(tokens) < 2 || strings.IndexByte(rest, 0) >= 0 {
		return Line{}, false
	}
	slices.Reverse(tokens)
	places := rhashPlaces(tokens)
	if places == nil {
		return Line{}, false
	}
	var ds []Digest
	for i, t := range tokens {
		var algs []*method.Method
		for _, col := range places[i] {
			if m, ok := rhashMethod(rhashColumns[col].method); ok && !slices.Contains(algs, m) {
				algs = append(algs, m)
			}
		}
		// The library's algorithms first, in its order (MD5 before
		// MD4, SHA-256 before SHA3-256): the first is the one messages
		// name, and the likelier.
		slices.SortStableFunc(algs, func(a, b *method.Method) int { return cmp.Compare(algOrder(a), algOrder(b)) })
		ds = append(ds, Digest{algs, t})
	}
	return withDigests(rest, ds)
}

// algOrder ranks a method for rhashLine: the library's algorithms in
// their order, then the others.
func algOrder(m *method.Method) int {
	if m.Alg != 0 {
		return int(m.Alg)
	}
	return math.MaxInt
}

// rhashPlaces returns, for each token, every column it can stand in: one
// of its form, after a column the tokens before it can fill in order and
// before one the tokens after it can; nil if the tokens fit no columns.
func rhashPlaces(tokens []string) [][]int {
	n, cols := len(tokens), len(rhashColumns)
	// first[i]: the earliest column token i can take with tokens 0..i-1
	// before it; last[i]: the latest with tokens i+1.. after it.
	first, last := make([]int, n), make([]int, n)
	prev := -1
	for i, t := range tokens {
		c := prev + 1
		for c < cols && !rhashColumns[c].fits(t) {
			c++
		}
		if c == cols {
			return nil
		}
		first[i], prev = c, c
	}
	next := cols
	for i := n - 1; i >= 0; i-- {
		c := next - 1
		for c >= 0 && !rhashColumns[c].fits(tokens[i]) {
			c--
		}
		last[i], next = c, c
	}
	places := make([][]int, n)
	for i, t := range tokens {
		for c := first[i]; c <= last[i]; c++ {
			if rhashColumns[c].fits(t) {
				places[i] = append(places[i], c)
			}
		}
	}
	return places
}

// rhashMethod is the method of an rhash column: the command's own, or
// MD4, RIPEMD-160 and CRC-32C, which only rhash lists name.
func rhashMethod(name string) (*method.Method, bool) {
	if m, ok := rhashOnly()[name]; ok {
		return m, true
	}
	if name == "" {
		return nil, false
	}
	return method.Named(name)
}

var rhashOnly = sync.OnceValue(func() map[string]*method.Method {
	return map[string]*method.Method{
		"md4":       {Name: "md4", Tag: "MD4", Size: md4.Size, NewHash: md4.New},
		"ripemd160": {Name: "ripemd160", Tag: "RIPEMD-160", Size: ripemd160.Size, NewHash: ripemd160.New},
		"crc32c": {Name: "crc32c", Tag: "CRC32C", Size: 4, NewHash: func() hash.Hash {
			return crc32.New(crc32.MakeTable(crc32.Castagnoli))
		}},
	}
})

// sfvLine reads a line of an SFV list, rhash's default output: the name,
// a space and the CRC-32 (cksum -a crc32b) in hex.
func sfvLine(line string) (Line, bool) {
	sp := strings.LastIndexByte(line, ' ')
	if sp <= 0 {
		return Line{}, false
	}
	d, ok := hexDigits(line[sp+1:], 8)
	m, _ := method.Named("crc32b")
	if !ok || strings.IndexByte(line[:sp], 0) >= 0 {
		return Line{}, false
	}
	return Line{Alg: m, Hex: d, Name: line[:sp]}, true
}
