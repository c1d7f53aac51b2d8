package report

import (
	"bufio"
	"cmp"
	"fmt"
	"hash"
	"hash/crc32"
	"io"
	"math"
	"os"
	"path/filepath"
	"runtime"
	"slices"
	"sync"

	"github.com/hashlanes/hashlanes"
	"github.com/hashlanes/hashlanes/internal/reference"
	_ "github.com/hashlanes/hashlanes/internal/reference/blake3ref" // BLAKE3's library rows: lukechampine.com/blake3
	"github.com/hashlanes/hashlanes/internal/workload"
	"github.com/zeebo/xxh3"
)

// Suites are the suite names, in the order they run.
var Suites = []string{"algos", "lanes", "small", "files"}

// SeedSizes are the message sizes of the seeds' algorithm tables.
var SeedSizes = []int64{128, 512, 1 << 10, 8 << 10, 32 << 10, 128 << 10, 256 << 10, 1 << 20, 10 << 20, 16 << 20, 32 << 20, 64 << 20}

// QuickSizes keep --quick under a minute.
var QuickSizes = []int64{128, 8 << 10, 1 << 20}

// Plan is what a run measures.
type Plan struct {
	Suites []string
	Sizes  []int64 // algos suite
	Config Config
	Quick  bool
	// Progress, if set, is told how many rows are done of how many.
	Progress func(done, total int, current string)
	// Python runs the small-messages corpus through Python's hashlib, if
	// its path is set.
	Python string
}

// job is one row to measure.
type job struct {
	row Row
	op  func(n int)
	// run, instead of op, measures the row some other way (Python).
	run func(r *Row) error
	// oneP runs the row with GOMAXPROCS=1.
	oneP bool
}

// jobs lists the rows the plan measures, in order; cleanup removes what
// they made (the files suite's file).
func (p Plan) jobs() (jobs []job, cleanup func(), err error) {
	var cleanups []func()
	cleanup = func() {
		for _, c := range cleanups {
			c()
		}
	}
	for _, s := range p.Suites {
		first := len(jobs)
		switch s {
		case "algos":
			jobs = append(jobs, algosJobs(p.Sizes)...)
		case "lanes":
			jobs = append(jobs, lanesJobs(p.Quick)...)
		case "small":
			jobs = append(jobs, smallJobs(p.Python)...)
		case "files":
			js, c, err := filesJobs(p.Quick)
			if err != nil {
				cleanup()
				return nil, nil, err
			}
			cleanups = append(cleanups, c)
			jobs = append(jobs, js...)
		default:
			cleanup()
			return nil, nil, fmt.Errorf("unknown suite %q (suites: algos, lanes, small, files)", s)
		}
		for k := first; k < len(jobs); k++ { // a suite numbers its pairs from 1
			if jobs[k].row.Pair != 0 {
				jobs[k].row.Pair += first
			}
		}
	}
	return jobs, cleanup, nil
}

