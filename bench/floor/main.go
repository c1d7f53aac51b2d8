// Command floor measures the first programs a person writes with hashlanes
// against the same programs on the standard library, each in a fresh
// process: one file through io.Copy, hashers one after another, one hasher
// reused per message, a new hasher per message, one-shot sums, a few
// messages in one SumMany. A long benchmark warms the engine's heuristics
// and hides start-up costs; these cases run once per process, so whatever
// a process pays before its heuristics settle is in the figure.
//
//	go run ./bench/floor -pairs 5 -procs 1,2
//
// The driver runs each case in child processes of its own binary,
// alternating the standard library and hashlanes, and prints the median
// ratio (the standard library's time over hashlanes') of each case, the
// worst case, and the engine's waits and yields in the hashlanes runs.
//
// Those cases time the work inside the process. The whole-process case
// times a process from exec to exit, start-up included: a program that
// hashes one small file and exits, built twice (./whole/std and
// ./whole/hashlanes, so that the standard library's side links nothing of
// hashlanes); -whole names the folder holding the two binaries, or copies
// of each named std.1, std.2, ... taken in turn, which scripts/floor
// builds.
package main

import (
	"crypto/md5"
	"crypto/sha1"
	"crypto/sha256"
	"crypto/sha512"
	"flag"
	"fmt"
	"hash"
	"io"
	"math/rand/v2"
	"os"
	"os/exec"
	"slices"
	"strconv"
	"strings"
	"sync"
	"time"

	"github.com/hashlanes/hashlanes"
	"github.com/hashlanes/hashlanes/internal/workload"
)

// A floorCase is one program, written twice: on the standard library and
// on hashlanes, the same calls otherwise.
type floorCase struct {
	name string
	// run does the work on impl and returns what it hashed, so that
	// nothing is optimised away.
	run func(e env) byte
}

// env is what a case runs with: the algorithm, the implementation and the
// inputs made before the clock starts.
type env struct {
	alg  hashlanes.Algorithm
	std  bool
	file string // a 64 MiB file, for the file case
}

func (e env) newHash() hash.Hash {
	if e.std {
		return stdNew(e.alg)
	}
	return hashlanes.New(e.alg)
}

func (e env) appendSum(dst, msg []byte) []byte {
	if !e.std {
		return hashlanes.AppendSum(e.alg, dst, msg)
	}
	switch e.alg {
	case hashlanes.MD5:
		s := md5.Sum(msg)
		return append(dst, s[:]...)
	case hashlanes.SHA1:
		s := sha1.Sum(msg)
		return append(dst, s[:]...)
	case hashlanes.SHA256:
		s := sha256.Sum256(msg)
		return append(dst, s[:]...)
	default:
		s := sha512.Sum512(msg)
		return append(dst, s[:]...)
	}
}

func stdNew(a hashlanes.Algorithm) hash.Hash {
	switch a {
	case hashlanes.MD5:
		return md5.New()
	case hashlanes.SHA1:
		return sha1.New()
	case hashlanes.SHA256:
		return sha256.New()
	default:
		return sha512.New()
	}
}

