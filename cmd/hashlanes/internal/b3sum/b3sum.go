// Package b3sum is the b3sum drop-in: the options, output, --check and
// messages of the BLAKE3 team's b3sum (1.2.0, Debian's), many files at
// once, a large file's chunk tree on every core (internal/blake3tree),
// small inputs on github.com/zeebo/blake3.
package b3sum

import (
	"encoding/hex"
	"errors"
	"fmt"
	"hash"
	"io"
	"os"
	"runtime"
	"strconv"
	"strings"
	"syscall"

	"github.com/hashlanes/hashlanes"
	"github.com/hashlanes/hashlanes/cmd/hashlanes/internal/filesum"
	"github.com/hashlanes/hashlanes/cmd/hashlanes/internal/gnu"
	"github.com/hashlanes/hashlanes/cmd/hashlanes/internal/interrupt"
	"github.com/hashlanes/hashlanes/cmd/hashlanes/internal/method"
	"github.com/hashlanes/hashlanes/cmd/hashlanes/internal/sumfile"
	"github.com/hashlanes/hashlanes/internal/blake3tree"
	"github.com/zeebo/blake3"
)

const b3sumHelp = `b3sum 1.2.0

USAGE:
    b3sum [FLAGS] [OPTIONS] [FILE]...

FLAGS:
    -c, --check       Reads BLAKE3 sums from the [file]s and checks them
    -h, --help        Prints help information
        --keyed       Uses the keyed mode. The secret key is read from standard
                      input, and it must be exactly 32 raw bytes.
        --no-mmap     Disables memory mapping. Currently this also disables
                      multithreading.
        --no-names    Omits filenames in the output
        --quiet       Skips printing OK for each successfully verified file.
                      Must be used with --check.
        --raw         Writes raw output bytes to stdout, rather than hex.
                      --no-names is implied. In this case, only a single
                      input is allowed.
    -V, --version     Prints version information

OPTIONS:
        --derive-key <CONTEXT>    Uses the key derivation mode, with the given
                                  context string. Cannot be used with --keyed.
    -l, --length <LEN>            The number of output bytes, prior to hex
                                  encoding (default 32)
        --num-threads <NUM>       The maximum number of threads to use. By
                                  default, this is the number of logical cores.
                                  If this flag is omitted, or if its value is 0,
                                  RAYON_NUM_THREADS is also respected.

ARGS:
    <FILE>...    Files to hash, or checkfiles to check. When no file is given,
                 or when - is given, read standard input.

This is hashlanes, which hashes many files at once and a large one on every
core; its output, messages and exit codes are those of b3sum 1.2.0.
`

// b3args is a b3sum command line.
type b3args struct {
	check, keyed, noMmap, noNames, quiet, raw bool
	deriveKey, length, threads                *string
	files                                     []string
}

// b3clapError is what clap prints for a bad command line, and the usage
// line it shows.
func b3clapError(stderr io.Writer, msg, usage string) int {
	fmt.Fprintf(stderr, "error: %s\n\nUSAGE:\n    %s\n\nFor more information try --help\n", msg, usage)
	return 1
}