// Run measures the plan's suites and returns their rows, settled by the
// outlier rule (see settle).
func Run(p Plan) ([]Row, error) {
	jobs, cleanup, err := p.jobs()
	if err != nil {
		return nil, err
	}
	defer cleanup()
	measure := func(j job) (Row, error) {
		r := j.row
		prev := runtime.GOMAXPROCS(0)
		if j.oneP {
			runtime.GOMAXPROCS(1)
		}
		defer runtime.GOMAXPROCS(prev)
		if j.run != nil {
			return r, j.run(&r)
		}
		p.Config.measure(&r, j.op)
		return r, nil
	}
	// sideBySide measures jobs of one Pair together (see Row.Pair).
	sideBySide := func(js []job) []Row {
		prev := runtime.GOMAXPROCS(0)
		if js[0].oneP {
			runtime.GOMAXPROCS(1)
		}
		defer runtime.GOMAXPROCS(prev)
		rs := make([]Row, len(js))
		ptrs, ops := make([]*Row, len(js)), make([]func(int), len(js))
		for k, j := range js {
			rs[k], ops[k] = j.row, j.op
			ptrs[k] = &rs[k]
		}
		p.Config.measureSideBySide(ptrs, ops)
		return rs
	}
	rows := make([]Row, 0, len(jobs))
	of := make([]job, 0, len(jobs)) // the job of each row
	for i := 0; i < len(jobs); i++ {
		j := jobs[i]
		if p.Progress != nil {
			p.Progress(i, len(jobs), j.row.Name())
		}
		if end := pairEnd(jobs, i); end > i+1 {
			rows = append(rows, sideBySide(jobs[i:end])...)
			of = append(of, jobs[i:end]...)
			i = end - 1
			continue
		}
		r, err := measure(j)
		if err != nil {
			continue // Python missing a module: the row is left out
		}
		rows = append(rows, r)
		of = append(of, j)
	}
	if p.Progress != nil {
		p.Progress(len(jobs), len(jobs), "")
	}
	settle(rows, func(start, end int) ([]Row, bool) {
		if of[start].run != nil {
			return nil, false // measured elsewhere (Python): taken as it came
		}
		if p.Progress != nil {
			p.Progress(len(jobs), len(jobs), rows[start].Name()+" (again)")
		}
		if end > start+1 {
			return sideBySide(of[start:end]), true
		}
		r, err := measure(of[start])
		return []Row{r}, err == nil
	})
	return rows, nil
}

// pairEnd is the end of the run of jobs from i that share its Pair and
// are measured by an op on the same number of Ps; i+1 for a job alone.
func pairEnd(jobs []job, i int) int {
	end := i + 1
	for end < len(jobs) && jobs[i].row.Pair != 0 && jobs[end].row.Pair == jobs[i].row.Pair &&
		jobs[end].op != nil && jobs[i].op != nil && jobs[end].oneP == jobs[i].oneP {
		end++
	}
	return end
}

// The outlier rule. A row whose samples stray more than NoisyAbove from
// their median is measured again, up to maxRemeasures times, and the
// attempt whose samples agree best is kept. A row of the algos suite
// whose rate is below dipBelow of both rows beside it by size (same
// algorithm and implementation) is measured again once, since a real
// rate does not fall by half between two sizes and recover: a burst of
// load on a shared machine does that to a row whose samples still agree
// (docs/figures.md, "The benchmark report"). A row
// still noisy or still a dip is marked Uncertain, with the reason: the
// tables show it so, and the charts, the scenario calculator and the
// advice leave it out.
//
// The lanes suite's reference rows of one algorithm hash the same streams
// one after another at every stream count, so they share one rate: a row
// more than strayFrom off the median of the others (sha512 once read 517
// MB/s ±8% where the rest read 674-677) is measured again once, and
// marked Uncertain if it still strays, since every speed-up over it would
// be off by as much.
//
// A pair of the algos suite whose hashlanes row reads slower than the
// standard library's beyond the noise (what the floor advice would name)
// is measured again once, side by side, and the second measurement is
// kept: the advice names only a gap both found.
//
// A pair of the lanes suite whose speed-up is within payoffBand of the
// payoff (what the streams advice reads) is measured twice more, side by
// side, at the end of the run, and each speed-up is kept in Checks: on a
// shared machine the speed-up of two streams moved across the payoff
// between runs while each run's turns agreed (docs/figures.md, "Side by
// side"), so a count is called worth it only if every measurement of it
// is.
const (
	maxRemeasures = 2
	payoffChecks  = 2
	dipBelow      = 0.5
	strayFrom     = 0.15
)

