package main

import (
	"context"
	"fmt"
	"io"
	"maps"
	"slices"
	"strconv"
	"strings"
	"sync"

	"github.com/hashlanes/hashlanes"
	"github.com/hashlanes/hashlanes/cmd/hashlanes/internal/files"
	"github.com/hashlanes/hashlanes/cmd/hashlanes/internal/method"
	"github.com/hashlanes/hashlanes/cmd/hashlanes/internal/sumfile"
)

// dropIns are the program names under which hashlanes behaves as the GNU
// coreutils tool of that name: the algorithm's name and "sum".
var dropIns = func() map[string]hashlanes.Algorithm {
	m := map[string]hashlanes.Algorithm{}
	for _, a := range []hashlanes.Algorithm{hashlanes.MD5, hashlanes.SHA1, hashlanes.SHA224, hashlanes.SHA256, hashlanes.SHA384, hashlanes.SHA512} {
		m[a.String()+"sum"] = a
	}
	return m
}()

// dropInNames are every program name under which hashlanes behaves as
// another checksum tool, sorted: the fixed-algorithm ones, b2sum, cksum
// and sum, and b3sum.
func dropInNames() []string {
	return slices.Sorted(slices.Values(append(slices.Collect(maps.Keys(dropIns)), "b2sum", "b3sum", "cksum", "sum")))
}

// The GNU options, in getopt's table order (it decides how ambiguities
// are listed), then hashlanes' own.
var gnuOptions = []option{
	{long: "binary", short: 'b'},
	{long: "check", short: 'c'},
	{long: "ignore-missing"},
	{long: "quiet"},
	{long: "status"},
	{long: "strict"},
	{long: "tag"},
	{long: "text", short: 't'},
	{long: "warn", short: 'w'},
	{long: "zero", short: 'z'},
	{long: "help"},
	{long: "version"},
}

var extraOptions = []option{
	{long: "algorithm", short: 'a', arg: true},
	{long: "recursive", short: 'r'},
	{long: "follow"},
	{long: "files-from", arg: true},
	{long: "null", short: '0'},
	{long: "json"},
	{long: "jobs", short: 'j', arg: true},
	{long: "progress"},
	{long: "no-progress"},
	{long: "audit", arg: true},
}

// command is one run of the checksum tool: the drop-in (md5sum, ...) or
// hashlanes sum / check.
type command struct {
	prog   string // argv[0] as invoked: every message starts with it
	name   string // the name for --help and --version
	dropIn bool
	fam    *family // b2sum, cksum and sum
	stdin  io.Reader
	out    *sumfile.Writer
	stderr io.Writer
	ctx    context.Context

	check                bool
	binary               int // -1 unset, 0 text, 1 binary
	tag, zero            bool
	ignoreMissing, quiet bool
	status, warn, strict bool
	algs                 []*method.Method
	algFixed             bool // -a given (or a drop-in): check lines of that algorithm only
	recursive, follow    bool
	filesFrom            string
	hasFilesFrom, null   bool
	json                 bool
	auditDir             string // check --audit: the tree the lists are of
	threads              int    // cores a split file is hashed on (b3sum --num-threads); 0: GOMAXPROCS
	noMmap               bool   // b3sum --no-mmap: split files are read, on one core
	jobs                 int
	progress             int // -1 when stderr is a terminal and the job is long, 0 off, 1 on

	failed      bool
	wantSizes   bool   // the progress line needs the sizes of walked files
	clearStatus func() // erases the progress line, if one is drawn
}

const exitFailure = 1

// usageError reports a bad command line the GNU way.
func (c *command) usageError(msg string) int {
	c.errorf("%s", msg)
	fmt.Fprintf(c.stderr, "Try '%s --help' for more information.\n", c.helpCommand())
	return exitFailure
}

// helpCommand is the command line that prints this command's help.
func (c *command) helpCommand() string {
	if c.dropIn {
		return c.prog
	}
	return c.prog + " " + strings.TrimPrefix(c.name, "hashlanes ")
}

// errorf prints "prog: message" on stderr, after what stdout has so far.
func (c *command) errorf(format string, args ...any) {
	c.out.Flush()
	if c.clearStatus != nil {
		c.clearStatus() // the progress line is on stderr's terminal
	}
	fmt.Fprintf(c.stderr, "%s: %s\n", c.prog, fmt.Sprintf(format, args...))
}

