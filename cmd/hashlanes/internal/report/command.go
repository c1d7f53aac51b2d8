package report

import (
	"bufio"
	"fmt"
	"io"
	"os"
	"os/exec"
	"path/filepath"
	"runtime"
	"strings"
	"time"

	"github.com/hashlanes/hashlanes"
	"github.com/hashlanes/hashlanes/cmd/hashlanes/internal/gnu"
	"golang.org/x/term"
)

const benchUsage = `Usage: hashlanes bench [OPTION]... [SUITE]...
Measure hash functions on this machine: algos, lanes, small, files (default all).

  -q, --quick          a short run (3 sizes, fewer repetitions): under a minute
      --full           every size, longer repetitions
      --sizes=LIST     sizes of the algos suite, e.g. 128B,8KiB,1MiB
  -f, --format=FORMAT  table (default), bench (Go benchmark lines for
                         benchstat), json, markdown
  -o, --output=FILE    write the results there instead of standard output
      --html=FILE      also write a self-contained HTML report with charts
      --charts=DIR     also write the charts as SVG and PNG files
      --compare OLD NEW
                       print each benchmark's speed-up from OLD to NEW
                         (JSON reports, or Go benchmark lines: --format
                         bench, or go test -bench of internal/report)
      --no-python      leave Python's hashlib out of the small suite
      --help           display this help and exit
`

var benchOptions = []gnu.Option{
	{Long: "quick", Short: 'q'},
	{Long: "full"},
	{Long: "sizes", Arg: true},
	{Long: "format", Short: 'f', Arg: true},
	{Long: "output", Short: 'o', Arg: true},
	{Long: "html", Arg: true},
	{Long: "charts", Arg: true},
	{Long: "compare"},
	{Long: "no-python"},
	{Long: "help"},
}

func Main(prog string, args []string, stdout, stderr io.Writer) int {
	fail := func(format string, a ...any) int {
		fmt.Fprintf(stderr, "%s bench: %s\n", prog, fmt.Sprintf(format, a...))
		return 1
	}
	usageError := func(msg string) int {
		fmt.Fprintf(stderr, "%s: %s\nTry '%s bench --help' for more information.\n", prog, msg, prog)
		return 1
	}
	opts, operands, err := gnu.Getopt(benchOptions, args)
	if err != nil {
		return usageError(err.Error())
	}
	plan := Plan{Sizes: SeedSizes, Config: Quick}
	format, output, htmlFile, chartsDir := "table", "", "", ""
	compare, python := false, true
	for _, o := range opts {
		switch o.Opt.Long {
		case "quick":
			plan.Quick, plan.Sizes, plan.Config = true, QuickSizes, Quick
		case "full":
			plan.Quick, plan.Sizes, plan.Config = false, SeedSizes, Full
		case "sizes":
			plan.Sizes = nil
			for s := range strings.SplitSeq(o.Val, ",") {
				n, err := ParseSize(strings.TrimSpace(s))
				if err != nil {
					return usageError(err.Error())
				}
				plan.Sizes = append(plan.Sizes, n)
			}
		case "format":
			format = o.Val
			if format != "table" && format != "bench" && format != "json" && format != "markdown" {
				return usageError(fmt.Sprintf("unknown format %s (table, bench, json, markdown)", gnu.Quote(format)))
			}
		case "output":
			output = o.Val
		case "html":
			htmlFile = o.Val
		case "charts":
			chartsDir = o.Val
		case "compare":
			compare = true
		case "no-python":
			python = false
		case "help":
			fmt.Fprint(stdout, benchUsage)
			return 0
		}
	}
	if compare {
		if len(operands) != 2 {
			return usageError("--compare takes two reports: OLD NEW")
		}
		var reps [2]Report
		for i, name := range operands {
			f, err := os.Open(name)
			if err != nil {
				return fail("%s: %s", gnu.Quote(name), gnu.Strerror(err))
			}
			reps[i], err = ReadReport(f, name)
			f.Close()
			if err != nil {
				return fail("%s: not a hashlanes bench report: %v", gnu.Quote(name), err)
			}
		}
		if err := WriteCompare(stdout, reps[0], reps[1]); err != nil {
			return fail("%v", err)
		}
		return 0
	}
	plan.Suites = operands
	if len(plan.Suites) == 0 {
		plan.Suites = Suites
	}
	if python {
		plan.Python, _ = exec.LookPath("python3")
	}
	if f, ok := stderr.(*os.File); ok && term.IsTerminal(int(f.Fd())) {
		plan.Progress = func(done, total int, current string) {
			if done == total {
				fmt.Fprint(stderr, "\r\x1b[K")
				return
			}
			fmt.Fprintf(stderr, "\r\x1b[K[%3d/%d] %s", done+1, total, current)
		}
	}

	report := Report{Machine: machine(), Started: time.Now().UTC().Format(time.RFC3339), Quick: plan.Quick,
		Reps: plan.Config.Reps, MinTime: plan.Config.MinTime}
	report.Rows, err = Run(plan)
	if err != nil {
		return usageError(err.Error())
	}

	w := stdout
	if output != "" {
		f, err := os.Create(output)
		if err != nil {
			return fail("%s: %s", gnu.Quote(output), gnu.Strerror(err))
		}
		defer f.Close()
		w = f
	}
	bw := bufio.NewWriter(w)
	switch format {
	case "table":
		err = WriteTable(bw, report)
	case "bench":
		err = WriteBench(bw, report)
	case "json":
		err = WriteJSON(bw, report)
	case "markdown":
		err = WriteMarkdown(bw, report)
	}
	if err == nil {
		err = bw.Flush()
	}
	if err != nil {
		return fail("write error: %s", gnu.Strerror(err))
	}
	if htmlFile != "" {
		f, err := os.Create(htmlFile)
		if err != nil {
			return fail("%s: %s", gnu.Quote(htmlFile), gnu.Strerror(err))
		}
		err = WriteHTML(f, report)
		if cerr := f.Close(); err == nil {
			err = cerr
		}
		if err != nil {
			return fail("%s: %v", gnu.Quote(htmlFile), err)
		}
	}
	if chartsDir != "" {
		if err := writeCharts(chartsDir, report.Rows); err != nil {
			return fail("%v", err)
		}
	}
	return 0
}

