// Package gnu is the checksum tools' command line as GNU's coreutils
// read it: getopt_long's parsing, the option tables of md5sum and its
// kin, b2sum, cksum and sum (the drop-ins) and of hashlanes sum and check,
// the checks GNU makes of them in its order, the help texts, and the
// quoting GNU's messages use.
package gnu

import (
	"fmt"
	"maps"
	"slices"
	"strconv"
	"strings"

	"github.com/hashlanes/hashlanes"
	"github.com/hashlanes/hashlanes/cmd/hashlanes/internal/method"
)

// DropIns are the program names under which hashlanes behaves as the GNU
// coreutils tool of that name: the algorithm's name and "sum".
var DropIns = func() map[string]hashlanes.Algorithm {
	m := map[string]hashlanes.Algorithm{}
	for _, a := range []hashlanes.Algorithm{hashlanes.MD5, hashlanes.SHA1, hashlanes.SHA224, hashlanes.SHA256, hashlanes.SHA384, hashlanes.SHA512} {
		m[a.String()+"sum"] = a
	}
	return m
}()

// DropInNames are every program name under which hashlanes behaves as
// another checksum tool, sorted: the fixed-algorithm ones, b2sum, cksum
// and sum, and b3sum.
func DropInNames() []string {
	return slices.Sorted(slices.Values(append(slices.Collect(maps.Keys(DropIns)), "b2sum", "b3sum", "cksum", "sum")))
}

// The GNU options, in getopt's table order (it decides how ambiguities
// are listed), then hashlanes' own.
var gnuOptions = []Option{
	{Long: "binary", Short: 'b'},
	{Long: "check", Short: 'c'},
	{Long: "ignore-missing"},
	{Long: "quiet"},
	{Long: "status"},
	{Long: "strict"},
	{Long: "tag"},
	{Long: "text", Short: 't'},
	{Long: "warn", Short: 'w'},
	{Long: "zero", Short: 'z'},
	{Long: "help"},
	{Long: "version"},
}

var extraOptions = []Option{
	{Long: "algorithm", Short: 'a', Arg: true},
	{Long: "recursive", Short: 'r'},
	{Long: "follow"},
	{Long: "files-from", Arg: true},
	{Long: "null", Short: '0'},
	{Long: "json"},
	{Long: "jobs", Short: 'j', Arg: true},
	{Long: "progress"},
	{Long: "no-progress"},
	{Long: "audit", Arg: true},
}

// Settings are a checksum tool's command line, read: which tool (the
// drop-in md5sum, ..., or hashlanes sum / check) and every option.
type Settings struct {
	Prog   string // argv[0] as invoked: every message starts with it
	Name   string // the name for --help and --version
	DropIn bool
	Fam    *Family // b2sum, cksum and sum

	Check                bool
	Binary               int // -1 unset, 0 text, 1 binary
	Tag, Zero            bool
	IgnoreMissing, Quiet bool
	Status, Warn, Strict bool
	Algs                 []*method.Method
	AlgFixed             bool // -a given (or a drop-in): check lines of that algorithm only
	Recursive, Follow    bool
	FilesFrom            string
	HasFilesFrom, Null   bool
	JSON                 bool
	AuditDir             string // check --audit: the tree the lists are of
	Jobs                 int
	Progress             int // -1 when stderr is a terminal and the job is long, 0 off, 1 on
}

// checkConflicts are GNU's checks of the options that belong with --check
// or without it, in its order; cksum has no --tag error (its --tag sets
// binary mode, which the next check finds).
func (s *Settings) checkConflicts(tagError bool) string {
	switch {
	case s.Zero && s.Check:
		return "the --zero option is not supported when verifying checksums"
	case tagError && s.Tag && s.Check:
		return "the --tag option is meaningless when verifying checksums"
	case s.Binary >= 0 && s.Check:
		return "the --binary and --text options are meaningless when verifying checksums"
	case s.IgnoreMissing && !s.Check:
		return "the --ignore-missing option is meaningful only when verifying checksums"
	case s.Status && !s.Check:
		return "the --status option is meaningful only when verifying checksums"
	case s.Warn && !s.Check:
		return "the --warn option is meaningful only when verifying checksums"
	case s.Quiet && !s.Check:
		return "the --quiet option is meaningful only when verifying checksums"
	case s.Strict && !s.Check:
		return "the --strict option is meaningful only when verifying checksums"
	}
	return ""
}

// conflicts returns the first problem GNU finds with the options, in its
// order, then those of hashlanes' own options.
func (s *Settings) conflicts() string {
	if s.Tag && s.Binary == 0 {
		return "--tag does not support --text mode"
	}
	if msg := s.checkConflicts(true); msg != "" {
		return msg
	}
	switch {
	case s.Check && len(s.Algs) > 1:
		return "--check verifies one algorithm at a time (or, without -a, each line's own)"
	case s.Check && (s.Recursive || s.HasFilesFrom):
		return "--recursive and --files-from are meaningless when verifying checksums"
	case s.AuditDir != "" && !s.Check:
		return "--audit is meaningful only with hashlanes check"
	case s.JSON && (s.Tag || s.Zero):
		return "--json does not combine with --tag or --zero"
	case s.Null && !s.HasFilesFrom:
		return "the --null option is meaningful only with --files-from"
	case s.Follow && !s.Recursive:
		return "the --follow option is meaningful only with --recursive"
	}
	return ""
}

