package main

import (
	"flag"
	"fmt"
	"io"
	"maps"
	"slices"
	"strings"
	"time"

	"github.com/hashlanes/hashlanes/internal/tuning"
)

const tuneUsage = `Usage: hashlanes tune [OPTION]...

Measure every kernel of the engine on this machine, alone, with care (a few
seconds), print each algorithm's rates and crossover table (which kernel a
round runs for 1, 2, 3, ... ready streams), and save them as the wisdom file
the engines read at start instead of measuring for themselves.

  -o FILE        write the wisdom to FILE (default: the user's cache directory,
                 or HASHLANES_TUNING_FILE)
  -n, --dry-run  measure and print, write nothing
  --prior NAME   write a prior named NAME (for internal/tuning/priors), matched
                 to this CPU's vendor, family and model
  --rounds N     rounds of timed calls (default %d)
`

func runTune(prog string, args []string, stdout, stderr io.Writer) int {
	fs := flag.NewFlagSet("hashlanes tune", flag.ContinueOnError)
	fs.SetOutput(io.Discard)
	out := fs.String("o", "", "")
	dry := fs.Bool("n", false, "")
	fs.BoolVar(dry, "dry-run", false, "")
	prior := fs.String("prior", "", "")
	o := tuning.CarefulMeasure
	fs.IntVar(&o.Rounds, "rounds", o.Rounds, "")
	if err := fs.Parse(args); err != nil {
		if err == flag.ErrHelp {
			fmt.Fprintf(stdout, tuneUsage, tuning.CarefulMeasure.Rounds)
			return 0
		}
		fmt.Fprintf(stderr, "hashlanes tune: %v\n"+tuneUsage, err, tuning.CarefulMeasure.Rounds)
		return 2
	}
	if fs.NArg() > 0 || o.Rounds < 2 {
		fmt.Fprintf(stderr, "hashlanes tune: unexpected argument\n"+tuneUsage, tuning.CarefulMeasure.Rounds)
		return 2
	}
	start := time.Now()
	w, err := tuning.Tune(o, func(f string) { fmt.Fprintf(stderr, "measuring %s...\n", f) })
	if err != nil {
		fmt.Fprintf(stderr, "%s tune: %v\n", prog, err)
		return 1
	}
	fmt.Fprintf(stdout, "%s, measured in %.1f s\n", w.CPU, time.Since(start).Seconds())
	for _, f := range tuning.Families() {
		printCrossover(stdout, f, w.Families[f.Name()])
	}
	if *dry {
		return 0
	}
	if *prior != "" {
		c := w.CPU
		w.Name = *prior
		w.Match = &tuning.Match{Vendor: c.Vendor, Family: c.Family, Models: [][2]uint32{{c.Model, c.Model}}}
		w.Provenance = []string{
			fmt.Sprintf("%s, GOMAXPROCS=1 timing on one core.", c),
			w.Method + ".",
			"SumMany cut-offs: 2 to 8 URL paths, message by message (the one-shot loop, or the engine's short path where it costs less) against the lanes, the fastest of each.",
			fmt.Sprintf("Measured %s by %s.", w.Measured.Format("2006-01-02"), w.Build),
			fmt.Sprintf("Written by hashlanes tune --prior %s.", *prior),
		}
		w.Build = "" // a prior serves any build
		if *out == "" {
			fmt.Fprintf(stderr, "%s tune: --prior needs -o FILE\n", prog)
			return 2
		}
	}
	path := *out
	if path == "" {
		if path, err = tuning.WisdomPath(); err != nil {
			fmt.Fprintf(stderr, "%s tune: %v\n", prog, err)
			return 1
		}
	}
	if err := w.Save(path); err != nil {
		fmt.Fprintf(stderr, "%s tune: %v\n", prog, err)
		return 1
	}
	fmt.Fprintf(stdout, "wrote %s\n", path)
	return 0
}

// tableCounts are the ready counts of the printed crossover tables.
var tableCounts = []int{1, 2, 3, 4, 6, 8, 10, 12, 16, 24, 32}

// printCrossover writes a family's rates as a table: a row per count of
// ready streams, a column per kernel (MB/s it would move with that many),
// and the kernel a round runs.
func printCrossover(w io.Writer, f *tuning.Family, r *tuning.Rates) {
	if r == nil {
		return
	}
	// Every kernel as a candidate, and as the single-stream kernel the one
	// the engine runs: the last the level allows (kernel.Best), not the
	// fastest measured, which a noisy run can make the library's where a
	// family has more than one (SHA-512's stdlib, avx2, avx512).
	var single tuning.Kernel
	var multi []tuning.Kernel
	for _, p := range f.Probes() {
		k := p.Kernel
		if k.Lanes == 1 {
			single = k
		} else if k.Lanes > 1 {
			multi = append(multi, k)
		}
	}
	c := tuning.NewChooser(tuning.Fixed(r, "measured"), single, multi)
	names, rows, picks := tuning.Crossover(c, tuning.MaxReady)
	fmt.Fprintf(w, "\n%s (MB/s with b streams ready; the choice last)\n", f.Name())
	head := []string{"b"}
	for i, n := range names {
		if i == 0 {
			n += " (1)"
		} else {
			n += fmt.Sprintf(" (%d)", multi[i-1].Lanes)
		}
		head = append(head, n)
	}
	head = append(head, "runs")
	fmt.Fprintln(w, "| "+strings.Join(head, " | ")+" |")
	fmt.Fprintln(w, strings.Repeat("|---", len(head))+"|")
	for _, b := range tableCounts {
		cells := []string{fmt.Sprint(b)}
		for _, v := range rows[b-1] {
			cells = append(cells, fmt.Sprintf("%.0f", v))
		}
		cells = append(cells, picks[b-1])
		fmt.Fprintln(w, "| "+strings.Join(cells, " | ")+" |")
	}
	var others []string
	for _, name := range slices.Sorted(maps.Keys(r.Kernels)) {
		if name != single.Name && !slices.ContainsFunc(multi, func(k tuning.Kernel) bool { return k.Name == name }) {
			others = append(others, name)
		}
	}
	if len(others) > 0 {
		fmt.Fprintf(w, "also measured: ")
		for i, name := range others {
			if i > 0 {
				fmt.Fprint(w, ", ")
			}
			fmt.Fprintf(w, "%s %.0f", name, r.Kernels[name])
		}
		fmt.Fprintln(w)
	}
	if len(r.ManyMin) > 0 {
		var cuts []string
		for _, alg := range slices.Sorted(maps.Keys(r.ManyMin)) {
			cuts = append(cuts, fmt.Sprintf("%s from %d messages", alg, r.ManyMin[alg]))
		}
		fmt.Fprintf(w, "SumMany in lanes: %s\n", strings.Join(cuts, ", "))
	}
}
