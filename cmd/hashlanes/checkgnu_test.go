package main

import (
	"bytes"
	"crypto/sha256"
	"fmt"
	"math/rand/v2"
	"os"
	"path/filepath"
	"slices"
	"strconv"
	"strings"
	"testing"

	"github.com/emmansun/gmsm/sm3"
	"github.com/hashlanes/hashlanes/cmd/hashlanes/internal/method"
	"github.com/hashlanes/hashlanes/cmd/hashlanes/internal/sumfile"
	"golang.org/x/crypto/blake2b"
)

// TestCheckLinesAgainstGNU feeds GNU's md5sum -c, b2sum -c and cksum -c
// and the drop-ins the same lists of mutated checksum lines (random edits
// of every form GNU accepts) and wants the same verdict for each line.
func TestCheckLinesAgainstGNU(t *testing.T) {
	gnuCoreutils(t)
	dir := t.TempDir()
	if err := makeFixture(dir); err != nil {
		t.Fatal(err)
	}
	b2 := func(size int, s string) string {
		h, _ := blake2b.New(size, nil)
		h.Write([]byte(s))
		return method.Hex(h.Sum(nil))
	}
	md5Lines := []string{
		"900150983cd24fb0d6963f7d28e17f72  a",
		"900150983cd24fb0d6963f7d28e17f72 *a",
		"900150983cd24fb0d6963f7d28e17f72 a",
		"MD5 (a) = 900150983cd24fb0d6963f7d28e17f72",
		"MD5(a)= 900150983CD24FB0D6963F7D28E17F72",
		`\415290769594460e2e485922904f345d  b\\ack`,
		`\MD5 (b\\ack) = 415290769594460e2e485922904f345d`,
		"d41d8cd98f00b204e9800998ecf8427e  empty",
		"# comment",
	}
	b2Lines := []string{
		b2(64, "abc") + "  a", "BLAKE2b (a) = " + b2(64, "abc"), "BLAKE2b-256 (a) = " + b2(32, "abc"),
		b2(32, "abc") + " *a", b2(1, "abc") + " a", "BLAKE2b-8 (empty) = " + b2(1, ""), `\` + b2(16, "y") + `  b\\ack`,
	}
	cksumLines := append([]string{"SHA256 (a) = " + method.Hex(sum(sha256.New, []byte("abc"))), "SM3 (a) = " + method.Hex(sum(sm3.New, []byte("abc"))),
		"SHA1 (empty) = da39a3ee5e6b4b0d3255bfef95601890afd80709", "CRC (a) = 1219131554"}, md5Lines[3:7]...)
	cksumLines = append(cksumLines, b2Lines[1:3]...)
	for _, tool := range []struct {
		args  []string
		bases []string
	}{
		{[]string{"md5sum"}, md5Lines},
		{[]string{"b2sum"}, b2Lines},
		{[]string{"cksum"}, cksumLines},
		{[]string{"cksum", "-a", "blake2b"}, b2Lines},
	} {
		t.Run(strings.Join(tool.args, " "), func(t *testing.T) { mutatedLists(t, dir, tool.args, tool.bases) })
	}
}

// versionsDiffer reports a line that b2sum -c or cksum -c read
// differently in coreutils 9.1 (the newest in Debian 12) and 9.10, whose
// behaviour the drop-ins follow: after a tag, 9.1 skips any one byte
// where 9.10 wants " (", "(" or "-N"; 9.2 added base64 digests, and
// later releases the CRC32B, SHA2 and SHA3 tags.
func versionsDiffer(tool []string, line string) bool {
	if tool[0] == "md5sum" {
		return false
	}
	s := strings.TrimLeft(line, " \t")
	s = strings.TrimPrefix(s, `\`)
	tags := []string{"BLAKE2b"}
	if tool[0] == "cksum" {
		tags = nil
		for _, a := range method.CksumAlgs {
			tags = append(tags, a.Tag)
		}
	}
	for _, t := range tags {
		if rest, ok := strings.CutPrefix(s, t); ok && !strings.HasPrefix(rest, " (") && !strings.HasPrefix(rest, "(") && !strings.HasPrefix(rest, "-") {
			return true
		}
	}
	if t := method.CksumTagAt(s); tool[0] == "cksum" && (t == method.CksumCRC32B || t == method.CksumSHA2 || t == method.CksumSHA3) {
		return true
	}
	if tool[0] == "cksum" {
		verdict := func(noBase64 bool) string {
			p := sumfile.NewParser(nil, false)
			p.GNU = &sumfile.GNULines{Cksum: true, Specified: len(tool) > 1, Alg: method.CksumIndex(tool[len(tool)-1]), NoBase64: noBase64}
			if !p.GNU.Specified {
				p.GNU.Alg = method.CksumIndex("crc")
			}
			cl, ok := p.Parse(line)
			return fmt.Sprint(ok, cl)
		}
		return verdict(true) != verdict(false)
	}
	return false
}

// mutatedLists checks lists of bases edited at random with tool -c.
func mutatedLists(t *testing.T, dir string, tool, bases []string) {
	alphabet := []byte(" \t\\*()=#-abcdef0123456789MD5\r\x00\xffn")
	r := rand.New(rand.NewPCG(7, 7))
	rounds := 8 // HASHLANES_GNU_ROUNDS=1000 for a longer search by hand
	if n, err := strconv.Atoi(os.Getenv("HASHLANES_GNU_ROUNDS")); err == nil {
		rounds = n
	}
	for round := range rounds {
		var list bytes.Buffer
		for range 300 {
			line := []byte(bases[r.IntN(len(bases))])
			for range r.IntN(4) {
				i := r.IntN(len(line) + 1)
				switch r.IntN(3) {
				case 0: // insert
					line = append(line[:i], append([]byte{alphabet[r.IntN(len(alphabet))]}, line[i:]...)...)
				case 1: // delete
					if i < len(line) {
						line = append(line[:i], line[i+1:]...)
					}
				case 2: // replace
					if i < len(line) {
						line[i] = alphabet[r.IntN(len(alphabet))]
					}
				}
			}
			if versionsDiffer(tool, string(line)) {
				continue
			}
			list.Write(line)
			list.WriteByte('\n')
		}
		name := filepath.Join(dir, "random.sums")
		if err := os.WriteFile(name, list.Bytes(), 0o644); err != nil {
			t.Fatal(err)
		}
		for _, opts := range [][]string{{"-c", "-w"}, {"-c", "--strict", "--ignore-missing"}} {
			c := caseLine{args: append(append(slices.Clone(tool), opts...), "random.sums")}
			c.text = strings.Join(c.args, " ")
			want, got := gnuOutcome(t, dir, c), runOurs(t, dir, c)
			if !bytes.Equal(got.stdout, want.stdout) || !bytes.Equal(got.stderr, want.stderr) || got.exit != want.exit {
				t.Fatalf("round %d, %s: outputs differ\n got %q\n %q\nwant %q\n %q\nlist:\n%q", round, c.text,
					got.stdout, got.stderr, want.stdout, want.stderr, list.String())
			}
		}
	}
}