// settle applies the outlier rule to rows, measuring the rows start..end-1
// again with again(start, end), which reports false for rows it cannot
// measure again. Rows measured side by side (one Pair, next to each other)
// are measured again together, so that the comparison they were measured
// for stays one of turns taken together: a row measured again alone, a
// minute later on a machine whose speed had changed, made a ratio that
// moved by up to 58% between two runs of the report (docs/figures.md,
// "Side by side").
func settle(rows []Row, again func(start, end int) ([]Row, bool)) {
	retry := func(start, end int) ([]Row, bool) {
		rs, ok := again(start, end)
		if ok && len(rs) != end-start {
			panic("report: rows measured again do not match their group")
		}
		return rs, ok
	}
	for start := 0; start < len(rows); {
		end := groupEnd(rows, start)
		g := rows[start:end]
		for worstSpread(g) > NoisyAbove && g[0].Remeasured < maxRemeasures {
			rs, ok := retry(start, end)
			if !ok {
				break
			}
			n := g[0].Remeasured + 1
			if worstSpread(rs) < worstSpread(g) {
				copy(g, rs)
			}
			for k := range g {
				g[k].Remeasured = n
			}
		}
		start = end
	}
	var starts []int // the groups of the dips and strays, each once
	for _, i := range append(Dips(rows), Strays(rows)...) {
		if start := groupStart(rows, i); !slices.Contains(starts, start) {
			starts = append(starts, start)
		}
	}
	slices.Sort(starts)
	measureAgain := func(start int) {
		end := groupEnd(rows, start)
		if rs, ok := retry(start, end); ok {
			n := rows[start].Remeasured + 1
			copy(rows[start:end], rs)
			for k := start; k < end; k++ {
				rows[k].Remeasured = n
			}
		}
	}
	for _, start := range starts {
		measureAgain(start)
	}
	// A claim that hashlanes is slower than the standard library is made
	// only if a second measurement makes it again: the measurement that
	// found the gap is taken again, side by side, and the advice reads
	// that one. At the edge of the noise (a ratio 3-5% under one) three
	// runs of the report named three different sets of rows; a gap the
	// advice names must be one the next run names too.
	for _, p := range floorPairs(rows) {
		if sideBySide.apart(rows[p[0]], rows[p[1]]) {
			measureAgain(groupStart(rows, p[1]))
		}
	}
	for _, p := range payoffPairs(rows) {
		start := groupStart(rows, p[1])
		for range payoffChecks {
			rs, ok := retry(start, groupEnd(rows, start))
			if !ok {
				break
			}
			up, _, _ := sideBySide.speedup(rs[p[1]-start], rs[p[0]-start])
			rows[p[1]].Checks = append(rows[p[1]].Checks, up)
		}
	}
	for i := range rows {
		if rows[i].Noisy() {
			rows[i].Uncertain = fmt.Sprintf("samples ±%.0f%%, measured %d× in all", 100*Spread(rows[i].Samples), rows[i].Remeasured+1)
		}
	}
	for _, i := range Dips(rows) {
		rows[i].Uncertain = fmt.Sprintf("%.0f MB/s, under half the sizes beside it, twice", rows[i].MBps())
	}
	for _, i := range Strays(rows) {
		rows[i].Uncertain = fmt.Sprintf("%.0f MB/s, more than %.0f%% off the same implementation at the other stream counts (%.0f), twice",
			rows[i].MBps(), 100*strayFrom, siblingsMedian(rows, i))
	}
}

// payoffPairs are the comparisons of the streams advice whose speed-up is
// within payoffBand of the payoff: each hashlanes row of the lanes suite
// with the other row of its Pair, as indices into rows [reference,
// hashlanes] (as floorPairs gives the floor advice's).
func payoffPairs(rows []Row) [][2]int {
	var pairs [][2]int
	for i, r := range rows {
		if r.Suite != "lanes" || r.Impl != "hashlanes" || r.Pair == 0 {
			continue
		}
		start := groupStart(rows, i)
		for j := start; j < groupEnd(rows, start); j++ {
			if j == i {
				continue
			}
			if up, _, _ := sideBySide.speedup(r, rows[j]); up > payoff/(1+payoffBand) && up < payoff*(1+payoffBand) {
				pairs = append(pairs, [2]int{j, i})
			}
			break
		}
	}
	return pairs
}

// groupEnd is the end of the rows measured with rows[start]: those of its
// Pair next to it, or start+1 for a row measured alone.
func groupEnd(rows []Row, start int) int {
	end := start + 1
	for rows[start].Pair != 0 && end < len(rows) && rows[end].Pair == rows[start].Pair {
		end++
	}
	return end
}