// parseB3 reads b3sum's command line as clap does: flags and options in
// any order, "--" ends them, "--length=4", "-l4" and "-cl 4" forms.
func parseB3(args []string, stderr io.Writer) (*b3args, int, bool) {
	a := &b3args{}
	str := func(s string) *string { return &s }
	for i := 0; i < len(args); i++ {
		arg := args[i]
		if arg == "--" {
			a.files = append(a.files, args[i+1:]...)
			break
		}
		value := func(name string, inline string, has bool) (*string, bool) {
			if has {
				return str(inline), true
			}
			if i+1 < len(args) {
				i++
				return str(args[i]), true
			}
			b3clapError(stderr, fmt.Sprintf("The argument '%s' requires a value but none was supplied", name), "b3sum [FLAGS] [OPTIONS] [FILE]...")
			return nil, false
		}
		if long, ok := strings.CutPrefix(arg, "--"); ok {
			name, inline, has := strings.Cut(long, "=")
			var ok bool
			switch name {
			case "check":
				a.check = true
			case "help":
				return nil, -1, true
			case "version":
				return nil, -2, true
			case "keyed":
				a.keyed = true
			case "no-mmap":
				a.noMmap = true
			case "no-names":
				a.noNames = true
			case "quiet":
				a.quiet = true
			case "raw":
				a.raw = true
			case "derive-key":
				if a.deriveKey, ok = value("--derive-key <CONTEXT>", inline, has); !ok {
					return nil, 1, false
				}
			case "length":
				if a.length, ok = value("--length <LEN>", inline, has); !ok {
					return nil, 1, false
				}
			case "num-threads":
				if a.threads, ok = value("--num-threads <NUM>", inline, has); !ok {
					return nil, 1, false
				}
			default:
				return nil, b3clapError(stderr, fmt.Sprintf("Found argument '%s' which wasn't expected, or isn't valid in this context", arg), "b3sum [FLAGS] [OPTIONS] [FILE]..."), false
			}
			continue
		}
		if len(arg) > 1 && arg[0] == '-' {
			for k := 1; k < len(arg); k++ {
				switch arg[k] {
				case 'c':
					a.check = true
				case 'h':
					return nil, -1, true
				case 'V':
					return nil, -2, true
				case 'l':
					var ok bool
					if a.length, ok = value("--length <LEN>", arg[k+1:], k+1 < len(arg)); !ok {
						return nil, 1, false
					}
					k = len(arg)
				default:
					return nil, b3clapError(stderr, fmt.Sprintf("Found argument '-%c' which wasn't expected, or isn't valid in this context", arg[k]), "b3sum [FLAGS] [OPTIONS] [FILE]..."), false
				}
			}
			continue
		}
		a.files = append(a.files, arg)
	}
	conflict := func(x, y, usage string) (*b3args, int, bool) {
		return nil, b3clapError(stderr, fmt.Sprintf("The argument '%s' cannot be used with '%s'", x, y), usage), false
	}
	switch {
	case a.keyed && a.deriveKey != nil:
		return conflict("--keyed", "--derive-key <CONTEXT>", "b3sum <FILE>... --derive-key <CONTEXT> --keyed")
	case a.check && a.keyed:
		return conflict("--keyed", "--check", "b3sum <FILE>... --check --keyed")
	case a.check && a.deriveKey != nil:
		return conflict("--derive-key <CONTEXT>", "--check", "b3sum --check --derive-key <CONTEXT>")
	case a.check && a.raw:
		return conflict("--raw", "--check", "b3sum --check --raw")
	case a.check && a.noNames:
		return conflict("--no-names", "--check", "b3sum --check --no-names")
	case a.check && a.length != nil:
		return conflict("--length <LEN>", "--check", "b3sum --check --length <LEN>")
	case a.quiet && !a.check:
		fmt.Fprint(stderr, "error: The following required arguments were not provided:\n    --check\n\nUSAGE:\n    b3sum --check --quiet\n\nFor more information try --help\n")
		return nil, 1, false
	}
	if len(a.files) == 0 {
		a.files = []string{"-"}
	}
	return a, 0, true
}

// rustIOError is an I/O error as Rust's io::Error displays it.
func rustIOError(err error) string {
	var errno syscall.Errno
	if errors.As(err, &errno) {
		return fmt.Sprintf("%s (os error %d)", gnu.Strerror(err), int(errno))
	}
	return gnu.Strerror(err)
}

// b3method is what b3sum computes: the mode and the output length.
type b3method struct {
	mode   blake3tree.Mode
	key    []byte // keyed
	ctx    *string
	outLen int
}

func (m *b3method) newHash() hash.Hash {
	var h *blake3.Hasher
	switch {
	case m.key != nil:
		h, _ = blake3.NewKeyed(m.key)
	case m.ctx != nil:
		h = blake3.NewDeriveKey(*m.ctx)
	default:
		h = blake3.New()
	}
	return &b3hasher{h, m.outLen}
}

