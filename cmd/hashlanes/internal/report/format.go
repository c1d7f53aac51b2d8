package report

import (
	"cmp"
	"encoding/json"
	"fmt"
	"io"
	"math"
	"slices"
	"strings"
	"text/tabwriter"
	"time"

	"github.com/hashlanes/hashlanes/internal/workload"
)

// Report is a run: its machine and its rows, as --format json writes it
// and --compare reads it.
type Report struct {
	Machine Machine `json:"machine"`
	Started string  `json:"started"`
	Quick   bool    `json:"quick"`
	// Reps and MinTime are the run's Config: repetitions a row, and the
	// least each lasts.
	Reps    int           `json:"reps,omitempty"`
	MinTime time.Duration `json:"min_time_ns,omitempty"`
	Rows    []Row         `json:"rows"`
}

// Machine describes where a run happened.
type Machine struct {
	CPU      string            `json:"cpu"`
	Features []string          `json:"features"`
	Tier     string            `json:"tier"`
	Tuning   string            `json:"tuning,omitempty"` // where the rates that choose the kernels come from
	GOOS     string            `json:"goos"`
	GOARCH   string            `json:"goarch"`
	Procs    int               `json:"gomaxprocs"`
	Go       string            `json:"go"`
	Kernels  map[string]string `json:"kernels"` // algorithm -> what hashlanes runs
	// Crossover is, by algorithm, the kernel a round runs for each count
	// of ready streams ("1 shani; 2-4 shanix2; 5-32 avx512zmmx16") and where
	// the rates behind it come from.
	Crossover map[string]string `json:"crossover,omitempty"`
}

// WriteJSON writes the report as indented JSON.
func WriteJSON(w io.Writer, r Report) error {
	enc := json.NewEncoder(w)
	enc.SetIndent("", "  ")
	return enc.Encode(r)
}

// ReadJSON reads what WriteJSON wrote.
func ReadJSON(rd io.Reader) (Report, error) {
	var r Report
	err := json.NewDecoder(rd).Decode(&r)
	return r, err
}

// WriteBench writes Go benchmark lines, one per repetition, so that
// benchstat computes its own medians and intervals.
func WriteBench(w io.Writer, r Report) error {
	fmt.Fprintf(w, "goos: %s\ngoarch: %s\npkg: github.com/hashlanes/hashlanes/cmd/hashlanes\ncpu: %s\n",
		r.Machine.GOOS, r.Machine.GOARCH, r.Machine.CPU)
	for _, row := range r.Rows {
		name := row.Name()
		if r.Machine.Procs > 1 {
			name += fmt.Sprintf("-%d", r.Machine.Procs)
		}
		for _, ns := range row.Samples {
			fmt.Fprintf(w, "%s\t%8d\t%12.1f ns/op", name, row.Iterations, ns)
			if row.Bytes > 0 {
				fmt.Fprintf(w, "\t%10.2f MB/s", float64(row.Bytes)/ns*1e3)
			}
			_, err := fmt.Fprintf(w, "\t%10.0f B/op\t%8.0f allocs/op\n", row.AllocBytes, row.Allocs)
			if err != nil {
				return err
			}
		}
	}
	return nil
}

// table is the rows of one suite laid out for reading.
type table struct {
	Title  string
	Header []string
	Rows   [][]string
}

func (r Report) tables() []table {
	var ts []table
	for _, suite := range Suites {
		var rows []Row
		for _, row := range r.Rows {
			if row.Suite == suite {
				rows = append(rows, row)
			}
		}
		if len(rows) == 0 {
			continue
		}
		t := table{Title: suiteTitle[suite]}
		switch suite {
		case "algos":
			t.Header = []string{"algorithm", "implementation", "size", "ns/op", "MB/s", "±", "B/op", "allocs/op"}
			for _, row := range rows {
				t.Rows = append(t.Rows, []string{algName(row.Alg), row.Impl, workload.SizeName(row.Size), ns(row.NsPerOp()), mbps(row.MBps()), spread(row), num(row.AllocBytes), num(row.Allocs)})
			}
		case "lanes":
			t.Header = []string{"algorithm", "streams", "size", "implementation", "MB/s", "±", "vs reference"}
			base := map[string]float64{}
			for _, row := range rows {
				if row.Impl != "hashlanes" {
					base[fmt.Sprint(row.Alg, row.Streams)] = row.MBps()
				}
			}
			for _, row := range rows {
				ratio := ""
				if b := base[fmt.Sprint(row.Alg, row.Streams)]; row.Impl == "hashlanes" && b > 0 {
					ratio = fmt.Sprintf("%.2fx", row.MBps()/b)
				}
				t.Rows = append(t.Rows, []string{algName(row.Alg), fmt.Sprint(row.Streams), workload.SizeName(row.Size), row.Impl, mbps(row.MBps()), spread(row), ratio})
			}
		case "small":
			t.Header = []string{"algorithm", "implementation", "messages", "ns/message", "±", "vs loop"}
			loop := map[string]float64{}
			for _, row := range rows {
				if row.Impl == "loop" {
					loop[row.Alg] = row.NsPerMsg()
				}
			}
			for _, row := range rows {
				ratio := ""
				if l := loop[row.Alg]; l > 0 {
					ratio = fmt.Sprintf("%.2fx", l/row.NsPerMsg())
				}
				t.Rows = append(t.Rows, []string{algName(row.Alg), row.Impl, fmt.Sprint(row.Msgs), fmt.Sprintf("%.1f", row.NsPerMsg()), spread(row), ratio})
			}
		case "files":
			t.Header = []string{"algorithm", "method", "file", "time", "MB/s", "±", "B/op", "allocs/op"}
			for _, row := range rows {
				t.Rows = append(t.Rows, []string{algName(row.Alg), row.Impl, workload.SizeName(row.Size), time.Duration(row.NsPerOp()).Round(10 * time.Microsecond).String(), mbps(row.MBps()), spread(row), num(row.AllocBytes), num(row.Allocs)})
			}
		}
		ts = append(ts, t)
	}
	return ts
}

