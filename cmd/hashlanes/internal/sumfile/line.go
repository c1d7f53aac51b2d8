// Package sumfile reads and writes the lines of checksum lists: GNU's
// untagged and BSD-tagged forms with their escaped names, OpenSSL's tags,
// b2sum's and cksum's lengths and base64 digests, the lists of hashdeep,
// md5deep, rhash and SFV, and b3sum's checkfiles.
package sumfile

import (
	"bytes"
	"encoding/base64"
	"encoding/hex"
	"slices"
	"strings"

	"github.com/hashlanes/hashlanes"
	"github.com/hashlanes/hashlanes/cmd/hashlanes/internal/method"
)

// Line is a parsed line of a checksum list.
type Line struct {
	Alg     *method.Method
	Hex     string // the digest as the line has it: hex in lower case, or base64
	Name    string
	Guessed bool // untagged, its algorithm taken from the digest's length
	Base64  bool // cksum --base64's digest
	Bytes   int  // the digest's bytes compared: the method's size, but for a length tag shorter than it (GNU's "MD5-64")
	// Lists of other tools (toollists.go) give several digests a line,
	// the first of them alg and hex, and hashdeep's the size too.
	Digests []Digest
	Size    int64
	Sized   bool
}

// Matches reports whether sum is the line's digest.
func (l Line) Matches(sum []byte) bool {
	n := l.Bytes
	if n == 0 || n > len(sum) {
		n = len(sum)
	}
	if l.Base64 {
		return base64.StdEncoding.EncodeToString(sum[:n]) == l.Hex
	}
	return hex.EncodeToString(sum[:n]) == l.Hex
}

// Parser parses checksum lines the way GNU's --check does. It carries
// one piece of state across lines and files: once a list has used the
// two-space form ("hex  name"), the one-space form ("hex name") is refused,
// and the other way round, so that a renamed file with a leading space
// cannot pass.
type Parser struct {
	algs     []*method.Method // those the line may be in: one, or all (detection)
	reversed int              // -1 not yet known, 0 two-space form seen, 1 one-space form seen
	aliases  bool             // other tools' tags too (tagAliases, BLAKE2b-N, SM3)
	// GNU, for b2sum and cksum, parses as their --check does instead
	// (parseGNU); nil for the other tools.
	GNU *GNULines
	// hashdeep are the digest columns a hashdeep header named, for the
	// rest of its list; nil outside one.
	hashdeep []string
}

// NewParser parses lines of the fixed algorithms (all, if none);
// with aliases, it also reads the tags other tools write for them.
func NewParser(fixed []*method.Method, aliases bool) *Parser {
	algs := fixed
	if len(algs) == 0 {
		algs = method.OfEach(hashlanes.Algorithms()...)
	}
	return &Parser{algs: algs, reversed: -1, aliases: aliases}
}

// tagAliases are the tags other tools write for the algorithms, beside
// tags': OpenSSL 3's dgst ("SHA2-256(f)= ..."), and GNU's b2sum and cksum
// when they name the length ("BLAKE2b-512 (f) = ..."). The GNU drop-ins
// read only their own tag, as GNU's do.
var tagAliases = map[string]hashlanes.Algorithm{
	"SHA2-224":     hashlanes.SHA224,
	"SHA2-256":     hashlanes.SHA256,
	"SHA2-384":     hashlanes.SHA384,
	"SHA2-512":     hashlanes.SHA512,
	"SHA2-512/224": hashlanes.SHA512_224,
	"SHA2-512/256": hashlanes.SHA512_256,
	"BLAKE2B-512":  hashlanes.BLAKE2b,
	"BLAKE2S-256":  hashlanes.BLAKE2s,
	"BLAKE2b-512":  hashlanes.BLAKE2b,
	"BLAKE2s-256":  hashlanes.BLAKE2s,
}

func isWhite(c byte) bool { return c == ' ' || c == '\t' }

// cString cuts s at its first NUL, as C string functions would see it.
func cString(s string) string {
	if i := strings.IndexByte(s, 0); i >= 0 {
		return s[:i]
	}
	return s
}

// Parse returns the line's checksum and file name, or false if the line is
// not properly formatted. line has no trailing LF or CR.
func (p *Parser) Parse(line string) (Line, bool) {
	if p.GNU != nil {
		return p.parseGNU(line)
	}
	cl, ok := p.parseLine(line)
	if ok || !p.aliases || len(p.algs) == 1 {
		return cl, ok
	}
	if p.hashdeep != nil {
		return p.hashdeepLine(line)
	}
	for _, read := range toolLines {
		if cl, ok := read(line); ok {
			return cl, true
		}
	}
	return Line{}, false
}