// writeCharts writes throughput.{svg,png} and lanes.{svg,png} for the
// suites that ran.
func writeCharts(dir string, rows []Row) error {
	if err := os.MkdirAll(dir, 0o755); err != nil {
		return err
	}
	for name, draw := range map[string]func([]Row) (*Chart, error){"throughput": ThroughputChart, "lanes": LanesChart} {
		p, err := draw(rows)
		if err != nil {
			return err
		}
		if p == nil {
			continue
		}
		for _, format := range []string{"svg", "png"} {
			data, err := Render(p, format)
			if err != nil {
				return err
			}
			if err := os.WriteFile(filepath.Join(dir, name+"."+format), data, 0o644); err != nil {
				return err
			}
		}
	}
	return nil
}

// machine describes this machine for the report.
func machine() Machine {
	m := Machine{
		CPU: runtime.GOARCH, Features: hashlanes.CPUFeatures(), Tier: hashlanes.ActiveCPU().String(), Tuning: hashlanes.Tuning(),
		GOOS: runtime.GOOS, GOARCH: runtime.GOARCH, Procs: runtime.GOMAXPROCS(0), Go: runtime.Version(),
		Kernels: map[string]string{},
	}
	if data, err := os.ReadFile("/proc/cpuinfo"); err == nil {
		for line := range strings.SplitSeq(string(data), "\n") {
			if k, v, ok := strings.Cut(line, ":"); ok && strings.TrimSpace(k) == "model name" {
				m.CPU = strings.TrimSpace(v)
				break
			}
		}
	}
	for _, a := range hashlanes.Algorithms() {
		srv := hashlanes.DefaultServer(a)
		m.Kernels[a.String()] = srv.Kernel()
		if !srv.Reference() {
			if m.Crossover == nil {
				m.Crossover = map[string]string{}
			}
			srv.Calibrate()
			t := srv.Tuning()
			m.Crossover[a.String()] = fmt.Sprintf("%s (rates %s)", t, t.Origin)
		}
	}
	return m
}