var suiteTitle = map[string]string{
	"algos": "Algorithms: one message of each size, one core",
	"lanes": "Lanes: N concurrent streams, 32 KiB writes, one core",
	"small": "Small messages: 10,000 URL paths, one-shot loop vs SumMany",
	"files": "Files: ways of hashing one file",
}

func ns(x float64) string {
	if x >= 1e4 {
		return fmt.Sprintf("%.0f", x)
	}
	return fmt.Sprintf("%.1f", x)
}

func mbps(x float64) string { return fmt.Sprintf("%.1f", x) }

func num(x float64) string { return fmt.Sprintf("%.0f", x) }

func spread(r Row) string {
	s := Spread(r.Samples)
	if math.IsNaN(s) {
		return ""
	}
	out := fmt.Sprintf("%.0f%%", 100*s)
	switch {
	case r.Uncertain != "":
		out += " uncertain"
	case r.Noisy():
		out += " noisy"
	}
	return out
}

// algName is an algorithm's name in a table, marked if its collision
// resistance is broken (see brokenNote).
func algName(alg string) string {
	if Broken(alg) {
		return alg + brokenMark
	}
	return alg
}

// notes are the lines under the tables: the broken algorithms' footnote
// if any appear, each uncertain row with its reason, and the noise.
func notes(r Report) []string {
	var out []string
	if slices.ContainsFunc(r.Rows, func(row Row) bool { return Broken(row.Alg) }) {
		out = append(out, brokenNote)
	}
	for _, row := range r.Rows {
		if row.Uncertain != "" {
			out = append(out, fmt.Sprintf("Uncertain: %s: %s; left out of the charts, the calculator and the advice.", row.Name(), row.Uncertain))
		}
	}
	if d := runDrift(r.Rows); d > 2*minNoise {
		out = append(out, fmt.Sprintf("Drift: rows that do the same work (SHA-224 and SHA-256, SHA-512 and its truncations) read up to %.0f%% apart in this run, so the advice calls rows of different algorithms apart only beyond that.", 100*d))
	}
	return append(out, noiseLine(r))
}

// WriteTable writes the terminal tables, then a line on noise.
func WriteTable(w io.Writer, r Report) error {
	for _, t := range r.tables() {
		fmt.Fprintf(w, "\n%s\n\n", t.Title)
		tw := tabwriter.NewWriter(w, 0, 0, 2, ' ', tabwriter.AlignRight)
		fmt.Fprintln(tw, strings.Join(t.Header, "\t")+"\t")
		for _, row := range t.Rows {
			fmt.Fprintln(tw, strings.Join(row, "\t")+"\t")
		}
		if err := tw.Flush(); err != nil {
			return err
		}
	}
	writeCrossover(w, r.Machine, "\nKernel a round runs, by streams ready (measured here)\n\n", "  %-11s %s\n")
	writeAdvice(w, r.Rows, "\nRecommendations, by what the hash is for\n", "\n%s: %s\n", "  - %s\n")
	_, err := fmt.Fprintln(w, "\n"+strings.Join(notes(r), "\n"))
	return err
}

// noiseLine says whether the machine was quiet enough to trust the table.
func noiseLine(r Report) string {
	noisy := 0
	for _, row := range r.Rows {
		if row.Noisy() {
			noisy++
		}
	}
	if noisy == 0 {
		return fmt.Sprintf("All %d rows within ±%.0f%% of their medians.", len(r.Rows), 100*NoisyAbove)
	}
	return fmt.Sprintf("Noisy machine: %d of %d rows strayed more than ±%.0f%% from their medians even when measured again (marked noisy or uncertain); rerun on a quieter machine or with --full.",
		noisy, len(r.Rows), 100*NoisyAbove)
}

