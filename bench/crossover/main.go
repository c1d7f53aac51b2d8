// Command crossover turns scripts/crossover's raw benchmark output into
// the crossover table: for each algorithm and each count of ready streams,
// the median MB/s of every kernel alone (the fastest marked), and the
// median ratio of the engine to the standard library on that many streams;
// then, ready to paste for the CPU's microarchitecture, each kernel's rate
// with every lane busy and the shares of it with fewer busy.
//
//	go run ./bench/crossover crossover-kernels.txt crossover-streams.txt
package main

import (
	"cmp"
	"fmt"
	"io"
	"maps"
	"os"
	"slices"
	"strconv"
	"strings"

	"golang.org/x/perf/benchfmt"

	"github.com/hashlanes/hashlanes/internal/bench"
)

// readyCounts are the stream counts the table has a row for.
var readyCounts = []int{1, 2, 3, 4, 6, 8, 16}

// widestCount is a further row of the engine's ratio alone, the widest
// count of the floor the standard library is held to.
const widestCount = 64

// kernelKey is one kernel alone with some of its lanes busy.
type kernelKey struct {
	alg, impl   string
	lanes, busy int
}

// streamsKey is the engine against the standard library on n streams.
type streamsKey struct {
	alg string
	n   int
}

func main() {
	if len(os.Args) != 3 {
		fmt.Fprintln(os.Stderr, "usage: crossover KERNELS STREAMS")
		os.Exit(2)
	}
	var kernels map[kernelKey][]float64
	var ratios map[streamsKey][]float64
	err := readFile(os.Args[1], func(f *os.File) (err error) { kernels, err = readKernels(f, f.Name()); return err })
	if err == nil {
		err = readFile(os.Args[2], func(f *os.File) (err error) { ratios, err = readRatios(f, f.Name()); return err })
	}
	if err == nil && len(kernels) == 0 {
		err = fmt.Errorf("%s: no kernel results", os.Args[1])
	}
	if err != nil {
		fmt.Fprintln(os.Stderr, "crossover:", err)
		os.Exit(1)
	}
	writeTable(os.Stdout, kernels, ratios)
}

func readFile(name string, read func(*os.File) error) error {
	f, err := os.Open(name)
	if err != nil {
		return err
	}
	defer f.Close()
	return read(f)
}

// readKernels collects BenchmarkKernel's MB/s by kernel and busy lanes,
// from names that scripts/crossover gave an alg= part.
func readKernels(r io.Reader, name string) (map[kernelKey][]float64, error) {
	kernels := map[kernelKey][]float64{}
	err := readResults(r, name, func(f map[string]string, r *benchfmt.Result) error {
		bps, ok := value(r, "B/s")
		if !ok || f["alg"] == "" {
			return nil
		}
		lanes, err1 := strconv.Atoi(f["lanes"])
		busy, err2 := strconv.Atoi(f["busy"])
		if err := cmp.Or(err1, err2); err != nil {
			return fmt.Errorf("%s: %v", r.Name, err)
		}
		k := kernelKey{f["alg"], f["impl"], lanes, busy}
		kernels[k] = append(kernels[k], bps/1e6)
		return nil
	})
	return kernels, err
}

// readRatios collects BenchmarkVersusStdlib's ratios by algorithm and
// stream count.
func readRatios(r io.Reader, name string) (map[streamsKey][]float64, error) {
	ratios := map[streamsKey][]float64{}
	err := readResults(r, name, func(f map[string]string, r *benchfmt.Result) error {
		ratio, ok := value(r, "hashlanes/stdlib")
		if !ok {
			return nil
		}
		n, err := strconv.Atoi(f["streams"])
		if err != nil {
			return fmt.Errorf("%s: %v", r.Name, err)
		}
		k := streamsKey{f["alg"], n}
		ratios[k] = append(ratios[k], ratio)
		return nil
	})
	return ratios, err
}