// lineStart is where a checksum line's content starts, past leading
// blanks and the backslash that says its name is escaped.
func lineStart(line string) (i int, escaped bool) {
	for i < len(line) && isWhite(line[i]) {
		i++
	}
	if i < len(line) && line[i] == '\\' {
		return i + 1, true
	}
	return i, false
}

// parseLine parses the forms GNU's md5sum -c reads, and with aliases the
// tags of other tools.
func (p *Parser) parseLine(line string) (Line, bool) {
	i, escaped := lineStart(line)
	// Tagged: "TAG (name) = hex", or OpenSSL's "TAG(name)= hex".
	if a, n := p.tagAt(line[i:]); n > 0 {
		j := i + n
		if j < len(line) && line[j] == ' ' {
			j++
		}
		if j < len(line) && line[j] == '(' {
			return p.parseTagged(a, line[j+1:], escaped)
		}
		if len(p.algs) == 1 {
			return Line{}, false
		}
	}
	// Untagged: "hex  name", "hex *name", or "hex name".
	rest := line[i:]
	hexLen := 0
	for hexLen < len(rest) && !isWhite(rest[hexLen]) && rest[hexLen] != 0 {
		hexLen++
	}
	a, ok := p.algOfHexLen(hexLen)
	if !ok {
		return Line{}, false
	}
	n := 2 * a.Size
	if len(line)-i < n+2+boolInt(i < len(line) && line[i] == '\\') {
		return Line{}, false
	}
	if !isWhite(rest[n]) {
		return Line{}, false
	}
	digest, ok := hexDigits(rest[:n], n)
	if !ok {
		return Line{}, false
	}
	name, ok := p.untaggedName(rest, n+1, escaped)
	if !ok {
		return Line{}, false
	}
	return Line{Alg: a, Hex: digest, Name: name, Guessed: len(p.algs) > 1}, true
}

// untaggedName reads the name of an untagged line, rest[j:] after the
// digest and its blank: after a mode (' ' or '*'), or, BSD's reversed
// form, at once; a list keeps to the form it began with, so that a
// renamed file with a leading space cannot pass.
func (p *Parser) untaggedName(rest string, j int, escaped bool) (string, bool) {
	if len(rest)-j <= 1 || (rest[j] != ' ' && rest[j] != '*') {
		if p.reversed == 0 {
			return "", false
		}
		p.reversed = 1
	} else if p.reversed != 1 {
		p.reversed = 0
		j++
	}
	name := rest[j:]
	if escaped {
		var ok bool
		if name, ok = unescapeName(name); !ok {
			return "", false
		}
	}
	return cString(name), true
}

func boolInt(b bool) int {
	if b {
		return 1
	}
	return 0
}

// tagAt returns the algorithm whose tag starts s (the longest, so that
// "SHA512-256" is not read as "SHA512"), and the tag's length.
func (p *Parser) tagAt(s string) (*method.Method, int) {
	var best *method.Method
	n := 0
	for _, a := range p.algs {
		if t := a.Tag; len(t) > n && strings.HasPrefix(s, t) {
			best, n = a, len(t)
		}
	}
	if p.aliases {
		for t, a := range tagAliases {
			if m := method.Of(a); len(t) > n && strings.HasPrefix(s, t) && slices.Contains(p.algs, m) {
				best, n = m, len(t)
			}
		}
		// b2sum's and cksum's BLAKE2b of another length, and cksum's SM3.
		if m, k := blake2bTag(s); k > n {
			best, n = m, k
		}
		if m, ok := method.Named("sm3"); ok && n < 3 && strings.HasPrefix(s, "SM3") {
			best, n = m, 3
		}
	}
	return best, n
}

// blake2bTag reads "BLAKE2b-N" (or OpenSSL's "BLAKE2B-N") at the start of
// s: the method and the tag's length, or 0.
func blake2bTag(s string) (*method.Method, int) {
	for _, prefix := range []string{"BLAKE2b-", "BLAKE2B-"} {
		rest, ok := strings.CutPrefix(s, prefix)
		if !ok {
			continue
		}
		k := 0
		for k < len(rest) && '0' <= rest[k] && rest[k] <= '9' {
			k++
		}
		if m, ok := method.Named("blake2b-" + rest[:k]); ok && k > 0 {
			return m, len(prefix) + k
		}
	}
	return nil, 0
}

