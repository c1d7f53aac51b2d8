package main

import (
	"bytes"
	"encoding/base64"
	"encoding/hex"
	"errors"
	"io"
	"maps"
	"os"
	"slices"
	"strings"

	"github.com/hashlanes/hashlanes"
	"github.com/hashlanes/hashlanes/cmd/hashlanes/internal/method"
)

// checkLine is a parsed line of a checksum list.
type checkLine struct {
	alg     *method.Method
	hex     string // the digest as the line has it: hex in lower case, or base64
	name    string
	guessed bool // untagged, its algorithm taken from the digest's length
	base64  bool // cksum --base64's digest
	bytes   int  // the digest's bytes compared: the method's size, but for a length tag shorter than it (GNU's "MD5-64")
	// Lists of other tools (toollists.go) give several digests a line,
	// the first of them alg and hex, and hashdeep's the size too.
	digests []lineDigest
	size    int64
	sized   bool
}

// matches reports whether sum is the line's digest.
func (l checkLine) matches(sum []byte) bool {
	n := l.bytes
	if n == 0 || n > len(sum) {
		n = len(sum)
	}
	if l.base64 {
		return base64.StdEncoding.EncodeToString(sum[:n]) == l.hex
	}
	return hex.EncodeToString(sum[:n]) == l.hex
}

// lineParser parses checksum lines the way GNU's --check does. It carries
// one piece of state across lines and files: once a list has used the
// two-space form ("hex  name"), the one-space form ("hex name") is refused,
// and the other way round, so that a renamed file with a leading space
// cannot pass.
type lineParser struct {
	algs     []*method.Method // those the line may be in: one, or all (detection)
	reversed int              // -1 not yet known, 0 two-space form seen, 1 one-space form seen
	aliases  bool             // other tools' tags too (tagAliases, BLAKE2b-N, SM3)
	// gnu, for b2sum and cksum, parses as their --check does instead
	// (parseGNU); nil for the other tools.
	gnu *gnuLines
	// hashdeep are the digest columns a hashdeep header named, for the
	// rest of its list; nil outside one.
	hashdeep []string
}