// groupStart is the start of the rows measured with rows[i] (see
// groupEnd).
func groupStart(rows []Row, i int) int {
	start := i
	for start > 0 && groupEnd(rows, start-1) > i {
		start--
	}
	return start
}

// worstSpread is the largest spread of rows' samples.
func worstSpread(rows []Row) float64 {
	w := 0.0
	for _, r := range rows {
		w = max(w, Spread(r.Samples))
	}
	return w
}

// Strays returns the indices of the lanes suite's reference rows (not
// hashlanes') whose rate is more than strayFrom off the median of the
// same algorithm's and implementation's rows at the other stream counts;
// it needs two others to tell.
func Strays(rows []Row) []int {
	var out []int
	for i, r := range rows {
		if r.Suite != "lanes" || r.Impl == "hashlanes" {
			continue
		}
		if m := siblingsMedian(rows, i); m > 0 && math.Abs(r.MBps()/m-1) > strayFrom {
			out = append(out, i)
		}
	}
	return out
}

// siblingsMedian is the median rate of row i's siblings (see Strays), or
// 0 with fewer than two.
func siblingsMedian(rows []Row, i int) float64 {
	var rates []float64
	for j, r := range rows {
		if j != i && r.Suite == "lanes" && r.Alg == rows[i].Alg && r.Impl == rows[i].Impl {
			rates = append(rates, r.MBps())
		}
	}
	if len(rates) < 2 {
		return 0
	}
	return Median(rates)
}

// Dips returns the indices of the algos suite's rows whose rate is below
// dipBelow of both rows beside them by size, of the same algorithm and
// implementation. The smallest and largest sizes have one neighbour and
// are never a dip.
func Dips(rows []Row) []int {
	by := map[string][]int{}
	for i, r := range rows {
		if r.Suite == "algos" {
			k := r.Alg + "/" + r.Impl
			by[k] = append(by[k], i)
		}
	}
	var dips []int
	for _, idx := range by {
		slices.SortFunc(idx, func(a, b int) int { return cmp.Compare(rows[a].Size, rows[b].Size) })
		for k := 1; k+1 < len(idx); k++ {
			r := rows[idx[k]].MBps()
			if r < dipBelow*min(rows[idx[k-1]].MBps(), rows[idx[k+1]].MBps()) {
				dips = append(dips, idx[k])
			}
		}
	}
	slices.Sort(dips)
	return dips
}

// nonCrypto are the fast non-cryptographic references the algos suite
// shows beside the hashes.
var nonCrypto = []struct {
	name, impl string
	new        func() hash.Hash
}{
	{"xxh3", "zeebo/xxh3", func() hash.Hash { return xxh3.New() }},
	{"crc32c", "hash/crc32", func() hash.Hash { return crc32.New(crc32.MakeTable(crc32.Castagnoli)) }},
}

// isNonCrypto tells the non-cryptographic references apart, which the
// recommendations leave out.
func isNonCrypto(alg string) bool {
	for _, nc := range nonCrypto {
		if nc.name == alg {
			return true
		}
	}
	return false
}

// referenceOf is a's reference implementation, the one hashlanes is
// tested against.
func referenceOf(a hashlanes.Algorithm) reference.ID {
	id, ok := reference.Named(a.String())
	if !ok {
		panic("no reference implementation for " + a.String())
	}
	return id
}

// referenceImpl names where an algorithm's reference implementation
// comes from.
func referenceImpl(a hashlanes.Algorithm) string {
	switch a {
	case hashlanes.BLAKE2b, hashlanes.BLAKE2s:
		return "x/crypto"
	case hashlanes.BLAKE3:
		return "blake3"
	}
	return "stdlib"
}

// onLanes tells whether hashlanes runs its own kernels for a (otherwise it
// serves the reference implementation, and a second row would repeat it).
func onLanes(a hashlanes.Algorithm) bool { return !hashlanes.DefaultServer(a).Reference() }