var cases = []floorCase{
	{"file 64 MiB, io.Copy", func(e env) byte {
		f, err := os.Open(e.file)
		if err != nil {
			fatal(err)
		}
		defer f.Close()
		h := e.newHash()
		if _, err := io.Copy(h, f); err != nil {
			fatal(err)
		}
		return h.Sum(nil)[0]
	}},
	{"30 hashers x 1 MiB, one after another", func(e env) byte {
		p := workload.RandomBytes(1<<20, 1)
		var x byte
		for range 30 {
			h := e.newHash()
			workload.WriteIn(h, p, 32<<10)
			x ^= h.Sum(nil)[0]
		}
		return x
	}},
	{"one stream of 1 MiB", func(e env) byte {
		p := workload.RandomBytes(1<<20, 2)
		h := e.newHash()
		workload.WriteIn(h, p, 32<<10)
		return h.Sum(nil)[0]
	}},
	{"one stream of 4 MiB in 1-8 KiB writes", func(e env) byte {
		p := workload.RandomBytes(4<<20, 3)
		r := rand.New(rand.NewPCG(1, 2))
		h := e.newHash()
		for len(p) > 0 {
			k := min(len(p), 1<<10+r.IntN(7<<10))
			h.Write(p[:k])
			p = p[k:]
		}
		return h.Sum(nil)[0]
	}},
	{"one hasher reused, 20,000 x 128 B", func(e env) byte {
		return reused(e, 128, 20000)
	}},
	{"one hasher reused, 4,000 x 1 KiB", func(e env) byte {
		return reused(e, 1<<10, 4000)
	}},
	{"a new hasher per message, 4,000 x 1 KiB", func(e env) byte {
		p := workload.RandomBytes(1<<10, 7)
		sum := make([]byte, 0, 64)
		var x byte
		for i := range 4000 {
			p[0] = byte(i)
			h := e.newHash()
			h.Write(p)
			sum = h.Sum(sum[:0])
			x ^= sum[0]
		}
		return x
	}},
	{"AppendSum, 20,000 x 64 B", func(e env) byte {
		p := workload.RandomBytes(64, 4)
		dst := make([]byte, 0, 64)
		var x byte
		for i := range 20000 {
			p[0] = byte(i)
			dst = e.appendSum(dst[:0], p)
			x ^= dst[0]
		}
		return x
	}},
	{"SumMany of 3 URL paths, 5,000 times", func(e env) byte {
		msgs := workload.URLPaths(3)
		dst := make([]byte, 0, 3*64)
		var x byte
		for range 5000 {
			if e.std {
				dst = dst[:0]
				for _, m := range msgs {
					dst = e.appendSum(dst, m)
				}
			} else {
				dst = hashlanes.SumMany(e.alg, dst[:0], msgs)
			}
			x ^= dst[0]
		}
		return x
	}},
	{"first SumMany, 10,000 URL paths once", func(e env) byte {
		msgs := workload.URLPaths(10000)
		dst := make([]byte, 0, 10000*64)
		if e.std {
			for _, m := range msgs {
				dst = e.appendSum(dst, m)
			}
		} else {
			dst = hashlanes.SumMany(e.alg, dst, msgs)
		}
		return dst[0]
	}},
	// 2,000 hashers an upload, not 200: a process of 200 (3 ms at two
	// Ps) ran the standard library against itself at 0.79-1.32 (the
	// quartiles of 21 pairs), too wide to tell a few percent.
	{"2 uploads at once, 2,000 x 16 KiB, 8 KiB writes", func(e env) byte {
		p := workload.RandomBytes(16<<10, 5)
		var wg sync.WaitGroup
		var out [2]byte
		for g := range 2 {
			wg.Go(func() {
				for range 2000 {
					h := e.newHash()
					workload.WriteIn(h, p, 8<<10)
					out[g] ^= h.Sum(nil)[0]
				}
			})
		}
		wg.Wait()
		return out[0] ^ out[1]
	}},
}

func reused(e env, size, n int) byte {
	p := workload.RandomBytes(size, 6)
	h := e.newHash()
	sum := make([]byte, 0, 64)
	var x byte
	for i := range n {
		p[0] = byte(i)
		h.Reset()
		h.Write(p)
		sum = h.Sum(sum[:0])
		x ^= sum[0]
	}
	return x
}

func fatal(err error) {
	fmt.Fprintln(os.Stderr, "floor:", err)
	os.Exit(1)
}