// WriteMarkdown writes the tables as Markdown.
func WriteMarkdown(w io.Writer, r Report) error {
	fmt.Fprintf(w, "CPU: %s (%s); Go %s, GOMAXPROCS=%d\n", r.Machine.CPU, strings.Join(r.Machine.Features, ", "), r.Machine.Go, r.Machine.Procs)
	for _, t := range r.tables() {
		fmt.Fprintf(w, "\n### %s\n\n| %s |\n|%s\n", t.Title, strings.Join(t.Header, " | "), strings.Repeat("---|", len(t.Header)))
		for _, row := range t.Rows {
			fmt.Fprintf(w, "| %s |\n", strings.Join(row, " | "))
		}
	}
	writeCrossover(w, r.Machine, "\n### Kernel a round runs, by streams ready (measured here)\n\n| algorithm | kernels |\n|---|---|\n", "| %s | %s |\n")
	writeAdvice(w, r.Rows, "\n### Recommendations, by what the hash is for\n", "\n**%s.** %s\n\n", "- %s\n")
	_, err := fmt.Fprintln(w, "\n"+strings.Join(notes(r), "\n\n"))
	return err
}

// writeAdvice writes the run's advice (see Advise) under heading, each
// purpose and its need by purpose, each line by line.
func writeAdvice(w io.Writer, rows []Row, heading, purpose, line string) {
	for i, a := range Advise(rows) {
		if i == 0 {
			fmt.Fprint(w, heading)
		}
		fmt.Fprintf(w, purpose, a.Purpose, a.Why)
		for _, l := range a.Lines {
			fmt.Fprintf(w, line, l)
		}
	}
}

// writeCrossover writes the machine's crossover table, if it has one:
// the header, then a line per algorithm in the order of the constants.
func writeCrossover(w io.Writer, m Machine, header, line string) {
	if len(m.Crossover) == 0 {
		return
	}
	fmt.Fprint(w, header)
	for _, a := range hashlanesOrder(m.Crossover) {
		fmt.Fprintf(w, line, a, m.Crossover[a])
	}
}

// hashlanesOrder lists the keys of m by algorithm name, shortest first:
// md5, sha1, sha224, sha256, sha384, sha512, sha512-224, sha512-256.
func hashlanesOrder(m map[string]string) []string {
	keys := make([]string, 0, len(m))
	for k := range m {
		keys = append(keys, k)
	}
	slices.SortFunc(keys, func(a, b string) int { return cmp.Or(cmp.Compare(len(a), len(b)), cmp.Compare(a, b)) })
	return keys
}

// WriteCompare prints, for each row in both reports, old and new medians
// and their ratio (old time / new time: above 1 is faster now), then the
// geometric mean of the ratios and how many lie within ±AgreeWithin of 1,
// which is what comparing two harnesses on the same workloads asks.
func WriteCompare(w io.Writer, old, cur Report) error {
	prev := map[string]Row{}
	for _, r := range old.Rows {
		prev[r.Name()] = r
	}
	tw := tabwriter.NewWriter(w, 0, 0, 2, ' ', 0)
	fmt.Fprintln(tw, "benchmark\told ns/op\tnew ns/op\tspeed-up\t")
	matched, within, logSum := 0, 0, 0.0
	worst, worstName := 1.0, ""
	for _, r := range cur.Rows {
		o, ok := prev[r.Name()]
		if !ok {
			continue
		}
		matched++
		ratio := o.NsPerOp() / r.NsPerOp()
		logSum += math.Log(ratio)
		if math.Abs(ratio-1) <= AgreeWithin {
			within++
		}
		if math.Abs(math.Log(ratio)) > math.Abs(math.Log(worst)) {
			worst, worstName = ratio, r.Name()
		}
		note := ""
		if r.Noisy() || o.Noisy() {
			note = " (noisy)"
		}
		fmt.Fprintf(tw, "%s\t%s\t%s\t%.2fx%s\t\n", r.Name(), ns(o.NsPerOp()), ns(r.NsPerOp()), ratio, note)
	}
	if err := tw.Flush(); err != nil {
		return err
	}
	if matched == 0 {
		return fmt.Errorf("the two reports have no benchmark in common")
	}
	_, err := fmt.Fprintf(w, "\n%d benchmarks in common: geomean speed-up %.3fx; %d within ±%.0f%% (%.0f%%); furthest %s at %.2fx\n",
		matched, math.Exp(logSum/float64(matched)), within, 100*AgreeWithin, 100*float64(within)/float64(matched), worstName, worst)
	return err
}

// AgreeWithin is how far apart two measurements of the same workload may
// be and still count as agreeing.
const AgreeWithin = 0.10