// writeTable prints one markdown table per algorithm: a row per ready
// count, a column per kernel.
func writeTable(w io.Writer, kernels map[kernelKey][]float64, ratios map[streamsKey][]float64) {
	type impl struct {
		name  string
		lanes int
	}
	algs := map[string][]impl{}
	for k := range kernels {
		i := impl{k.impl, k.lanes}
		if !slices.Contains(algs[k.alg], i) {
			algs[k.alg] = append(algs[k.alg], i)
		}
	}
	for _, alg := range slices.Sorted(maps.Keys(algs)) {
		impls := algs[alg]
		slices.SortFunc(impls, func(a, b impl) int { return cmp.Or(cmp.Compare(a.lanes, b.lanes), strings.Compare(a.name, b.name)) })
		fmt.Fprintf(w, "\n### %s\n\nMB/s of each kernel alone with b streams ready (medians; * the fastest); engine ÷ standard library on b streams of 1 MiB (medians of the rounds' median pair ratios)\n\n", alg)
		fmt.Fprint(w, "| b |")
		for _, i := range impls {
			fmt.Fprintf(w, " %s (%d) |", i.name, i.lanes)
		}
		fmt.Fprint(w, " engine ÷ stdlib |\n|---|")
		for range impls {
			fmt.Fprint(w, "---|")
		}
		fmt.Fprint(w, "---|\n")
		ratio := func(b int) string {
			if s, ok := ratios[streamsKey{alg, b}]; ok {
				return fmt.Sprintf("%.3f× (%d)", bench.Median(s), len(s))
			}
			return ""
		}
		for _, b := range readyCounts {
			cells := make([]string, len(impls))
			best, bestRate := -1, 0.0
			for j, i := range impls {
				// A kernel narrower than b runs full, the rest waiting.
				s, ok := kernels[kernelKey{alg, i.name, i.lanes, min(b, i.lanes)}]
				if !ok {
					continue
				}
				r := bench.Median(s)
				cells[j] = fmt.Sprintf("%.0f", r)
				if r > bestRate {
					best, bestRate = j, r
				}
			}
			if best >= 0 {
				cells[best] += " *"
			}
			fmt.Fprintf(w, "| %d | %s | %s |\n", b, strings.Join(cells, " | "), ratio(b))
		}
		if r := ratio(widestCount); r != "" {
			fmt.Fprintf(w, "| %d | %s | %s |\n", widestCount, strings.Join(make([]string, len(impls)), " | "), r)
		}
		writeRates(w, alg, kernels)
		writeFills(w, alg, kernels)
	}
}

// fullKernels lists alg's kernels measured with every lane busy, narrowest
// first: the rate tables' entries. The pure-Go lanes, named as the pure-Go
// single stream (whose rate the tables hold), never run and are left out.
func fullKernels(alg string, kernels map[kernelKey][]float64) []kernelKey {
	var full []kernelKey
	for k := range kernels {
		if k.alg != alg || k.busy != k.lanes {
			continue
		}
		if _, single := kernels[kernelKey{alg, k.impl, 1, 1}]; single && k.lanes > 1 {
			continue
		}
		full = append(full, k)
	}
	slices.SortFunc(full, func(a, b kernelKey) int {
		return cmp.Or(cmp.Compare(a.lanes, b.lanes), strings.Compare(a.impl, b.impl))
	})
	return full
}

// writeRates prints each kernel's median MB/s with every lane busy, as
// the Go map literal of the rate table (md5Rates, ...) for this
// microarchitecture.
func writeRates(w io.Writer, alg string, kernels map[kernelKey][]float64) {
	var entries []string
	for _, k := range fullKernels(alg, kernels) {
		entries = append(entries, fmt.Sprintf("%q: %.0f", k.impl, bench.Median(kernels[k])))
	}
	fmt.Fprintf(w, "\nRates with every lane busy, MB/s (the rate table):\n\n    {%s},\n", strings.Join(entries, ", "))
}

// writeFills prints, for each multi-lane kernel of alg, the share of its
// full rate it moved with fewer lanes busy: the engine's Rated.Fill, as a
// Go map literal.
func writeFills(w io.Writer, alg string, kernels map[kernelKey][]float64) {
	fmt.Fprintf(w, "\nShare of the full rate with n lanes busy (engine.Rated.Fill):\n\n")
	for _, k := range fullKernels(alg, kernels) {
		if k.lanes < 2 {
			continue
		}
		var shares []string
		for busy := 1; busy < k.lanes; busy++ {
			if s, ok := kernels[kernelKey{alg, k.impl, k.lanes, busy}]; ok {
				shares = append(shares, fmt.Sprintf("%d: %.3f", busy, bench.Median(s)/bench.Median(kernels[k])))
			}
		}
		fmt.Fprintf(w, "    %q: {%s},\n", k.impl, strings.Join(shares, ", "))
	}
}

// readResults calls fn with each benchmark result read from r and its
// name's key=value parts.
func readResults(r io.Reader, name string, fn func(fields map[string]string, r *benchfmt.Result) error) error {
	br := benchfmt.NewReader(r, name)
	for br.Scan() {
		res, ok := br.Result().(*benchfmt.Result)
		if !ok {
			continue
		}
		fields := map[string]string{}
		for _, part := range strings.Split(string(res.Name), "/")[1:] {
			if k, v, ok := strings.Cut(part, "="); ok {
				fields[k] = v
			}
		}
		if err := fn(fields, res); err != nil {
			return err
		}
	}
	return br.Err()
}

// value is the result's value in unit.
func value(r *benchfmt.Result, unit string) (float64, bool) {
	for _, v := range r.Values {
		if v.Unit == unit {
			return v.Value, true
		}
	}
	return 0, false
}