func main() {
	child := flag.String("child", "", "run one case in this process: CASE,ALG,std|hashlanes (internal)")
	file := flag.String("file", "", "the 64 MiB file of the file case (made in a temporary folder if empty)")
	pairs := flag.Int("pairs", 11, "process pairs per case")
	procs := flag.String("procs", "1,2", "GOMAXPROCS values")
	algs := flag.String("a", "md5,sha1,sha256,sha512", "algorithms")
	only := flag.String("case", "", "run only the cases whose name contains this")
	whole := flag.String("whole", "", "folder with the whole-process programs std and hashlanes (built from ./whole; the case is left out without it)")
	flag.Parse()
	if *child != "" {
		runChild(*child, *file)
		return
	}
	if *file == "" {
		dir, err := os.MkdirTemp("", "floor")
		if err != nil {
			fatal(err)
		}
		defer os.RemoveAll(dir)
		*file = dir + "/64MiB"
		if err := os.WriteFile(*file, workload.RandomBytes(64<<20, 9), 0o644); err != nil {
			fatal(err)
		}
	}
	self, err := os.Executable()
	if err != nil {
		fatal(err)
	}
	small, err := os.CreateTemp("", "floor-4KiB")
	if err != nil {
		fatal(err)
	}
	defer os.Remove(small.Name())
	if _, err := small.Write(workload.RandomBytes(4<<10, 10)); err != nil {
		fatal(err)
	}
	if err := small.Close(); err != nil {
		fatal(err)
	}
	drive(self, *file, *pairs, strings.Split(*procs, ","), strings.Split(*algs, ","), *only, wholeRun{dir: *whole, file: small.Name(), turn: map[string]int{}})
}

// runChild runs one case and prints its time in nanoseconds and the
// default engine's awaits and yields.
func runChild(spec, file string) {
	f := strings.Split(spec, ",")
	ci, _ := strconv.Atoi(f[0])
	a, err := hashlanes.ParseAlgorithm(f[1])
	if err != nil {
		fatal(err)
	}
	e := env{alg: a, std: f[2] == "std", file: file}
	start := time.Now()
	x := cases[ci].run(e)
	ns := time.Since(start).Nanoseconds()
	st := hashlanes.DefaultServer(a).Stats()
	fmt.Printf("%d %d %d %d\n", ns, st.Awaits, st.Yields, x)
}

type result struct {
	ns            int64
	awaits, yield uint64
	digest        string // the whole-process programs' output
}

func once(self, file, spec, procs string) result {
	cmd := exec.Command(self, "-child", spec, "-file", file)
	cmd.Env = append(os.Environ(), "GOMAXPROCS="+procs)
	cmd.Stderr = os.Stderr
	out, err := cmd.Output()
	if err != nil {
		fatal(fmt.Errorf("%s: %v", spec, err))
	}
	var r result
	var x int
	if _, err := fmt.Sscan(string(out), &r.ns, &r.awaits, &r.yield, &x); err != nil {
		fatal(fmt.Errorf("%s: %q: %v", spec, out, err))
	}
	r.digest = strconv.Itoa(x) // the same on both sides, or one of them hashed wrong
	return r
}

// wholeCase is the whole-process case's name in the table.
const wholeCase = "whole process: one 4 KiB file, exec to exit"

// wholeRun is where the whole-process case's programs and its file are.
// Each side may have copies (DIR/std.1, DIR/std.2, ...), which runs take
// in turn: two copies of one binary can start up to 5% apart, as the page
// cache happens to hold each file, and one copy a side would put that in
// every ratio (docs/engine.md, "Start-up").
type wholeRun struct {
	dir, file string
	turn      map[string]int // runs so far, by side
}

// program returns the path of the side's program for its next run.
func (w wholeRun) program(side string) string {
	n := w.turn[side]
	w.turn[side] = n + 1
	var copies []string
	for i := 1; ; i++ {
		p := fmt.Sprintf("%s/%s.%d", w.dir, side, i)
		if _, err := os.Stat(p); err != nil {
			break
		}
		copies = append(copies, p)
	}
	if len(copies) == 0 {
		return w.dir + "/" + side
	}
	return copies[n%len(copies)]
}

// once runs the whole-process program of one side and returns its time
// from exec to exit, and the waits and yields it reports.
func (w wholeRun) once(alg, side, procs string) result {
	cmd := exec.Command(w.program(side), alg, w.file)
	cmd.Env = append(os.Environ(), "GOMAXPROCS="+procs)
	var stderr strings.Builder
	cmd.Stderr = &stderr
	start := time.Now()
	out, err := cmd.Output()
	ns := time.Since(start).Nanoseconds()
	if err != nil {
		fatal(fmt.Errorf("%s %s: %v: %s", side, alg, err, stderr.String()))
	}
	r := result{ns: ns, digest: string(out)}
	if _, err := fmt.Sscan(stderr.String(), &r.awaits, &r.yield); err != nil {
		fatal(fmt.Errorf("%s %s: %q: %v", side, alg, stderr.String(), err))
	}
	return r
}