// b3hasher is zeebo's hasher with any output length.
type b3hasher struct {
	*blake3.Hasher
	n int
}

func (h *b3hasher) Sum(b []byte) []byte {
	out := make([]byte, h.n)
	h.Digest().Read(out)
	return append(b, out...)
}
func (h *b3hasher) Size() int { return h.n }

// Main runs b3sum with args (after the program name); version is the
// build's, for --version.
func Main(prog, version string, args []string, stdin io.Reader, stdout, stderr io.Writer) int {
	a, code, ok := parseB3(args, stderr)
	switch code {
	case -1:
		fmt.Fprint(stdout, b3sumHelp)
		return 0
	case -2:
		fmt.Fprintf(stdout, "b3sum (hashlanes) %s\n", version)
		return 0
	}
	if !ok {
		return code
	}
	threads := runtime.GOMAXPROCS(0)
	if a.threads != nil {
		n, err := strconv.ParseUint(*a.threads, 10, 64)
		if err != nil {
			fmt.Fprintf(stderr, "Error: Failed to parse num threads.\n\nCaused by:\n    %s\n", rustParseIntError(*a.threads))
			return 1
		}
		if n > 0 {
			threads = int(min(n, 1024))
		}
	}
	if a.noMmap {
		threads = 1
	}
	m := &b3method{mode: blake3tree.Hash(), outLen: 32}
	if a.keyed {
		key := make([]byte, 33)
		n, err := io.ReadFull(stdin, key)
		if err != nil && err != io.ErrUnexpectedEOF && err != io.EOF {
			fmt.Fprintf(stderr, "Error: %s\n", rustIOError(err))
			return 1
		}
		switch {
		case n < 32:
			fmt.Fprintf(stderr, "Error: expected 32 key bytes from stdin, found %d\n", n)
			return 1
		case n > 32:
			fmt.Fprintf(stderr, "Error: read more than 32 key bytes from stdin\n")
			return 1
		}
		m.key = key[:32]
		m.mode = blake3tree.Keyed((*[32]byte)(m.key))
		stdin = strings.NewReader("") // the key was standard input
	}
	if a.deriveKey != nil {
		m.ctx = a.deriveKey
		m.mode = blake3tree.DeriveKey(*a.deriveKey)
	}
	if a.raw && len(a.files) > 1 {
		fmt.Fprintln(stderr, "Error: Only one filename can be provided when using --raw")
		return 1
	}
	ctx, stop := interrupt.Context()
	defer stop()
	b := &b3run{a: a, m: m, stdin: stdin, out: sumfile.NewWriter(stdout), stderr: stderr,
		job: &filesum.Job{Ctx: ctx, Stdin: stdin, Threads: threads, NoMmap: a.noMmap}}
	var status int
	if a.check {
		status = b.check()
	} else {
		status = b.sum()
	}
	if ctx.Err() != nil {
		b.out.Flush()
		return interrupt.Exit()
	}
	if err := b.out.Flush(); err != nil {
		fmt.Fprintf(stderr, "Error: %s\n", rustIOError(err))
		return 1
	}
	return status
}

// rustParseIntError is Rust's message for a number that does not parse.
func rustParseIntError(s string) string {
	if s == "" {
		return "cannot parse integer from empty string"
	}
	return "invalid digit found in string"
}

// b3run is one run of b3sum: its command line, what it hashes with, its
// input and output.
type b3run struct {
	a      *b3args
	m      *b3method
	stdin  io.Reader
	out    *sumfile.Writer
	stderr io.Writer
	job    *filesum.Job
}

// method is what the command hashes with: the chunk tree for large files;
// for small ones the library's BLAKE3 where it is the plain 32-byte hash
// (short files in lanes across files, the rest on its hasher), else
// zeebo's hasher.
func (m *b3method) method() *method.Method {
	if m.mode == blake3tree.Hash() && m.outLen == 32 {
		lib, _ := method.Named("blake3")
		return lib
	}
	return &method.Method{Name: "blake3", Tag: "BLAKE3", Size: m.outLen, NewHash: m.newHash, Split: method.Blake3Splitter(m.mode, m.outLen)}
}