// newLineParser parses lines of the fixed algorithms (all, if none);
// with aliases, it also reads the tags other tools write for them.
func newLineParser(fixed []*method.Method, aliases bool) *lineParser {
	algs := fixed
	if len(algs) == 0 {
		algs = method.OfEach(hashlanes.Algorithms()...)
	}
	return &lineParser{algs: algs, reversed: -1, aliases: aliases}
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

// parse returns the line's checksum and file name, or false if the line is
// not properly formatted. line has no trailing LF or CR.
func (p *lineParser) parse(line string) (checkLine, bool) {
	if p.gnu != nil {
		return p.parseGNU(line)
	}
	cl, ok := p.parseLine(line)
	if ok || !p.aliases || len(p.algs) == 1 {
		return cl, ok
	}
	if p.hashdeep != nil {
		return p.hashdeepLine(line)
	}
	for _, read := range []func(string) (checkLine, bool){rhashLine, md5deepSizedLine, sfvLine} {
		if cl, ok := read(line); ok {
			return cl, true
		}
	}
	return checkLine{}, false
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
func (p *lineParser) parseLine(line string) (checkLine, bool) {
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
			return checkLine{}, false
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
		return checkLine{}, false
	}
	n := 2 * a.Size
	if len(line)-i < n+2+boolInt(i < len(line) && line[i] == '\\') {
		return checkLine{}, false
	}
	if !isWhite(rest[n]) {
		return checkLine{}, false
	}
	digest, ok := hexDigits(rest[:n], n)
	if !ok {
		return checkLine{}, false
	}
	name, ok := p.untaggedName(rest, n+1, escaped)
	if !ok {
		return checkLine{}, false
	}
	return checkLine{alg: a, hex: digest, name: name, guessed: len(p.algs) > 1}, true
}

// untaggedName reads the name of an untagged line, rest[j:] after the
// digest and its blank: after a mode (' ' or '*'), or, BSD's reversed
// form, at once; a list keeps to the form it began with, so that a
// renamed file with a leading space cannot pass.
func (p *lineParser) untaggedName(rest string, j int, escaped bool) (string, bool) {
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
func (p *lineParser) tagAt(s string) (*method.Method, int) {
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

func (p *lineParser) algOfHexLen(n int) (*method.Method, bool) {
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
func (p *lineParser) parseTagged(a *method.Method, s string, escaped bool) (checkLine, bool) {
	if s == "" {
		return checkLine{}, false
	}
	name, d, ok := taggedTail(s, escaped)
	if !ok {
		return checkLine{}, false
	}
	digest, ok := hexDigits(d, 2*a.Size)
	if !ok {
		return checkLine{}, false
	}
	return checkLine{alg: a, hex: digest, name: name}, true
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

// readList reads and parses a checksum list (standard input for "-"): its
// name for messages, and its lines; false, with the error reported, if it
// cannot be read.
func (c *command) readList(list string, parser *lineParser, stdinCount *int) (string, []checkEntry, bool) {
	displayName := list
	var data []byte
	var err error
	fromStdin := list == "-"
	if fromStdin {
		displayName = "standard input"
		data, err = io.ReadAll(c.stdin)
	} else {
		var f *os.File
		f, err = os.Open(list)
		if err != nil {
			c.fileError(list, err)
			return displayName, nil, false
		}
		data, err = io.ReadAll(f)
		f.Close()
	}
	if err != nil {
		c.errorf("%s: read error", quoteName(displayName))
		return displayName, nil, false
	}

	var entries []checkEntry
	parser.hashdeep = nil // a header holds for the rest of its own list
	for n := 1; len(data) > 0; n++ {
		raw, rest, _ := bytes.Cut(data, []byte{'\n'})
		data = rest
		if len(raw) > 0 && (raw[0] == '#' || raw[0] == ';' && parser.aliases && parser.gnu == nil) {
			continue // a comment; ';' starts those of SFV lists
		}
		line := string(raw)
		line = strings.TrimSuffix(line, "\r")
		if line == "" || parser.header(line) {
			continue
		}
		cl, ok := parser.parse(line)
		if ok && fromStdin && cl.name == "-" {
			ok = false
		}
		e := checkEntry{line: n, malformed: !ok, checkLine: cl}
		if !ok {
			e.listTag = c.listTag(parser)
		}
		if ok && cl.name == "-" {
			e.stdinTurn = *stdinCount
			*stdinCount++
		}
		entries = append(entries, e)
	}
	return displayName, entries, true
}

// checkEntry is one line of a list as it will be reported.
type checkEntry struct {
	line      int // 1-based
	malformed bool
	listTag   string // of a malformed line: the algorithm "improperly formatted ... line" names, as it stood then
	checkLine
	stdinTurn int
}

var errMalformed = errors.New("improperly formatted line")

// runCheck verifies every checksum list named (standard input for "-").
func (c *command) runCheck(lists []string) {
	parser := newLineParser(fixedAlgs(c), !c.dropIn)
	if c.fam != nil {
		parser.gnu = &gnuLines{cksum: c.fam.cksum, specified: c.fam.specified, alg: c.fam.alg}
	}
	turns := 0
	for _, list := range lists {
		if c.ctx.Err() != nil {
			return
		}
		if !c.checkList(list, parser, &turns) {
			c.failed = true
		}
	}
}

func fixedAlgs(c *command) []*method.Method {
	if c.algFixed {
		return c.algs
	}
	return nil
}

// checkList verifies one list; it reports whether everything in it passed.
func (c *command) checkList(list string, parser *lineParser, stdinCount *int) bool {
	displayName, entries, ok := c.readList(list, parser, stdinCount)
	if !ok {
		return false
	}

	turns := newStdinTurns()
	var malformed, unreadable, mismatched, matched int
	guessedWrong := map[*method.Method]int{} // mismatches of lines whose algorithm was guessed
	guessedRight := map[*method.Method]int{} // and matches: the guess held for the list
	properlyFormatted := false
	plans := make([]*method.Plan, len(entries))
	byMethods := map[string]*method.Plan{}
	none := method.PlanFor(nil)
	for i, e := range entries {
		plans[i] = none
		if e.malformed {
			continue
		}
		ms := e.methods()
		key := method.Key(ms)
		if byMethods[key] == nil {
			byMethods[key] = method.PlanFor(ms)
		}
		plans[i] = byMethods[key]
	}
	planOf := func(i int) *method.Plan { return plans[i] }
	c.sumStreams(len(entries), planOf,
		func(i int) (io.Reader, error) {
			e := &entries[i]
			if e.malformed {
				return nil, errMalformed
			}
			return c.openStream(e.name, e.stdinTurn, turns)
		},
		func(i int, s hashlanes.StreamSum) {
			e := entries[i]
			if e.malformed {
				malformed++
				c.checkJSON(displayName, e, "malformed", nil, nil)
				if c.warn {
					c.errorf("%s: %d: improperly formatted %schecksum line", quoteName(displayName), e.line, e.listTag)
				}
				return
			}
			properlyFormatted = true
			if s.Err != nil {
				if c.ignoreMissing && errors.Is(s.Err, os.ErrNotExist) && isOpenError(s.Err) {
					return
				}
				c.fileError(e.name, s.Err)
				unreadable++
				switch {
				case c.json:
					c.checkJSON(displayName, e, "unreadable", nil, s.Err)
				case !c.status:
					c.out.Write([]byte(c.checkedName(e.name) + ": FAILED open or read\n"))
				}
				return
			}
			ms := e.methods()
			sumOf := func(m *method.Method) []byte { return s.Sums[slices.Index(ms, m)] }
			ok := e.verify(sumOf, s.Size)
			if ok {
				matched++
				if e.guessed {
					guessedRight[e.alg]++
				}
			} else {
				mismatched++
				if e.guessed {
					guessedWrong[e.alg]++
				}
			}
			switch {
			case c.json:
				if status := map[bool]string{true: "OK", false: "FAILED"}[ok]; !ok || !c.quiet {
					c.checkJSON(displayName, e, status, sumOf(e.alg), nil)
				}
			case c.status:
			case !ok:
				c.out.Write([]byte(c.checkedName(e.name) + ": FAILED\n"))
			case !c.quiet:
				c.out.Write([]byte(c.checkedName(e.name) + ": OK\n"))
			}
		})
	if c.ctx.Err() != nil {
		return false
	}

	if !properlyFormatted {
		c.errorf("%s: no properly formatted checksum lines found", quoteName(displayName))
		return false
	}
	if !c.status {
		if malformed > 0 {
			c.errorf("WARNING: %d %s improperly formatted", malformed, plural(malformed, "line is", "lines are"))
		}
		if unreadable > 0 {
			c.errorf("WARNING: %d %s could not be read", unreadable, plural(unreadable, "listed file", "listed files"))
		}
		if mismatched > 0 {
			c.errorf("WARNING: %d computed %s did NOT match", mismatched, plural(mismatched, "checksum", "checksums"))
		}
		for _, a := range slices.SortedFunc(maps.Keys(guessedWrong), func(a, b *method.Method) int { return a.Size - b.Size }) {
			if guessedRight[a] == 0 { // a line that verified shows the list's algorithm
				c.guessNote(a, guessedWrong[a])
			}
		}
		if c.ignoreMissing && matched+mismatched == 0 {
			c.errorf("%s: no file was verified", quoteName(displayName))
		}
	}
	return mismatched == 0 && unreadable == 0 &&
		(!c.strict || malformed == 0) &&
		(!c.ignoreMissing || matched+mismatched > 0)
}

// sameLength are, for each algorithm that detection guesses from a
// digest's length, the other methods whose digests have that length too:
// an untagged list of theirs reads as the guess.
var sameLength = map[hashlanes.Algorithm][]string{
	hashlanes.MD5:    {"blake2b-128"},
	hashlanes.SHA1:   {"blake2b-160"},
	hashlanes.SHA224: {"sha3-224", "sha512-224", "blake2b-224"},
	hashlanes.SHA256: {"blake3", "sha3-256", "sha512-256", "blake2s", "blake2b-256", "sm3"},
	hashlanes.SHA384: {"sha3-384", "blake2b-384"},
	hashlanes.SHA512: {"sha3-512", "blake2b"},
}

// guessNote explains mismatches of untagged lines whose algorithm was
// guessed from the digest's length: a list that b3sum or another tool
// made with digests of that length reads as the guess and fails, every
// file intact.
func (c *command) guessNote(a *method.Method, n int) {
	others := sameLength[a.Alg]
	if len(others) == 0 {
		return
	}
	var opts []string
	for _, o := range others {
		opts = append(opts, "-a "+o)
	}
	c.errorf("note: %d untagged %s of %d hex digits did not match as %s, the usual algorithm of that length; if the list was made with another, name it: %s",
		n, plural(n, "line", "lines"), 2*a.Size, a.Tag, strings.Join(opts, ", "))
}

// checkJSON writes one object for a line of list, with --json: where it
// is (list, line), what it names (file, algorithm, expected digest) and
// what came of it: status OK, FAILED (with the digest computed),
// unreadable (with the error) or malformed.
func (c *command) checkJSON(list string, e checkEntry, status string, sum []byte, err error) {
	if !c.json {
		return
	}
	obj := map[string]any{"list": list, "line": e.line, "status": status}
	if status != "malformed" {
		jsonFile(obj, e.name)
		obj["algorithm"] = e.alg.Name
		obj["expected"] = e.hex
		jsonMore(obj, e.checkLine)
	}
	if status == "FAILED" {
		obj["computed"] = method.Hex(sum)
	}
	if err != nil {
		obj["error"] = strerror(err)
	}
	c.writeJSON(obj)
}

// jsonMore adds what a line of another tool gives beside its first
// digest: every digest, by the algorithms that may have made it, and the
// size.
func jsonMore(obj map[string]any, l checkLine) {
	if len(l.digests) > 1 {
		var ds []map[string]any
		for _, d := range l.digests {
			var names []string
			for _, m := range d.algs {
				names = append(names, m.Name)
			}
			ds = append(ds, map[string]any{"algorithms": names, "expected": d.hex})
		}
		obj["digests"] = ds
	}
	if l.sized {
		obj["expected_size"] = l.size
	}
}

// listTag names the algorithm in "improperly formatted MD5 checksum line"
// (nothing when each line's algorithm is detected; b2sum and cksum name
// the one they read by, as they do).
func (c *command) listTag(p *lineParser) string {
	if p.gnu != nil {
		return p.gnu.warnTag() + " "
	}
	if c.algFixed && len(c.algs) == 1 {
		return c.algs[0].Tag + " "
	}
	return ""
}

// checkedName is a name as --check prints it: escaped, after a leading
// backslash, if it holds a backslash, LF or CR (coreutils 9.4 and later).
func (c *command) checkedName(name string) string {
	if !c.status && strings.ContainsAny(name, "\\\n\r") {
		return `\` + escapeName(name)
	}
	return name
}

func plural(n int, one, many string) string {
	if n == 1 {
		return one
	}
	return many
}

func isOpenError(err error) bool {
	var pe *os.PathError
	return errors.As(err, &pe) && pe.Op == "open"
}