func drive(self, file string, pairs int, procs, algs []string, only string, whole wholeRun) {
	fmt.Printf("# ratio = the standard library's time / hashlanes', median of %d fresh-process pairs; after ±, half the pairs' interquartile range (the case's noise); in brackets, the ratio of the two sides' median times; waits and yields: the most in one hashlanes process\n", pairs)
	fmt.Printf("%-48s %-6s %s\n", "case", "procs", strings.Join(algs, "                            "))
	worst, worstAt := 1e9, ""
	worstSides, worstSidesAt := 1e9, ""
	var below []string // cells whose upper quartile is below the floor too
	// A row is one case: its name and how to run one side of it.
	type row struct {
		name string
		once func(alg, side, procs string) result
	}
	var rows []row
	for ci, c := range cases {
		rows = append(rows, row{c.name, func(alg, side, procs string) result {
			return once(self, file, fmt.Sprintf("%d,%s,%s", ci, alg, side), procs)
		}})
	}
	if whole.dir != "" {
		rows = append(rows, row{wholeCase, whole.once})
	} else if only == "" || strings.Contains(wholeCase, only) {
		defer fmt.Printf("# %q left out: it needs -whole DIR, the programs of ./whole built there (scripts/floor builds them)\n", wholeCase)
	}
	for _, c := range rows {
		if only != "" && !strings.Contains(c.name, only) {
			continue
		}
		for _, p := range procs {
			fmt.Printf("%-48s %-6s", c.name, p)
			for _, a := range algs {
				var ratios, stdTimes, ourTimes []float64
				var waits, yields uint64
				for i := range pairs {
					// Alternate which goes first, so that neither always
					// follows the other.
					var s, h result
					if i%2 == 0 {
						s = c.once(a, "std", p)
						h = c.once(a, "hashlanes", p)
					} else {
						h = c.once(a, "hashlanes", p)
						s = c.once(a, "std", p)
					}
					if s.digest != h.digest {
						fatal(fmt.Errorf("%s, %s: the two sides printed %q and %q", c.name, a, s.digest, h.digest))
					}
					ratios = append(ratios, float64(s.ns)/float64(h.ns))
					stdTimes, ourTimes = append(stdTimes, float64(s.ns)), append(ourTimes, float64(h.ns))
					waits, yields = max(waits, h.awaits), max(yields, h.yield)
				}
				q1, m, q3 := quartiles(ratios)
				sides := median(stdTimes) / median(ourTimes)
				at := fmt.Sprintf("%s, %s, GOMAXPROCS=%s", c.name, a, p)
				if m < worst {
					worst, worstAt = m, at
				}
				if sides < worstSides {
					worstSides, worstSidesAt = sides, at
				}
				if q3 < floorRatio {
					below = append(below, fmt.Sprintf("%s (%.3fx, upper quartile %.3fx)", at, m, q3))
				}
				fmt.Printf(" %5.3fx ±%.3f (%5.3fx) w%d y%-3d", m, (q3-q1)/2, sides, waits, yields)
			}
			fmt.Println()
		}
	}
	fmt.Printf("worst: %.3fx (%s)\n", worst, worstAt)
	fmt.Printf("worst by the sides' medians: %.3fx (%s)\n", worstSides, worstSidesAt)
	fmt.Printf("below %.2fx by the upper quartile too: %d\n", floorRatio, len(below))
	for _, b := range below {
		fmt.Printf("  %s\n", b)
	}
}

// floorRatio is the floor the cases are held to: hashlanes at least this
// share of the standard library's speed.
const floorRatio = 0.97

// quartiles returns the lower quartile, the median and the upper quartile
// of v (sorted in place), each the nearest element.
func quartiles(v []float64) (q1, m, q3 float64) {
	slices.Sort(v)
	n := len(v)
	return v[n/4], v[n/2], v[(3*n)/4]
}

// median is the middle of v (sorted in place), the upper of the two
// middles for an even count.
func median(v []float64) float64 {
	_, m, _ := quartiles(v)
	return m
}