func (c *command) fileError(name string, err error) {
	c.errorf("%s: %s", quoteName(name), strerror(err))
	c.failed = true
}

// runDigest runs the checksum tool with args (after the program or
// subcommand name).
func runDigest(c *command, args []string) int {
	table := gnuOptions
	switch {
	case c.fam != nil && c.fam.cksum:
		table = cksumOptions
	case c.fam != nil && c.fam.sum:
		table = sumOptions
	case c.fam != nil:
		table = b2Options
	case !c.dropIn:
		table = append(append([]option(nil), gnuOptions...), extraOptions...)
	}
	c.binary, c.jobs, c.progress = -1, 0, -1
	opts, operands, err := getopt(table, args)
	for _, o := range opts {
		if c.fam != nil {
			handled, err := c.fam.option(c, o)
			if _, bad := err.(errInvalidLength); bad {
				c.errorf("%s", err)
				return exitFailure
			}
			if err != nil {
				return c.usageError(err.Error())
			}
			if handled {
				continue
			}
		}
		switch o.opt.long {
		case "binary":
			c.binary = 1
		case "check":
			c.check = true
		case "ignore-missing":
			c.ignoreMissing = true
		case "quiet":
			c.status, c.warn, c.quiet = false, false, true
		case "status":
			c.status, c.warn, c.quiet = true, false, false
		case "warn":
			c.status, c.warn, c.quiet = false, true, false
		case "strict":
			c.strict = true
		case "tag":
			c.tag, c.binary = true, 1
		case "text":
			c.binary = 0
		case "zero":
			c.zero = true
		case "help":
			c.help()
			return 0
		case "version":
			fmt.Fprintf(c.out, "%s (hashlanes) %s\n", c.name, buildVersion())
			return c.finish()
		case "algorithm":
			algs, err := parseAlgorithms(o.val)
			if err != nil {
				return c.usageError(err.Error())
			}
			c.algs, c.algFixed = algs, true
		case "recursive":
			c.recursive = true
		case "follow":
			c.follow = true
		case "files-from":
			c.filesFrom, c.hasFilesFrom = o.val, true
		case "null":
			c.null = true
		case "json":
			c.json = true
		case "jobs":
			n, err := strconv.Atoi(o.val)
			if err != nil || n < 1 {
				return c.usageError(fmt.Sprintf("invalid number of jobs: %s", quoteName(o.val)))
			}
			c.jobs = n
		case "audit":
			c.auditDir = o.val
		case "progress":
			c.progress = 1
		case "no-progress":
			c.progress = 0
		}
	}
	if err != nil {
		return c.usageError(err.Error())
	}
	if c.fam != nil {
		if msg, try := c.fam.settle(c, len(operands)); msg != "" {
			if try {
				return c.usageError(msg)
			}
			c.errorf("%s", msg)
			return exitFailure
		}
		if msg := c.checkConflicts(!c.fam.cksum || c.fam.explicitTag); msg != "" {
			return c.usageError(msg)
		}
		if c.fam.raw && len(operands) > 1 {
			c.errorf("the --raw option is not supported with multiple files")
			return exitFailure
		}
	} else if msg := c.conflicts(); msg != "" {
		return c.usageError(msg)
	}
	if c.hasFilesFrom {
		if len(operands) > 0 {
			return c.usageError(fmt.Sprintf("extra operand %s\nfile operands cannot be combined with --files-from", quoteName(operands[0])))
		}
	} else if len(operands) == 0 {
		if c.auditDir != "" { // reading a list from a terminal or an empty input would make every file NEW
			return c.usageError("--audit needs the lists to audit against (- for standard input)")
		}
		operands = []string{"-"}
	}

	ctx, stop := interruptible()
	defer stop()
	c.ctx = ctx
	switch {
	case c.check && c.auditDir != "":
		c.runAudit(operands)
	case c.check:
		c.runCheck(operands)
	default:
		c.runSum(operands)
	}
	if ctx.Err() != nil {
		c.out.Flush()
		return dieBySignal()
	}
	return c.finish()
}