func (p *Parser) algOfHexLen(n int) (*method.Method, bool) {
	if len(p.algs) == 1 {
		// The fixed algorithm decides the length; the caller checks what
		// follows.
		return p.algs[0], true
	}
	// Detection: the usual algorithm of each digest length.
	for _, a := range []hashlanes.Algorithm{hashlanes.MD5, hashlanes.SHA1, hashlanes.SHA224, hashlanes.SHA256, hashlanes.SHA384, hashlanes.SHA512} {
		if 2*a.Size() == n {
			return method.Of(a), true
		}
	}
	return nil, false
}

// parseTagged parses what follows "TAG (": "name) = hex", the name ending
// at the line's last ')'.
func (p *Parser) parseTagged(a *method.Method, s string, escaped bool) (Line, bool) {
	if s == "" {
		return Line{}, false
	}
	name, d, ok := taggedTail(s, escaped)
	if !ok {
		return Line{}, false
	}
	digest, ok := hexDigits(d, 2*a.Size)
	if !ok {
		return Line{}, false
	}
	return Line{Alg: a, Hex: digest, Name: name}, true
}

// taggedTail splits what follows "TAG (" in GNU's reading (bsd_split_3):
// the name, up to the line's last ')' (unescaped if the line began with a
// backslash), then blanks, '=', blanks and the digest, each cut at a NUL
// as C sees them.
func taggedTail(s string, escaped bool) (name, digest string, ok bool) {
	end := strings.LastIndexByte(s, ')')
	if end < 0 {
		return "", "", false
	}
	name = s[:end]
	if escaped {
		if name, ok = unescapeName(name); !ok {
			return "", "", false
		}
	}
	i := end + 1
	for i < len(s) && isWhite(s[i]) {
		i++
	}
	if i == len(s) || s[i] != '=' {
		return "", "", false
	}
	i++
	for i < len(s) && isWhite(s[i]) {
		i++
	}
	return cString(name), cString(s[i:]), true
}

// hexDigits accepts exactly n hex digits of either case.
func hexDigits(s string, n int) (string, bool) {
	if len(s) != n {
		return "", false
	}
	for i := range n {
		if !isHex(s[i]) {
			return "", false
		}
	}
	return strings.ToLower(s), true
}

// unescapeName undoes the escaping of names in checksum lines: only \\,
// \n and \r are valid, a NUL is not, and a trailing lone backslash is not.
func unescapeName(s string) (string, bool) {
	var b strings.Builder
	for i := 0; i < len(s); i++ {
		switch s[i] {
		case '\\':
			if i == len(s)-1 {
				return "", false
			}
			i++
			switch s[i] {
			case 'n':
				b.WriteByte('\n')
			case 'r':
				b.WriteByte('\r')
			case '\\':
				b.WriteByte('\\')
			default:
				return "", false
			}
		case 0:
			return "", false
		default:
			b.WriteByte(s[i])
		}
	}
	return b.String(), true
}

// Entry is one line of a list as parsed: its number, and the line, or
// for a malformed one the algorithm "improperly formatted ... line" names
// as it stood then.
type Entry struct {
	Number    int // 1-based
	Malformed bool
	ListTag   string
	Line
}

// List parses a checksum list's lines, past comments, blank lines and
// headers. A list read from standard input cannot list "-".
func (p *Parser) List(data []byte, fromStdin bool) []Entry {
	var entries []Entry
	p.hashdeep = nil // a header holds for the rest of its own list
	for n := 1; len(data) > 0; n++ {
		raw, rest, _ := bytes.Cut(data, []byte{'\n'})
		data = rest
		if len(raw) > 0 && (raw[0] == '#' || raw[0] == ';' && p.aliases && p.GNU == nil) {
			continue // a comment; ';' starts those of SFV lists
		}
		line := strings.TrimSuffix(string(raw), "\r")
		if line == "" || p.header(line) {
			continue
		}
		cl, ok := p.Parse(line)
		if ok && fromStdin && cl.Name == "-" {
			ok = false
		}
		e := Entry{Number: n, Malformed: !ok, Line: cl}
		if !ok {
			e.ListTag = p.ListTag()
		}
		entries = append(entries, e)
	}
	return entries
}

// ListTag names the algorithm in "improperly formatted MD5 checksum line":
// the one lines are read by, where it is one (b2sum and cksum name the
// one they read by at that line, as they do), else nothing.
func (p *Parser) ListTag() string {
	if p.GNU != nil {
		return p.GNU.warnTag() + " "
	}
	if len(p.algs) == 1 {
		return p.algs[0].Tag + " "
	}
	return ""
}