// ParseAlgorithms reads hashlanes sum's and check's -a: the library's
// algorithms by any name ParseAlgorithm takes, and blake2b-N and sm3.
func ParseAlgorithms(list string) ([]*method.Method, error) {
	var algs []*method.Method
	for name := range strings.SplitSeq(list, ",") {
		name = strings.TrimSpace(name)
		m, ok := method.Named(strings.ToLower(name))
		if a, err := hashlanes.ParseAlgorithm(name); err == nil {
			m, ok = method.Of(a), true
		}
		if !ok || m.Style != method.DigestLine {
			return nil, fmt.Errorf("unknown algorithm %s (known: %s)", Quote(name), method.Known())
		}
		if !slices.Contains(algs, m) {
			algs = append(algs, m)
		}
	}
	return algs, nil
}

// Parsed is what a command line asks for beside its settings.
type Parsed struct {
	Operands      []string
	Help, Version bool
	// Problem is what is wrong with the command line, in GNU's words;
	// Try: GNU follows it with "Try '... --help' for more information."
	Problem string
	Try     bool
}

// Parse reads the tool's options and operands from args (after the
// program or subcommand name) into s, and checks them as GNU does, in its
// order.
func (s *Settings) Parse(args []string) Parsed {
	table := gnuOptions
	switch {
	case s.Fam != nil && s.Fam.Cksum:
		table = cksumOptions
	case s.Fam != nil && s.Fam.Sum:
		table = sumOptions
	case s.Fam != nil:
		table = b2Options
	case !s.DropIn:
		table = append(append([]Option(nil), gnuOptions...), extraOptions...)
	}
	s.Binary, s.Jobs, s.Progress = -1, 0, -1
	opts, operands, err := Getopt(table, args)
	for _, o := range opts {
		if s.Fam != nil {
			handled, err := s.Fam.option(s, o)
			if _, bad := err.(errInvalidLength); bad {
				return Parsed{Problem: err.Error()}
			}
			if err != nil {
				return Parsed{Problem: err.Error(), Try: true}
			}
			if handled {
				continue
			}
		}
		switch o.Opt.Long {
		case "binary":
			s.Binary = 1
		case "check":
			s.Check = true
		case "ignore-missing":
			s.IgnoreMissing = true
		case "quiet":
			s.Status, s.Warn, s.Quiet = false, false, true
		case "status":
			s.Status, s.Warn, s.Quiet = true, false, false
		case "warn":
			s.Status, s.Warn, s.Quiet = false, true, false
		case "strict":
			s.Strict = true
		case "tag":
			s.Tag, s.Binary = true, 1
		case "text":
			s.Binary = 0
		case "zero":
			s.Zero = true
		case "help":
			return Parsed{Help: true}
		case "version":
			return Parsed{Version: true}
		case "algorithm":
			algs, err := ParseAlgorithms(o.Val)
			if err != nil {
				return Parsed{Problem: err.Error(), Try: true}
			}
			s.Algs, s.AlgFixed = algs, true
		case "recursive":
			s.Recursive = true
		case "follow":
			s.Follow = true
		case "files-from":
			s.FilesFrom, s.HasFilesFrom = o.Val, true
		case "null":
			s.Null = true
		case "json":
			s.JSON = true
		case "jobs":
			n, err := strconv.Atoi(o.Val)
			if err != nil || n < 1 {
				return Parsed{Problem: fmt.Sprintf("invalid number of jobs: %s", Quote(o.Val)), Try: true}
			}
			s.Jobs = n
		case "audit":
			s.AuditDir = o.Val
		case "progress":
			s.Progress = 1
		case "no-progress":
			s.Progress = 0
		}
	}
	if err != nil {
		return Parsed{Problem: err.Error(), Try: true}
	}
	if s.Fam != nil {
		if msg, try := s.Fam.settle(s, len(operands)); msg != "" {
			if try {
				return Parsed{Problem: msg, Try: true}
			}
			return Parsed{Problem: msg}
		}
		if msg := s.checkConflicts(!s.Fam.Cksum || s.Fam.explicitTag); msg != "" {
			return Parsed{Problem: msg, Try: true}
		}
		if s.Fam.Raw && len(operands) > 1 {
			return Parsed{Problem: "the --raw option is not supported with multiple files"}
		}
	} else if msg := s.conflicts(); msg != "" {
		return Parsed{Problem: msg, Try: true}
	}
	if s.HasFilesFrom {
		if len(operands) > 0 {
			return Parsed{Problem: fmt.Sprintf("extra operand %s\nfile operands cannot be combined with --files-from", Quote(operands[0])), Try: true}
		}
	} else if len(operands) == 0 {
		if s.AuditDir != "" { // reading a list from a terminal or an empty input would make every file NEW
			return Parsed{Problem: "--audit needs the lists to audit against (- for standard input)", Try: true}
		}
		operands = []string{"-"}
	}
	return Parsed{Operands: operands}
}