// LaneAlgorithms are the algorithms hashlanes runs on its own kernels.
func LaneAlgorithms() []hashlanes.Algorithm {
	var as []hashlanes.Algorithm
	for _, a := range hashlanes.Algorithms() {
		if onLanes(a) {
			as = append(as, a)
		}
	}
	return as
}

// hashOp hashes data n times with a reused hasher, as a program hashing
// one message after another would.
func hashOp(h hash.Hash, data []byte) func(n int) {
	out := make([]byte, 0, 64)
	return func(n int) {
		for range n {
			h.Reset()
			h.Write(data)
			out = h.Sum(out[:0])
		}
	}
}

// algosJobs: one message at a time, on one core as the seeds measured
// (lukechampine's BLAKE3 would otherwise spread a large message over every
// core).
func algosJobs(sizes []int64) []job {
	var jobs []job
	for _, size := range sizes {
		data := workload.RandomBytes(int(size), uint64(size))
		for _, a := range hashlanes.Algorithms() {
			// The reference and hashlanes' rows are compared: side by side.
			row := Row{Suite: "algos", Alg: a.String(), Size: size, Bytes: size, Pair: len(jobs) + 1}
			ref := row
			ref.Impl = referenceImpl(a)
			jobs = append(jobs, job{row: ref, op: hashOp(referenceOf(a).New(), data), oneP: true})
			if onLanes(a) {
				hl := row
				hl.Impl, hl.Kernel = "hashlanes", hashlanes.DefaultServer(a).Kernel()
				jobs = append(jobs, job{row: hl, op: hashOp(hashlanes.New(a), data), oneP: true})
			}
		}
		for _, nc := range nonCrypto {
			row := Row{Suite: "algos", Alg: nc.name, Impl: nc.impl, Size: size, Bytes: size}
			jobs = append(jobs, job{row: row, op: hashOp(nc.new(), data), oneP: true})
		}
	}
	return jobs
}

// LaneCounts are the concurrent stream counts of the lanes suite (the
// seed-003 table).
var LaneCounts = []int{1, 2, 4, 8, 16, 64}

// lanesJobs: N goroutines, each hashing its own message in 32 KiB writes,
// through hashlanes.New against the reference implementation, on one
// core: what lanes save is a core's time, and at several Ps the
// scheduler's placement of the goroutines moved the rows by 10-20% from
// one run to the next on a two-core machine.
func lanesJobs(quick bool) []job {
	size := int64(1 << 20)
	if quick {
		size = 256 << 10
	}
	var jobs []job
	for _, a := range LaneAlgorithms() {
		for _, n := range LaneCounts {
			msgs := make([][]byte, n)
			for i := range msgs {
				msgs[i] = workload.RandomBytes(int(size), uint64(i+1))
			}
			pair := len(jobs) + 1
			for _, impl := range []string{referenceImpl(a), "hashlanes"} {
				newHash := func() hash.Hash { return referenceOf(a).New() }
				row := Row{Suite: "lanes", Alg: a.String(), Impl: impl, Streams: n, Size: size, Bytes: size * int64(n), Pair: pair}
				if impl == "hashlanes" {
					newHash = func() hash.Hash { return hashlanes.New(a) }
					row.Kernel = hashlanes.DefaultServer(a).Kernel()
				}
				jobs = append(jobs, job{row: row, op: streamsOp(newHash, msgs), oneP: true})
			}
		}
	}
	return jobs
}

func streamsOp(newHash func() hash.Hash, msgs [][]byte) func(n int) {
	hs := make([]hash.Hash, len(msgs))
	for i := range hs {
		hs[i] = newHash()
	}
	return func(n int) {
		for range n {
			var wg sync.WaitGroup
			for i, m := range msgs {
				wg.Go(func() {
					h := hs[i]
					h.Reset()
					for len(m) > 0 {
						k := min(len(m), 32<<10)
						h.Write(m[:k])
						m = m[k:]
					}
					h.Sum(nil)
				})
			}
			wg.Wait()
		}
	}
}

