package main

import (
	"bytes"
	"crypto/md5"
	"crypto/sha1"
	"crypto/sha256"
	"crypto/sha512"
	"encoding/hex"
	"fmt"
	"os"
	"path/filepath"
	"strings"

	"github.com/emmansun/gmsm/sm3"
	"github.com/hashlanes/hashlanes/cmd/hashlanes/internal/method"
	"golang.org/x/crypto/blake2b"
)

// fixtureEnv are the variables the case lines and scripts use for bytes
// that cannot be typed in them.
var fixtureEnv = map[string]string{"NL": "\n", "CR": "\r", "FF": "\xff"}

// makeFixture builds the tree the GNU comparison cases run in: files with
// awkward names, a directory, and checksum lists in every form GNU reads.
func makeFixture(dir string) error {
	big := make([]byte, 300_000)
	for i := range big {
		big[i] = byte(i*7 + i>>9)
	}
	files := map[string][]byte{
		"a": []byte("abc"), "empty": nil, "big": big,
		"sp ace": []byte("x"), `b\ack`: []byte("y"), "n\nl": []byte("z"), "c\rr": []byte("w"),
		"a:b": []byte("1"), "q'uote": []byte("2"), `d"q`: []byte("3"), "x\xffy": []byte("4"),
		"~t": []byte("5"), "#h": []byte("6"), "d/x": []byte("in d"), "d/y": nil,
	}
	h := func(name string) string { s := md5.Sum(files[name]); return hex.EncodeToString(s[:]) }
	b2 := func(size int, name string) string {
		d, _ := blake2b.New(size, nil)
		d.Write(files[name])
		return method.Hex(d.Sum(nil))
	}
	zero := strings.Repeat("0", 32)
	garbage := make([]byte, 4096)
	for i := range garbage {
		garbage[i] = byte(i*131 + i>>3)
	}
	lists := map[string]string{
		"sums.md5": h("a") + "  a\n" +
			`\` + h(`b\ack`) + `  b\\ack` + "\n" +
			h("a") + "  nope\n" +
			zero + "  a\n" +
			"garbage\n" +
			"MD5 (a) = " + h("a") + "\r\n" +
			"MD5(a)= " + strings.ToUpper(h("a")) + "\n" +
			"# a comment\n\n" +
			h("a") + " a\n",
		"sums.allmissing": h("a") + "  nope1\n" + h("a") + "  nope2\n",
		"sums.ok":         h("a") + "  a\n" + h("empty") + " *empty\n" + h("big") + "  big\n",
		"sums.forms": "MD5 (sp ace) = " + h("sp ace") + "\n" +
			"MD5(a)= " + strings.ToUpper(h("a")) + "\n" +
			`\MD5 (b\\ack) = ` + h(`b\ack`) + "\n" +
			"MD5 (a) =" + h("a") + "\n" +
			"MD5 (a)  =  " + h("a") + "\n" +
			"MD5 (a) = " + h("a") + " \n" +
			"MD5 (a) = " + h("a")[:31] + "\n" +
			"MD5 a) = " + h("a") + "\n" +
			"SHA1 (a) = " + h("a") + "\n" +
			"  " + h("a") + "  a\n" +
			"\t" + h("a") + " *a\n" +
			h("a") + "  a\r\n" +
			h("a") + "x  a\n" +
			h("a") + "\n" +
			h("a") + "  \n" +
			h("q'uote") + "  q'uote\n",
		"sums.onespace": h("a") + " a\n" + h("empty") + " empty\n" + h("a") + "\ta\n",
		"sums.garbage":  string(garbage),
		"sums.longline": strings.Repeat("x", 1<<20) + "\n" + h("a") + "  a\n",
		"sums.empty":    "",
		"sums.comments": "# only comments\n\n#" + h("a") + "  a\n",
		"sums.dash":     h("a") + "  -\n",
		"sums.escaped":  `\` + h(`b\ack`) + `  b\\ack` + "\n" + `\` + h("n\nl") + `  n\nl` + "\n" + `\` + h("c\rr") + `  c\rr` + "\n" + `\` + h("a") + `  a\qb` + "\n" + `\` + h("a") + `  a\` + "\n",
		"sums.plural":   zero + "  a\n" + zero + "  empty\n" + h("a") + "  nope1\n" + h("a") + "  nope2\n" + "bad\nbad\n" + h("big") + "  big\n",
		"sums.sha256":   shaLine(sha256.New, "a", files) + shaLine(sha256.New, "big", files) + strings.Repeat("1", 64) + "  empty\n",
		"sums.sha512":   shaLine(sha512.New, "a", files) + "SHA512 (big) = " + method.Hex(sum(sha512.New, big)) + "\n" + "bogus\n",
		"sums.sha1":     shaLine(sha1.New, "a", files) + shaLine(sha1.New, "empty", files) + strings.Repeat("2", 40) + "  big\n",
		// b2sum's: every length it writes, tagged and not, and lines it
		// refuses (a bad length tag, an odd digest, one too long).
		"sums.b2": b2(64, "a") + "  a\n" + "BLAKE2b (big) = " + b2(64, "big") + "\n" +
			"BLAKE2b-256 (a) = " + b2(32, "a") + "\n" + b2(16, "big") + "  big\n" + b2(1, "a") + "  a\n" +
			`\` + b2(20, `b\ack`) + `  b\\ack` + "\n" + "BLAKE2b-12 (a) = " + b2(32, "a")[:3] + "\n" +
			"BLAKE2b-520 (a) = " + b2(64, "a") + "\n" + b2(32, "a")[:63] + "  a\n" + b2(64, "a") + "00  a\n" +
			strings.Repeat("3", 64) + "  empty\n" + "BLAKE2b-0x100 (a) = " + b2(32, "a") + "\n" + "garbage\n",
		// cksum's: tagged lines of several algorithms, lines it refuses
		// without -a (untagged, a CRC's), and its own sums' output.
		"sums.cksum": "SHA256 (a) = " + method.Hex(sum(sha256.New, files["a"])) + "\n" + "MD5 (big) = " + h("big") + "\n" +
			"BLAKE2b-160 (a) = " + b2(20, "a") + "\n" + "SM3 (a) = " + method.Hex(sum(sm3.New, files["a"])) + "\n" +
			"SHA512 (empty) = " + strings.Repeat("4", 128) + "\n" + h("a") + "  a\n" + "CRC (a) = 1219131554\n" +
			"1219131554 3 a\n" + "MD5 (nope) = " + h("a") + "\n" + "MD5-64 (a) = " + h("a")[:16] + "\n",
	}
	if err := os.MkdirAll(filepath.Join(dir, "d"), 0o755); err != nil {
		return err
	}
	for name, data := range files {
		if err := os.WriteFile(filepath.Join(dir, name), data, 0o644); err != nil {
			return err
		}
	}
	for name, data := range lists {
		if err := os.WriteFile(filepath.Join(dir, name), []byte(data), 0o644); err != nil {
			return err
		}
	}
	return nil
}

func sum[H interface {
	Sum([]byte) []byte
	Write([]byte) (int, error)
}](newHash func() H, data []byte) []byte {
	h := newHash()
	h.Write(data)
	return h.Sum(nil)
}

func shaLine[H interface {
	Sum([]byte) []byte
	Write([]byte) (int, error)
}](newHash func() H, name string, files map[string][]byte) string {
	return fmt.Sprintf("%x  %s\n", sum(newHash, files[name]), name)
}

// caseLine is one line of testdata/gnu-cases.txt.
type caseLine struct {
	text  string   // as written
	args  []string // argv, the tool first
	stdin string   // file fed to standard input, if any
	lcAll string   // locale, when the line starts with LC_ALL=...
}

func readCases(path string) ([]caseLine, error) {
	data, err := os.ReadFile(path)
	if err != nil {
		return nil, err
	}
	var cases []caseLine
	for line := range strings.SplitSeq(string(data), "\n") {
		if line == "" || line[0] == '#' {
			continue
		}
		c := caseLine{text: line}
		words := splitWords(line)
		if n := len(words); n >= 2 && words[n-2] == "<" {
			c.stdin, words = words[n-1], words[:n-2]
		}
		if len(words) > 0 && strings.HasPrefix(words[0], "LC_ALL=") {
			c.lcAll, words = strings.TrimPrefix(words[0], "LC_ALL="), words[1:]
		}
		c.args = words
		cases = append(cases, c)
	}
	return cases, nil
}

// splitWords splits a case line as testscript would.
func splitWords(line string) []string {
	var words []string
	var w bytes.Buffer
	inWord, quoted := false, false
	for i := 0; i < len(line); i++ {
		ch := line[i]
		switch {
		case quoted && ch == '\'' && i+1 < len(line) && line[i+1] == '\'':
			w.WriteByte('\'')
			i++
		case ch == '\'':
			quoted, inWord = !quoted, true
		case quoted:
			w.WriteByte(ch)
		case ch == ' ':
			if inWord {
				words = append(words, w.String())
				w.Reset()
				inWord = false
			}
		case ch == '$' && i+1 < len(line) && line[i+1] == '{':
			end := strings.IndexByte(line[i:], '}')
			w.WriteString(fixtureEnv[line[i+2:i+end]])
			i += end
			inWord = true
		default:
			w.WriteByte(ch)
			inWord = true
		}
	}
	if inWord {
		words = append(words, w.String())
	}
	return words
}

func writeFile(t interface{ Fatal(...any) }, name, data string) {
	if err := os.WriteFile(name, []byte(data), 0o644); err != nil {
		t.Fatal(err)
	}
}
