package gnu

import (
	"fmt"
	"strconv"
	"strings"

	"github.com/hashlanes/hashlanes"
	"golang.org/x/sys/cpu"

	"github.com/hashlanes/hashlanes/cmd/hashlanes/internal/method"
	"github.com/hashlanes/hashlanes/internal/cksum"
)

// b2sum, cksum and sum: the drop-ins whose algorithm (and digest length)
// are options, with coreutils 9.10's options, messages and formats.

// b2Options is b2sum's option table: md5sum's and --length.
var b2Options = append([]Option{{Long: "length", Short: 'l', Arg: true}}, gnuOptions...)

// cksumOptions is cksum's, in coreutils 9.10's order.
var cksumOptions = []Option{
	{Long: "length", Short: 'l', Arg: true},
	{Long: "check", Short: 'c'},
	{Long: "ignore-missing"},
	{Long: "quiet"},
	{Long: "status"},
	{Long: "warn", Short: 'w'},
	{Long: "strict"},
	{Long: "tag"},
	{Long: "zero", Short: 'z'},
	{Long: "algorithm", Short: 'a', Arg: true},
	{Long: "base64"},
	{Long: "debug"},
	{Long: "raw"},
	{Long: "untagged"},
	{Long: "binary", Short: 'b'},
	{Long: "text", Short: 't'},
	{Long: "help"},
	{Long: "version"},
}

// sumOptions is sum's: -r (BSD, the default) has no long name.
var sumOptions = []Option{
	{Short: 'r'},
	{Long: "sysv", Short: 's'},
	{Long: "help"},
	{Long: "version"},
}

// Family is what b2sum, cksum and sum add to a command.
type Family struct {
	Cksum       bool
	Sum         bool // sum: the BSD or System V sum, nothing else
	Alg         int  // index in cksumAlgs (b2sum: BLAKE2b)
	Specified   bool
	length      uint64 // -l, in bits; 0 unset
	lengthArg   string
	prefixTag   int  // -1 unset, 0 --untagged, 1 --tag
	tagBinary   bool // cksum: binary mode came from --tag, not -b or -t (see option)
	explicitTag bool // cksum: --tag was given and not undone
	Base64, Raw bool
	Debug       bool
	Operands    bool // FILE operands were given: the CRC and sums print the name
}

func NewFamily(tool string) *Family {
	alg := map[string]int{"cksum": method.CksumIndex("crc"), "b2sum": method.CksumBLAKE2b, "sum": method.CksumIndex("bsd")}[tool]
	return &Family{Cksum: tool == "cksum", Sum: tool == "sum", Alg: alg, prefixTag: -1}
}

// option applies one of the options only b2sum, cksum and sum have, or
// the ones they treat differently; false if o is none of them.
func (f *Family) option(s *Settings, o ParsedOption) (bool, error) {
	if f.Sum { // the last of -r and -s wins
		switch o.Opt.Short {
		case 'r':
			f.Alg = method.CksumIndex("bsd")
		case 's':
			f.Alg = method.CksumIndex("sysv")
		default:
			return false, nil
		}
		return true, nil
	}
	switch o.Opt.Long {
	case "length":
		n, err := parseLength(o.Val)
		if err != nil {
			return true, err
		}
		f.length, f.lengthArg = n, o.Val
	case "algorithm":
		i := method.CksumIndex(o.Val)
		if i < 0 {
			return true, fmt.Errorf("invalid argument %s for %s\n%s", quoteLocale(o.Val), quoteLocale("--algorithm"), validAlgorithms())
		}
		f.Alg, f.Specified = i, true
	case "base64":
		f.Base64 = true
	case "raw":
		f.Raw = true
	case "debug":
		f.Debug = true
	case "untagged":
		if f.prefixTag == 1 && (!f.Cksum || f.tagBinary) {
			s.Binary, f.tagBinary = -1, false
		}
		f.prefixTag = 0
	case "tag":
		// cksum (coreutils 9.10) keeps a mode -b or -t chose: --tag sets
		// binary mode only where none was chosen, and --untagged undoes
		// only that.
		f.prefixTag = 1
		if !f.Cksum || s.Binary < 0 || f.tagBinary {
			s.Binary, f.tagBinary = 1, true
		}
	case "binary", "text":
		if !f.Cksum {
			return false, nil
		}
		s.Binary, f.tagBinary = map[string]int{"binary": 1, "text": 0}[o.Opt.Long], false
	default:
		return false, nil
	}
	return true, nil
}

// errInvalidLength is -l's argument that is no number.
type errInvalidLength string

func (e errInvalidLength) Error() string { return "invalid length: " + quoteLocale(string(e)) }