// SmallCount is the size of the small-messages corpus.
const SmallCount = 10_000

// smallJobs: the URL-path corpus on one core (Python is one thread too),
// a loop of one-shot sums against SumMany.
func smallJobs(python string) []job {
	paths := workload.URLPaths(SmallCount)
	total := int64(0)
	for _, p := range paths {
		total += int64(len(p))
	}
	var jobs []job
	for _, a := range []hashlanes.Algorithm{hashlanes.MD5, hashlanes.SHA1, hashlanes.SHA256, hashlanes.SHA512} {
		dst := make([]byte, 0, len(paths)*a.Size())
		row := Row{Suite: "small", Alg: a.String(), Msgs: len(paths), Bytes: total}
		loop := row
		loop.Impl = "loop"
		jobs = append(jobs, job{row: loop, oneP: true, op: func(n int) {
			for range n {
				d := dst[:0]
				for _, p := range paths {
					d = referenceOf(a).Sum(d, p)
				}
			}
		}})
		many := row
		many.Impl, many.Kernel = "summany", hashlanes.DefaultServer(a).Kernel()
		jobs = append(jobs, job{row: many, oneP: true, op: func(n int) {
			for range n {
				hashlanes.SumMany(a, dst[:0], paths)
			}
		}})
		if python != "" {
			py := row
			py.Impl = "python-hashlib"
			jobs = append(jobs, job{row: py, run: func(r *Row) error { return pythonSmall(python, r, paths) }})
		}
	}
	return jobs
}

// FileMethods are the seed-004 ways of hashing a file.
var FileMethods = []string{"readall", "iocopy", "bufio", "pooled", "hashlanes"}

var filePool = sync.Pool{New: func() any { return new([64 << 10]byte) }}

// filesJobs hashes one generated file by each method.
func filesJobs(quick bool) ([]job, func(), error) {
	size := int64(64 << 20)
	if quick {
		size = 16 << 20
	}
	dir, err := os.MkdirTemp("", "hashlanes-bench")
	if err != nil {
		return nil, nil, err
	}
	name := filepath.Join(dir, "file")
	if err := os.WriteFile(name, workload.RandomBytes(int(size), 4), 0o644); err != nil {
		os.RemoveAll(dir)
		return nil, nil, err
	}
	cleanup := func() { os.RemoveAll(dir) }
	var jobs []job
	for _, a := range []hashlanes.Algorithm{hashlanes.SHA256, hashlanes.MD5} {
		for _, m := range FileMethods {
			row := Row{Suite: "files", Alg: a.String(), Impl: m, Size: size, Bytes: size}
			jobs = append(jobs, job{row: row, op: fileOp(a, m, name)})
		}
	}
	return jobs, cleanup, nil
}

func fileOp(a hashlanes.Algorithm, method, name string) func(n int) {
	check := func(err error) {
		if err != nil {
			panic(err) // the file was just written; failing to read it is a broken machine
		}
	}
	return func(n int) {
		for range n {
			if method == "hashlanes" {
				_, err := hashlanes.SumFile(a, name)
				check(err)
				continue
			}
			h := referenceOf(a).New()
			if method == "readall" {
				data, err := os.ReadFile(name)
				check(err)
				h.Write(data)
				h.Sum(nil)
				continue
			}
			f, err := os.Open(name)
			check(err)
			switch method {
			case "iocopy":
				_, err = io.Copy(h, f)
			case "bufio":
				_, err = io.Copy(h, bufio.NewReader(f))
			case "pooled":
				buf := filePool.Get().(*[64 << 10]byte)
				_, err = io.CopyBuffer(writerOnly{h}, readerOnly{f}, buf[:])
				filePool.Put(buf)
			}
			check(err)
			f.Close()
			h.Sum(nil)
		}
	}
}

// readerOnly and writerOnly hide ReadFrom/WriteTo, so CopyBuffer really
// uses the pooled buffer.
type readerOnly struct{ io.Reader }
type writerOnly struct{ io.Writer }
