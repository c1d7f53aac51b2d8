package gnu

import (
	"maps"
	"reflect"
	"slices"
	"testing"

	"github.com/hashlanes/hashlanes"
	"github.com/hashlanes/hashlanes/cmd/hashlanes/internal/method"
)

// TestDropInNames pins the fixed-algorithm drop-ins to GNU's program names.
func TestDropInNames(t *testing.T) {
	names := slices.Sorted(maps.Keys(DropIns))
	if w := []string{"md5sum", "sha1sum", "sha224sum", "sha256sum", "sha384sum", "sha512sum"}; !slices.Equal(names, w) {
		t.Errorf("drop-ins %v, want %v", names, w)
	}
}

// TestParse reads command lines into settings without running anything:
// what each asks for, and GNU's verdict on the bad ones.
func TestParse(t *testing.T) {
	md5sum := func() *Settings {
		return &Settings{Prog: "md5sum", Name: "md5sum", DropIn: true, Algs: method.OfEach(hashlanes.MD5), AlgFixed: true}
	}
	cksum := func() *Settings {
		return &Settings{Prog: "cksum", Name: "cksum", DropIn: true, Fam: NewFamily("cksum"), AlgFixed: true}
	}
	sum := func() *Settings { return &Settings{Prog: "hashlanes", Name: "hashlanes sum"} }
	for _, c := range []struct {
		s    *Settings
		args []string
		want Parsed
	}{
		{md5sum(), nil, Parsed{Operands: []string{"-"}}},
		{md5sum(), []string{"a", "--", "-b"}, Parsed{Operands: []string{"a", "-b"}}},
		{md5sum(), []string{"--he"}, Parsed{Help: true}},
		{md5sum(), []string{"-c", "--tag", "x"}, Parsed{Problem: "the --tag option is meaningless when verifying checksums", Try: true}},
		{md5sum(), []string{"--status", "x"}, Parsed{Problem: "the --status option is meaningful only when verifying checksums", Try: true}},
		{md5sum(), []string{"-r"}, Parsed{Problem: "invalid option -- 'r'", Try: true}},
		{cksum(), []string{"-a", "sha2", "x"}, Parsed{Problem: "--algorithm=sha2 requires specifying --length 224, 256, 384, or 512"}},
		{cksum(), []string{"--raw", "x", "y"}, Parsed{Problem: "the --raw option is not supported with multiple files"}},
		{sum(), []string{"-j", "0"}, Parsed{Problem: "invalid number of jobs: 0", Try: true}},
		{sum(), []string{"--follow", "x"}, Parsed{Problem: "the --follow option is meaningful only with --recursive", Try: true}},
		{sum(), []string{"--files-from", "l", "x"}, Parsed{Problem: "extra operand x\nfile operands cannot be combined with --files-from", Try: true}},
	} {
		got := c.s.Parse(c.args)
		if !reflect.DeepEqual(got, c.want) {
			t.Errorf("%s %q: %+v, want %+v", c.s.Name, c.args, got, c.want)
		}
	}

	s := sum()
	if p := s.Parse([]string{"-a", "SHA-1,md5", "-r", "--json", "d"}); p.Problem != "" || !s.AlgFixed || !s.Recursive || !s.JSON ||
		!slices.Equal(s.Algs, method.OfEach(hashlanes.SHA1, hashlanes.MD5)) {
		t.Errorf("hashlanes sum -a SHA-1,md5 -r --json d: %+v, settings %+v", p, s)
	}
	s = cksum()
	if p := s.Parse([]string{"-a", "blake2b", "-l", "256", "f"}); p.Problem != "" || len(s.Algs) != 1 || s.Algs[0].Name != "blake2b-256" || !s.Tag {
		t.Errorf("cksum -a blake2b -l 256 f: %+v, settings %+v", p, s)
	}
}
