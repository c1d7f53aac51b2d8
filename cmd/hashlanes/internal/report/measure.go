package report

import (
	"fmt"
	"runtime"
	"strings"
	"time"

	"github.com/hashlanes/hashlanes/internal/workload"
)

// Row is one measured workload: what ran, and how long each repetition
// took per operation.
type Row struct {
	Suite   string `json:"suite"` // algos, lanes, small, files
	Alg     string `json:"alg"`
	Impl    string `json:"impl"`              // stdlib, hashlanes, a library, a method
	Size    int64  `json:"size,omitempty"`    // bytes per message or stream
	Streams int    `json:"streams,omitempty"` // lanes: concurrent streams
	Msgs    int    `json:"msgs,omitempty"`    // small: messages per operation
	Kernel  string `json:"kernel,omitempty"`  // what hashlanes ran

	Bytes      int64     `json:"bytes_per_op"`       // bytes hashed per operation
	Samples    []float64 `json:"ns_per_op"`          // one per repetition
	Iterations int       `json:"iterations"`         // operations per repetition
	AllocBytes float64   `json:"alloc_bytes_per_op"` // heap bytes allocated per operation
	Allocs     float64   `json:"allocs_per_op"`

	// Remeasured counts the times the row was measured again (see
	// settle); Uncertain, if set, says why its figures are not to be
	// trusted even so.
	Remeasured int    `json:"remeasured,omitempty"`
	Uncertain  string `json:"uncertain,omitempty"`

	// Checks, on a hashlanes row of the lanes suite whose speed-up is
	// near the payoff, are the speed-ups its Pair measured again later
	// in the run, side by side (see settle): where the machine's speed
	// moves a speed-up across the payoff, the advice tells it by them.
	Checks []float64 `json:"checks,omitempty"`

	// Pair, if not 0, is shared by rows measured side by side: their
	// repetitions take turns, so sample i of each ran at about the same
	// time, and their ratio is told sample by sample (see apart).
	Pair int `json:"pair,omitempty"`
}

// NsPerOp is the median time of one operation.
func (r Row) NsPerOp() float64 { return Median(r.Samples) }

// MBps is the median throughput in 10^6 bytes per second, as Go's
// benchmarks report it.
func (r Row) MBps() float64 { return float64(r.Bytes) / r.NsPerOp() * 1e3 }

// Noisy tells whether the repetitions disagree by more than NoisyAbove.
func (r Row) Noisy() bool { return Spread(r.Samples) > NoisyAbove }

// NsPerMsg is the median time per message of a small-messages row.
func (r Row) NsPerMsg() float64 { return r.NsPerOp() / float64(max(r.Msgs, 1)) }

// Name is the row's Go benchmark name, which benchstat reads.
func (r Row) Name() string {
	var b strings.Builder
	b.WriteString("Benchmark" + strings.ToUpper(r.Suite[:1]) + r.Suite[1:])
	fmt.Fprintf(&b, "/alg=%s/impl=%s", r.Alg, r.Impl)
	if r.Streams > 0 {
		fmt.Fprintf(&b, "/streams=%d", r.Streams)
	}
	if r.Msgs > 0 {
		fmt.Fprintf(&b, "/msgs=%d", r.Msgs)
	}
	if r.Size > 0 {
		fmt.Fprintf(&b, "/size=%s", workload.SizeName(r.Size))
	}
	return b.String()
}

// ParseSize reads what workload.SizeName writes (and plain byte counts).
func ParseSize(s string) (int64, error) {
	units := []struct {
		suffix string
		mult   int64
	}{{"MiB", 1 << 20}, {"KiB", 1 << 10}, {"M", 1 << 20}, {"K", 1 << 10}, {"B", 1}, {"", 1}}
	for _, u := range units {
		if num, ok := strings.CutSuffix(s, u.suffix); ok {
			var n int64
			if _, err := fmt.Sscanf(num, "%d", &n); err != nil || n <= 0 || fmt.Sprint(n) != num {
				return 0, fmt.Errorf("bad size %q (want e.g. 128B, 8KiB, 1MiB)", s)
			}
			return n * u.mult, nil
		}
	}
	return 0, fmt.Errorf("bad size %q", s)
}

// Config says how hard to measure.
type Config struct {
	Reps    int           // timed repetitions per row
	MinTime time.Duration // each repetition runs at least this long
}

// Quick and Full are the two standard efforts.
var (
	Quick = Config{Reps: 5, MinTime: 30 * time.Millisecond}
	Full  = Config{Reps: 10, MinTime: 150 * time.Millisecond}
)

// measure runs op (which performs its operation n times) once to warm up
// and calibrate, then Reps times for at least MinTime each, and fills the
// row's samples and allocation counts.
func (c Config) measure(r *Row, op func(n int)) {
	c.measureSideBySide([]*Row{r}, []func(int){op})
}

// measureSideBySide measures rows[k] by ops[k] as measure does, their
// repetitions taking turns (the first of each turn rotating), so that a
// burst of load on a shared machine slows them alike (measured one after
// another, two rows moved against each other between runs by more than
// the gaps the advice must tell: docs/figures.md, "Side by side").
func (c Config) measureSideBySide(rows []*Row, ops []func(n int)) {
	ns := make([]int, len(rows))
	for k, op := range ops {
		ns[k] = c.calibrate(op)
		rows[k].Iterations = ns[k]
		rows[k].Samples = rows[k].Samples[:0]
	}
	for i := range c.Reps {
		for j := range rows {
			k := (i + j) % len(rows)
			c.repetition(rows[k], ops[k], ns[k], i == 0)
		}
	}
}

// calibrate warms op up and returns how many operations take MinTime.
func (c Config) calibrate(op func(n int)) int {
	start := time.Now()
	op(1) // warm-up: caches, pools, lazily built servers
	one := max(time.Since(start), time.Microsecond)
	n := max(1, int(c.MinTime/one))
	// Calibrate once more at the scale measured: the first call pays for
	// what warms up.
	start = time.Now()
	op(n)
	if d := time.Since(start); d > 0 {
		n = max(1, int(float64(n)*float64(c.MinTime)/float64(d)))
	}
	return n
}

// repetition times n operations of op into r's samples; the first also
// counts their allocations.
func (c Config) repetition(r *Row, op func(n int), n int, first bool) {
	var before, after runtime.MemStats
	if first {
		runtime.ReadMemStats(&before)
	}
	start := time.Now()
	op(n)
	d := time.Since(start)
	if first {
		runtime.ReadMemStats(&after)
		r.AllocBytes = float64(after.TotalAlloc-before.TotalAlloc) / float64(n)
		r.Allocs = float64(after.Mallocs-before.Mallocs) / float64(n)
	}
	r.Samples = append(r.Samples, float64(d.Nanoseconds())/float64(n))
}