// digests hashes names in order, handing each result to done.
func (b *b3run) digests(names []string, done func(i int, sum []byte, err error)) {
	items := make([]filesum.Item, len(names))
	turn := 0
	for i, n := range names {
		items[i] = filesum.Item{Name: n, Size: -1}
		if n == "-" {
			items[i].StdinTurn = turn
			turn++
		}
	}
	b.job.Items([]*method.Method{b.m.method()}, items, func(i int, s hashlanes.StreamSum) {
		var sum []byte
		if s.Err == nil {
			sum = s.Sums[0]
		}
		done(i, sum, s.Err)
	})
}

// sum prints each file's digest as b3sum does.
func (b *b3run) sum() int {
	status := 0
	if b.a.length != nil {
		n, err := strconv.ParseUint(*b.a.length, 10, 64)
		if err != nil || n > 1<<30 {
			// b3sum parses the length for each file it hashes.
			for _, name := range b.a.files {
				fmt.Fprintf(b.stderr, "b3sum: %s: Failed to parse length.\n", name)
			}
			return 1
		}
		b.m.outLen = int(n)
	}
	b.digests(b.a.files, func(i int, sum []byte, err error) {
		name := b.a.files[i]
		if err != nil {
			b.out.Flush()
			fmt.Fprintf(b.stderr, "b3sum: %s: %s\n", name, rustIOError(err))
			status = 1
			return
		}
		switch {
		case b.a.raw:
			b.out.Write(sum)
		case b.a.noNames:
			b.out.Write([]byte(hex.EncodeToString(sum) + "\n"))
		default:
			b.out.Write(sumfile.AppendB3Line(nil, sum, name))
		}
	})
	return status
}

// check verifies each checkfile as b3sum --check does.
func (b *b3run) check() int {
	failed := false
	for _, list := range b.a.files {
		var data []byte
		var err error
		if list == "-" {
			data, err = io.ReadAll(b.stdin)
		} else {
			data, err = os.ReadFile(list)
		}
		if err != nil {
			b.out.Flush()
			fmt.Fprintf(b.stderr, "Error: %s\n", rustIOError(err))
			return 1
		}
		var lines []sumfile.B3Line
		var parseErr []error
		for len(data) > 0 {
			raw, rest, _ := strings.Cut(string(data), "\n")
			data = []byte(rest)
			l, err := sumfile.ParseB3Line(raw)
			lines = append(lines, l)
			parseErr = append(parseErr, err)
		}
		paths := make([]string, len(lines))
		for i, l := range lines {
			paths[i] = l.Path
		}
		// Lines that did not parse are reported in their place; their
		// files are not read.
		idx := make([]int, 0, len(lines))
		for i := range lines {
			if parseErr[i] == nil {
				idx = append(idx, i)
			}
		}
		next := 0
		report := func(upTo int) {
			for ; next < upTo; next++ {
				if parseErr[next] != nil {
					b.out.Flush()
					fmt.Fprintf(b.stderr, "b3sum: %s\n", parseErr[next])
					failed = true
				}
			}
		}
		sel := make([]string, len(idx))
		for k, i := range idx {
			sel[k] = paths[i]
		}
		b.digests(sel, func(k int, sum []byte, err error) {
			i := idx[k]
			report(i)
			next = i + 1
			l := lines[i]
			switch {
			case err != nil:
				b.out.Write([]byte(fmt.Sprintf("%s: FAILED (%s)\n", l.Shown, rustIOError(err))))
				failed = true
			case string(sum) == string(l.Want):
				if !b.a.quiet {
					b.out.Write([]byte(l.Shown + ": OK\n"))
				}
			default:
				b.out.Write([]byte(l.Shown + ": FAILED\n"))
				failed = true
			}
		})
		report(len(lines))
	}
	if failed {
		return 1
	}
	return 0
}
