// Command startup times whole programs from exec to exit, for start-up
// work: each round runs every program once, in a random order, and each
// label's programs (copies of one binary) are pooled, so that neither the
// order of a round nor one file's place in the page cache decides a ratio
// (docs/engine.md, "Start-up"). scripts/startup builds the floor's whole
// program at the revisions asked for and runs this on them.
//
//	startup -n 200 -file F -alg sha256 std=a/std.1,a/std.2 HEAD=b/hl.1,b/hl.2
//
// It prints each label's median time, quartiles and runs, and the first
// label's median over each one's (the ratio, as the floor prints it).
package main

import (
	"flag"
	"fmt"
	"math/rand/v2"
	"os"
	"os/exec"
	"slices"
	"strings"
	"time"
)

type program struct {
	label, path string
}

func main() {
	rounds := flag.Int("n", 200, "rounds: every program runs once a round")
	file := flag.String("file", "", "the file the programs hash")
	alg := flag.String("alg", "sha256", "the algorithm the programs hash")
	procs := flag.String("procs", "1", "GOMAXPROCS of the programs")
	flag.Parse()
	if *file == "" || flag.NArg() == 0 {
		fmt.Fprintln(os.Stderr, "usage: startup -file F [-n N] [-alg A] [-procs P] LABEL=PROG[,PROG...]...")
		os.Exit(2)
	}
	var progs []program
	var labels []string
	for _, arg := range flag.Args() {
		label, paths, ok := strings.Cut(arg, "=")
		if !ok || label == "" || paths == "" {
			fmt.Fprintf(os.Stderr, "startup: %q is not LABEL=PROG[,PROG...]\n", arg)
			os.Exit(2)
		}
		if slices.Contains(labels, label) {
			fmt.Fprintf(os.Stderr, "startup: label %q given twice\n", label)
			os.Exit(2)
		}
		labels = append(labels, label)
		for _, p := range strings.Split(paths, ",") {
			progs = append(progs, program{label, p})
		}
	}
	times := map[string][]float64{}
	order := make([]int, len(progs))
	for i := range order {
		order[i] = i
	}
	for range *rounds {
		rand.Shuffle(len(order), func(i, j int) { order[i], order[j] = order[j], order[i] })
		for _, i := range order {
			p := progs[i]
			cmd := exec.Command(p.path, *alg, *file)
			cmd.Env = append(os.Environ(), "GOMAXPROCS="+*procs)
			start := time.Now()
			if out, err := cmd.CombinedOutput(); err != nil {
				fmt.Fprintf(os.Stderr, "startup: %s: %v\n%s", p.path, err, out)
				os.Exit(1)
			}
			times[p.label] = append(times[p.label], float64(time.Since(start).Microseconds()))
		}
	}
	fmt.Printf("# %s, GOMAXPROCS=%s, %d rounds in a random order; ratio: %s's median / the label's\n", *alg, *procs, *rounds, labels[0])
	var base float64
	for i, l := range labels {
		t := times[l]
		slices.Sort(t)
		med := t[len(t)/2]
		if i == 0 {
			base = med
		}
		fmt.Printf("%-24s runs %5d  median %6.0f µs  quartiles %6.0f %6.0f  ratio %.3fx\n", l, len(t), med, t[len(t)/4], t[3*len(t)/4], base/med)
	}
}
