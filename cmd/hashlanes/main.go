// Command hashlanes checksums files and trees, many at once in SIMD lanes,
// and reports what its engine runs on this machine. Installed (or linked)
// as md5sum, sha1sum, sha224sum, sha256sum, sha384sum, sha512sum, b2sum,
// cksum or sum it is a drop-in for the GNU coreutils tool of that name, and
// as b3sum for the BLAKE3 team's.
package main

import (
	"fmt"
	"io"
	"os"
	"path/filepath"
	"runtime"
	"runtime/debug"
	"strings"
	"syscall"

	"github.com/hashlanes/hashlanes"
	"github.com/hashlanes/hashlanes/cmd/hashlanes/internal/b3sum"
	"github.com/hashlanes/hashlanes/cmd/hashlanes/internal/gnu"
	"github.com/hashlanes/hashlanes/cmd/hashlanes/internal/method"
	"github.com/hashlanes/hashlanes/cmd/hashlanes/internal/report"
	"github.com/hashlanes/hashlanes/cmd/hashlanes/internal/sumfile"
)

func main() {
	if _, set := os.LookupEnv("GOGC"); !set {
		// The command's live heap is the list of names to hash and fixed
		// buffers; half the collector's default headroom keeps a tree like
		// /usr under the 64 MiB bound at 1-2% of the CPU in collection
		// (docs/figures.md, "The result window").
		debug.SetGCPercent(gcPercent)
	}
	os.Exit(run(os.Args, os.Stdin, os.Stdout, os.Stderr))
}

// gcPercent is the collector's headroom over the live heap unless GOGC
// says otherwise.
const gcPercent = 50

const usage = `Usage: hashlanes COMMAND [ARG]...

Commands:
  sum [OPTION]... [FILE]...     print checksums (sha256 unless -a says otherwise)
  check [OPTION]... [FILE]...   verify checksum lists; each line's algorithm
                                is detected from its tag or digest length
  bench [OPTION]... [SUITE]...  measure algorithms, lanes, small messages and
                                ways of hashing files on this machine
  install-links [--force] DIR   create md5sum, sha1sum, ..., sha512sum, b2sum,
                                b3sum, cksum and sum in DIR, links to this
                                program that behave as those tools
  tune [OPTION]...              measure the kernels on this machine with care,
                                print the crossover tables, save the rates
  version                       the build, this CPU's features, the kernels
                                each algorithm runs and which it picks

'hashlanes COMMAND --help' lists a command's options.
`

// run is main with its environment passed in; argv[0] decides between
// the drop-in tools and the hashlanes commands.
func run(argv []string, stdin io.Reader, stdout, stderr io.Writer) int {
	prog := argv[0]
	base := strings.TrimSuffix(filepath.Base(prog), ".exe")
	if a, ok := gnu.DropIns[base]; ok {
		c := newCommand(prog, base, stdin, stdout, stderr)
		c.DropIn, c.Algs, c.AlgFixed = true, method.OfEach(a), true
		return runDigest(c, argv[1:])
	}
	if base == "b3sum" {
		return b3sum.Main(prog, buildVersion(), argv[1:], stdin, stdout, stderr)
	}
	if base == "b2sum" || base == "cksum" || base == "sum" {
		c := newCommand(prog, base, stdin, stdout, stderr)
		c.DropIn, c.Fam, c.AlgFixed = true, gnu.NewFamily(base), true
		return runDigest(c, argv[1:])
	}
	args := argv[1:]
	if len(args) == 0 {
		fmt.Fprint(stderr, usage)
		return 2
	}
	switch args[0] {
	case "sum", "check":
		c := newCommand(prog, "hashlanes "+args[0], stdin, stdout, stderr)
		c.Check = args[0] == "check"
		return runDigest(c, args[1:])
	case "bench":
		return report.Main(prog, args[1:], stdout, stderr)
	case "install-links":
		return installLinks(prog, args[1:], stdout, stderr)
	case "tune":
		return runTune(prog, args[1:], stdout, stderr)
	case "version":
		if len(args) > 1 {
			fmt.Fprintf(stderr, "hashlanes version: unexpected argument %q\n", args[1])
			return 2
		}
		version(stdout, stderr)
		return 0
	case "--version", "-version":
		fmt.Fprintf(stdout, "hashlanes %s %s %s/%s\n", buildVersion(), runtime.Version(), runtime.GOOS, runtime.GOARCH)
		return 0
	case "help", "-h", "-help", "--help":
		fmt.Fprint(stdout, usage)
		return 0
	}
	fmt.Fprintf(stderr, "hashlanes: unknown command %q\n%s", args[0], usage)
	return 2
}

func newCommand(prog, name string, stdin io.Reader, stdout, stderr io.Writer) *command {
	return &command{Settings: &gnu.Settings{Prog: prog, Name: name}, stdin: stdin, out: sumfile.NewWriter(stdout), stderr: stderr}
}