// checkConflicts are GNU's checks of the options that belong with --check
// or without it, in its order; cksum has no --tag error (its --tag sets
// binary mode, which the next check finds).
func (c *command) checkConflicts(tagError bool) string {
	switch {
	case c.zero && c.check:
		return "the --zero option is not supported when verifying checksums"
	case tagError && c.tag && c.check:
		return "the --tag option is meaningless when verifying checksums"
	case c.binary >= 0 && c.check:
		return "the --binary and --text options are meaningless when verifying checksums"
	case c.ignoreMissing && !c.check:
		return "the --ignore-missing option is meaningful only when verifying checksums"
	case c.status && !c.check:
		return "the --status option is meaningful only when verifying checksums"
	case c.warn && !c.check:
		return "the --warn option is meaningful only when verifying checksums"
	case c.quiet && !c.check:
		return "the --quiet option is meaningful only when verifying checksums"
	case c.strict && !c.check:
		return "the --strict option is meaningful only when verifying checksums"
	}
	return ""
}

// conflicts returns the first problem GNU finds with the options, in its
// order, then those of hashlanes' own options.
func (c *command) conflicts() string {
	if c.tag && c.binary == 0 {
		return "--tag does not support --text mode"
	}
	if msg := c.checkConflicts(true); msg != "" {
		return msg
	}
	switch {
	case c.check && len(c.algs) > 1:
		return "--check verifies one algorithm at a time (or, without -a, each line's own)"
	case c.check && (c.recursive || c.hasFilesFrom):
		return "--recursive and --files-from are meaningless when verifying checksums"
	case c.auditDir != "" && !c.check:
		return "--audit is meaningful only with hashlanes check"
	case c.json && (c.tag || c.zero):
		return "--json does not combine with --tag or --zero"
	case c.null && !c.hasFilesFrom:
		return "the --null option is meaningful only with --files-from"
	case c.follow && !c.recursive:
		return "the --follow option is meaningful only with --recursive"
	}
	return ""
}

// finish flushes the output and returns the exit status; a failed write
// is an error, as in GNU's close_stdout.
func (c *command) finish() int {
	if err := c.out.Flush(); err != nil {
		fmt.Fprintf(c.stderr, "%s: write error: %s\n", c.prog, strerror(err))
		return exitFailure
	}
	if c.failed {
		return exitFailure
	}
	return 0
}

// parseAlgorithms reads hashlanes sum's and check's -a: the library's
// algorithms by any name ParseAlgorithm takes, and blake2b-N and sm3.
func parseAlgorithms(list string) ([]*method.Method, error) {
	var algs []*method.Method
	for name := range strings.SplitSeq(list, ",") {
		name = strings.TrimSpace(name)
		m, ok := method.Named(strings.ToLower(name))
		if a, err := hashlanes.ParseAlgorithm(name); err == nil {
			m, ok = method.Of(a), true
		}
		if !ok || m.Style != method.DigestLine {
			return nil, fmt.Errorf("unknown algorithm %s (known: %s)", quoteName(name), method.Known())
		}
		if !slices.Contains(algs, m) {
			algs = append(algs, m)
		}
	}
	return algs, nil
}

// stdinTurns lets streams read standard input one after another in operand
// order, as GNU's sequential reads would: the first "-" reads it to its
// end, a later one finds it at end (or reads on, from a terminal).
type stdinTurns struct {
	mu   sync.Mutex
	cond *sync.Cond
	next int
}

func newStdinTurns() *stdinTurns {
	t := &stdinTurns{}
	t.cond = sync.NewCond(&t.mu)
	return t
}

func (t *stdinTurns) wait(turn int) {
	t.mu.Lock()
	for t.next != turn {
		t.cond.Wait()
	}
	t.mu.Unlock()
}

func (t *stdinTurns) done() {
	t.mu.Lock()
	t.next++
	t.cond.Broadcast()
	t.mu.Unlock()
}

// stdinStream is one turn at standard input; Close hands it on.
type stdinStream struct {
	r     io.Reader
	turns *stdinTurns
}

func (s *stdinStream) Read(p []byte) (int, error) { return s.r.Read(p) }
func (s *stdinStream) Close() error               { s.turns.done(); return nil }

// openStream opens a named file, or standard input for "-" (turn is its
// place among the "-" operands).
func (c *command) openStream(name string, turn int, turns *stdinTurns) (io.Reader, error) {
	if name == "-" {
		turns.wait(turn)
		return &stdinStream{c.stdin, turns}, nil
	}
	return files.Open(name)
}