// parseLength reads -l as xnumtoumax does: a decimal number after
// optional blanks; too large to hold is the largest number.
func parseLength(s string) (uint64, error) {
	t := strings.TrimLeft(s, " \t\n\v\f\r")
	t = strings.TrimPrefix(t, "+")
	if t == "" || strings.Trim(t, "0123456789") != "" {
		return 0, errInvalidLength(s)
	}
	n, err := strconv.ParseUint(t, 10, 64)
	if err != nil {
		return ^uint64(0), nil
	}
	return n, nil
}

// validAlgorithms lists -a's arguments as argmatch does after a bad one.
func validAlgorithms() string {
	var b strings.Builder
	b.WriteString("Valid arguments are:")
	for _, a := range method.CksumAlgs {
		b.WriteString("\n  - " + quoteLocale(a.Arg))
	}
	return b.String()
}

// quoteLocale quotes an argument as gnulib's quote() does: ‘x’ in a UTF-8
// locale, 'x' in others.
func quoteLocale(s string) string {
	if localeIsUTF8() {
		return "\u2018" + s + "\u2019"
	}
	return "'" + s + "'"
}

// settle checks the options after they are all read, in coreutils 9.10's
// order, and sets the method. It returns a message and whether GNU follows
// it with "Try ... --help", or "" if all is well.
func (f *Family) settle(s *Settings, operands int) (msg string, try bool) {
	if f.Sum {
		s.Algs, f.Operands = []*method.Method{method.Cksum(f.Alg, 16)}, operands > 0
		return "", false
	}
	if f.Cksum && f.length != 0 && !method.AutoLength(f.Alg) {
		return "--length is only supported with --algorithm blake2b, sha2, or sha3", false
	}
	typ := method.CksumAlgs[f.Alg].Tag
	if f.Cksum && (f.Alg == method.CksumSHA2 || f.Alg == method.CksumSHA3) {
		if f.length == 0 && f.lengthArg == "" && !s.Check {
			return fmt.Sprintf("--algorithm=%s requires specifying --length 224, 256, 384, or 512", method.CksumAlgs[f.Alg].Arg), false
		}
		if (!s.Check || f.lengthArg != "") && !method.SHALength(f.length) {
			return fmt.Sprintf("invalid length: %s\n%s: digest length for %s must be 224, 256, 384, or 512",
				quoteLocale(f.lengthArg), s.Prog, quoteLocale(typ)), false
		}
	} else {
		if f.length > 512 {
			return fmt.Sprintf("invalid length: %s\n%s: maximum digest length for %s is 512 bits",
				quoteLocale(f.lengthArg), s.Prog, quoteLocale(typ)), false
		}
		if f.length%8 != 0 {
			return fmt.Sprintf("invalid length: %s\n%s: length is not a multiple of 8", quoteLocale(f.lengthArg), s.Prog), false
		}
	}
	bits := int(f.length)
	if bits == 0 {
		bits = method.CksumAlgs[f.Alg].Bits
	}
	if f.Cksum {
		if s.Check && f.Specified && f.Alg <= method.CksumCRC32B {
			return "--check is not supported with --algorithm={bsd,sysv,crc,crc32b}", false
		}
		if f.Base64 && f.Raw {
			return "--base64 and --raw are mutually exclusive", true
		}
	}
	f.explicitTag = f.prefixTag == 1
	if f.prefixTag == -1 {
		f.prefixTag = 0
		if f.Cksum {
			f.prefixTag = 1
		}
	}
	s.Tag = f.prefixTag == 1
	if s.Tag && s.Binary == 0 {
		if f.Cksum {
			return "--text mode is only supported with --untagged", true
		}
		return "--tag does not support --text mode", true
	}
	if m := method.Cksum(f.Alg, bits); m != nil {
		s.Algs = []*method.Method{m}
	}
	f.Operands = operands > 0
	return "", false
}

// DebugLine is what cksum --debug says computes the digests.
func (f *Family) DebugLine(m *method.Method) string {
	switch {
	case m.Name == "crc":
		return "using " + cksum.Hardware() + " hardware support"
	case m.Name == "crc32b":
		if cpu.X86.HasPCLMULQDQ && cpu.X86.HasSSE41 {
			return "using pclmul hardware support" // hash/crc32's IEEE fold
		}
		return "using generic hardware support"
	case m.Alg != 0:
		return "using hashlanes " + m.Name + ": " + hashlanes.DefaultServer(m.Alg).Kernel()
	case strings.HasPrefix(m.Name, "blake2b"):
		return "using golang.org/x/crypto/blake2b"
	case m.Name == "sm3":
		return "using github.com/emmansun/gmsm/sm3"
	}
	return "using hashlanes " + m.Name
}