// buildVersion is the module version the binary was built from (go
// install ...@v0.1.0), or for a build of a working tree "(devel)" and the
// revision, when the build recorded it.
func buildVersion() string {
	bi, ok := debug.ReadBuildInfo()
	if !ok {
		return "(devel)"
	}
	if v := bi.Main.Version; v != "" && v != "(devel)" {
		return v
	}
	rev, dirty := "", ""
	for _, s := range bi.Settings {
		switch {
		case s.Key == "vcs.revision" && len(s.Value) >= 12:
			rev = s.Value[:12]
		case s.Key == "vcs.modified" && s.Value == "true":
			dirty = "+dirty"
		}
	}
	if rev == "" {
		return "(devel)"
	}
	return "(devel) " + rev + dirty
}

func version(stdout, stderr io.Writer) {
	fmt.Fprintf(stdout, "hashlanes %s %s %s/%s\n", buildVersion(), runtime.Version(), runtime.GOOS, runtime.GOARCH)
	fmt.Fprintf(stdout, "cpu: %s (detected %s); features: %s\n",
		hashlanes.ActiveCPU(), hashlanes.DetectedCPU(), strings.Join(hashlanes.CPUFeatures(), " "))
	fmt.Fprintf(stdout, "tuning: %s\n", hashlanes.Tuning())
	for _, err := range []error{hashlanes.CPUEnvError(), hashlanes.TuningEnvError()} {
		if err != nil {
			fmt.Fprintln(stderr, err)
		}
	}
	for _, a := range hashlanes.Algorithms() {
		srv := hashlanes.DefaultServer(a)
		fmt.Fprintf(stdout, "%-11s %s\n", a.String()+":", srv.Kernel())
		if srv.Reference() {
			continue
		}
		// What the engine would measure on its first choice, measured now.
		srv.Calibrate()
		t := srv.Tuning()
		fmt.Fprintf(stdout, "%-11s rates %s; by streams ready: %s\n", "", t.Origin, t)
	}
}

const installLinksUsage = `Usage: hashlanes install-links [--force] DIR

Create md5sum, sha1sum, sha224sum, sha256sum, sha384sum, sha512sum, b2sum,
b3sum, cksum and sum in DIR: symbolic links to this program, which behaves
as the tool of each name (GNU's, and the BLAKE3 team's b3sum).
A name already linked to this program is left as it is, so running it again
changes nothing. DIR must exist: it is not created (mkdir -p DIR first).

  -f, --force   replace files or links of those names that are something else
  -h, --help    display this help and exit
`

// installLinks creates the drop-in names in dir as symbolic links to this
// executable.
func installLinks(prog string, args []string, stdout, stderr io.Writer) int {
	force := false
	var dirs []string
options:
	for i, a := range args {
		switch {
		case a == "--":
			dirs = append(dirs, args[i+1:]...)
			break options
		case a == "-h" || a == "--help":
			fmt.Fprint(stdout, installLinksUsage)
			return 0
		case a == "-f" || a == "--force":
			force = true
		case strings.HasPrefix(a, "-") && a != "-":
			fmt.Fprintf(stderr, "%s install-links: unknown option %q\n%s", prog, a, installLinksUsage)
			return 2
		default:
			dirs = append(dirs, a)
		}
	}
	if len(dirs) != 1 {
		fmt.Fprint(stderr, installLinksUsage)
		return 2
	}
	exe, err := os.Executable()
	if err != nil {
		fmt.Fprintf(stderr, "%s: %v\n", prog, err)
		return 1
	}
	if exe, err = filepath.EvalSymlinks(exe); err != nil {
		fmt.Fprintf(stderr, "%s: %v\n", prog, err)
		return 1
	}
	if err := checkDir(dirs[0]); err != nil {
		fmt.Fprintf(stderr, "%s install-links: %s: %s\n", prog, gnu.Quote(dirs[0]), gnu.Strerror(err))
		return 1
	}
	status, existed := 0, false
	for _, name := range gnu.DropInNames() {
		link := filepath.Join(dirs[0], name)
		if err := linkTo(exe, link, force); err != nil {
			fmt.Fprintf(stderr, "%s: %s: %s\n", prog, gnu.Quote(link), gnu.Strerror(err))
			status = 1
			existed = existed || os.IsExist(err)
			continue
		}
		fmt.Fprintf(stdout, "%s -> %s\n", link, exe)
	}
	if existed && !force {
		fmt.Fprintf(stderr, "%s: names that exist were left alone; --force replaces them\n", prog)
	}
	return status
}

// checkDir returns why name is not a directory to work in, nil if it is
// one: what stat says, or ENOTDIR for something else.
func checkDir(name string) error {
	fi, err := os.Stat(name)
	if err == nil && !fi.IsDir() {
		err = syscall.ENOTDIR
	}
	return err
}

// linkTo makes link a symbolic link to exe: nothing to do when it is one
// already; what else is there stays unless force.
func linkTo(exe, link string, force bool) error {
	if cur, err := os.Readlink(link); err == nil && cur == exe {
		return nil
	}
	err := os.Symlink(exe, link)
	if err == nil || !force || !os.IsExist(err) {
		return err
	}
	// Replace in one step: a link made beside it renamed over it, so the
	// name never goes missing.
	tmp := link + ".hashlanes-new"
	os.Remove(tmp)
	if err := os.Symlink(exe, tmp); err != nil {
		return err
	}
	if err := os.Rename(tmp, link); err != nil {
		os.Remove(tmp)
		return err
	}
	return nil
}
