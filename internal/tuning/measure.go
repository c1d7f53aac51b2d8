package tuning

import (
	"errors"
	"fmt"
	"maps"
	"slices"
	"time"

	"github.com/hashlanes/hashlanes/internal/cpu"
	"github.com/hashlanes/hashlanes/internal/kernel"
)

// Probe times one kernel: prepare sets up a call that hashes nblocks
// blocks in each of busy lanes (a fast lane FastBlocks times as many) from
// buffers of its own, and returns it with the bytes it hashes.
type Probe struct {
	Kernel
	BlockSize int
	prepare   func(arena []byte, stride, busy, nblocks int) (call func(), bytes int)
}

// Probes lists the kernels of a family that run at level l: its
// single-stream kernels and, but for the pure-Go reference, its multi-lane
// ones.
func Probes[S any](blockSize int, singles []kernel.Single[S], multis []kernel.Multi[S], l cpu.Level) []Probe {
	var ps []Probe
	for _, k := range singles {
		if !k.Usable(l) {
			continue
		}
		fn := k.Fn
		ps = append(ps, Probe{Kernel: Kernel{Name: k.Name, Lanes: 1}, BlockSize: blockSize,
			prepare: func(arena []byte, _, _, nblocks int) (func(), int) {
				s := new(S)
				p := arena[:nblocks*blockSize]
				return func() { fn(s, p) }, len(p)
			}})
	}
	for _, m := range multis {
		if m.Reference || !m.Usable(l) {
			continue
		}
		ps = append(ps, Probe{Kernel: Kernel{Name: m.Name, Lanes: m.Lanes, Fast: m.Fast, FastBlocks: m.FastBlocks}, BlockSize: blockSize,
			prepare: func(arena []byte, stride, busy, nblocks int) (func(), int) {
				states := new([kernel.MaxLanes]S)
				sp := new([kernel.MaxLanes]*S)
				ptrs := new([kernel.MaxLanes]*byte)
				for i := range m.Lanes {
					sp[i], ptrs[i] = &states[i], &arena[i*stride]
				}
				mask := uint32(1)<<busy - 1
				return func() { m.Fn(sp, ptrs, mask, nblocks) }, m.Blocks(busy, nblocks) * blockSize
			}})
	}
	return ps
}

// Options say how carefully to measure.
type Options struct {
	LaneBytes int           // bytes a lane hashes a call (a hybrid's fast lanes FastBlocks times as many)
	Rounds    int           // rounds of timed calls, the kernels taking turns within each
	Calls     int           // timed calls of each kernel a round
	Budget    time.Duration // no round starts past it once two are done
	Warm      time.Duration // calling every kernel, untimed, for at least this long first
	Busy      []int         // lane counts besides all, measured for the fills
	Clock     func() time.Duration
}

// QuickMeasure is the engine's measurement on first use: every kernel
// with all lanes busy, on data in the L2, the best of ten calls each, in
// a few milliseconds at most.
var QuickMeasure = Options{LaneBytes: 2 << 10, Rounds: 5, Calls: 2, Budget: 4 * time.Millisecond, Warm: 500 * time.Microsecond}

// CarefulMeasure is hashlanes tune's: longer calls, more rounds, and the
// counts of busy lanes the crossovers turn on.
var CarefulMeasure = Options{LaneBytes: 16 << 10, Rounds: 30, Calls: 3, Budget: 20 * time.Second, Warm: 50 * time.Millisecond, Busy: []int{1, 2, 3, 4, 6, 8, 10, 12, 16, 24}}

var epoch = time.Now()

func monotonic() time.Duration { return time.Since(epoch) }

// staggerBytes sets each lane's buffer 5 cache lines further into its page
// than the one before: lanes at equal offsets modulo 4 KiB load lines of
// one L1 set, which slows the widest kernels by a tenth.
const staggerBytes = 5 * 64

// Measure times each probe's kernel with every lane busy (and with
// o.Busy's counts of lanes), the kernels taking turns, and keeps each
// one's fastest call: on a shared machine, noise only ever slows a call.
// A kernel timed at an impossible rate is left out; if none is left,
// Measure fails.
func Measure(probes []Probe, o Options) (*Rates, error) {
	clock := o.Clock
	if clock == nil {
		clock = monotonic
	}
	if len(probes) == 0 {
		return nil, errors.New("no kernels to measure")
	}
	maxFast, maxBS := 1, 0
	for _, p := range probes {
		maxFast = max(maxFast, p.FastBlocks)
		maxBS = max(maxBS, p.BlockSize)
	}
	laneBytes := max(o.LaneBytes/maxBS, 1) * maxBS
	stride := laneBytes*maxFast + staggerBytes
	arena := make([]byte, kernel.MaxLanes*stride)
	for i := range arena {
		arena[i] = byte(i*131 + i>>8)
	}
	type timed struct {
		probe int
		busy  int
		call  func()
		bytes int
		best  time.Duration
	}
	var calls []*timed
	for i, p := range probes {
		nblocks := laneBytes / p.BlockSize
		busies := []int{p.Lanes}
		if p.Fast == 0 {
			for _, b := range o.Busy {
				if b < p.Lanes {
					busies = append(busies, b)
				}
			}
		}
		for _, b := range busies {
			call, bytes := p.prepare(arena, stride, b, nblocks)
			calls = append(calls, &timed{probe: i, busy: b, call: call, bytes: bytes, best: -1})
		}
	}
	// Warm up: the code, the data, the wide units' power-up, and a core
	// that was idle, whose clock takes a while to rise: measured at once,
	// a fresh process timed every kernel up to a third slow, in one
	// process in four here.
	for warm := clock(); ; {
		for _, t := range calls {
			t.call()
		}
		if clock()-warm >= o.Warm {
			break
		}
	}
	start := clock()
	for round := 0; round < o.Rounds; round++ {
		if round >= 2 && clock()-start > o.Budget {
			break
		}
		for _, t := range calls {
			for range o.Calls {
				t0 := clock()
				t.call()
				if d := clock() - t0; d > 0 && (t.best < 0 || d < t.best) {
					t.best = d
				}
			}
		}
	}
	r := &Rates{Kernels: map[string]float64{}}
	full := map[int]float64{}
	for _, t := range calls {
		p := &probes[t.probe]
		rate := float64(t.bytes) / t.best.Seconds() / 1e6
		if t.best <= 0 || !(rate < maxRate) {
			continue // a clock that stood still, or a call never timed
		}
		if t.busy == p.Lanes {
			r.Kernels[p.Name] = rate
			full[t.probe] = rate
		}
	}
	for _, t := range calls {
		p := &probes[t.probe]
		f, ok := full[t.probe]
		if t.busy == p.Lanes || !ok || t.best <= 0 {
			continue
		}
		if r.Fills == nil {
			r.Fills = map[string]map[int]float64{}
		}
		if r.Fills[p.Name] == nil {
			r.Fills[p.Name] = map[int]float64{}
		}
		r.Fills[p.Name][t.busy] = round3(float64(t.bytes) / t.best.Seconds() / 1e6 / f)
	}
	// A kernel that moved far more with some lanes idle than with all
	// busy was slowed throughout its full calls (another process took the
	// core each time): its figures are left out, and the prior's stand
	// for it. Failing the whole measurement instead cost every kernel of
	// the family its measured rate (seen once under the test suite's
	// parallel packages: SHA-256's four SHA-NI streams at 1.71 with three
	// busy).
	for name, fill := range r.Fills {
		for _, f := range fill {
			if f > maxFill {
				delete(r.Kernels, name)
				delete(r.Fills, name)
				break
			}
		}
	}
	if len(r.Kernels) == 0 {
		return nil, errors.New("no kernel could be timed")
	}
	for name, v := range r.Kernels {
		r.Kernels[name] = round3(v)
	}
	return r, r.check()
}

// round3 keeps three significant digits, which is more than any
// measurement here resolves.
func round3(v float64) float64 {
	if v <= 0 {
		return v
	}
	s := 1.0
	for v*s < 100 {
		s *= 10
	}
	for v*s >= 1000 {
		s /= 10
	}
	return float64(int64(v*s+0.5)) / s
}

// CutoffProbe is SumMany's two ways with n small messages: Loop hashes
// them one by one (the standard library's one-shot function), Lanes as
// SumMany does.
type CutoffProbe struct {
	Loop, Lanes func(n int)
	Max         int // the most messages to try
}

// MeasureCutoff finds the fewest messages, from 2, from which SumMany in
// lanes beats the loop at every count up to p.Max (p.Max+1 if it never
// does), each side's best of o.Rounds*o.Calls calls, taking turns.
func MeasureCutoff(p CutoffProbe, o Options) (int, error) {
	clock := o.Clock
	if clock == nil {
		clock = monotonic
	}
	if p.Max < 2 {
		return 0, fmt.Errorf("cut-off probe of %d messages", p.Max)
	}
	loop := make([]time.Duration, p.Max+1)
	lanes := make([]time.Duration, p.Max+1)
	time1 := func(f func(int), n int, best *time.Duration) {
		t0 := clock()
		f(n)
		if d := clock() - t0; d > 0 && (*best == 0 || d < *best) {
			*best = d
		}
	}
	p.Loop(p.Max) // warm
	p.Lanes(p.Max)
	rounds := 4 * o.Rounds * o.Calls
	start := clock()
	for round := range rounds {
		if round >= 4 && clock()-start > o.Budget/4 {
			break
		}
		for n := 2; n <= p.Max; n++ {
			time1(p.Loop, n, &loop[n])
			time1(p.Lanes, n, &lanes[n])
		}
	}
	n := p.Max + 1
	for m := p.Max; m >= 2; m-- {
		if loop[m] == 0 || lanes[m] == 0 {
			return 0, errors.New("cut-off probe not timed")
		}
		if lanes[m] >= loop[m] {
			break
		}
		n = m
	}
	return n, nil
}

// Tune measures every registered family with o, each kernel and each
// algorithm's SumMany cut-off, and returns the wisdom for this CPU and
// build. progress, if not nil, is told of each family as it starts.
func Tune(o Options, progress func(family string)) (*Wisdom, error) {
	w := &Wisdom{
		Format:   Format,
		CPU:      ThisCPU(),
		Build:    BuildID(),
		Measured: time.Now().UTC().Truncate(time.Second),
		Method:   fmt.Sprintf("hashlanes tune: kernels alone on data in the L2, %d KiB a lane a call, the fastest of %d calls of each in %d rounds taking turns", o.LaneBytes>>10, o.Calls*o.Rounds, o.Rounds),
		Families: map[string]*Rates{},
	}
	for _, f := range Families() {
		if progress != nil {
			progress(f.name)
		}
		r, err := Measure(f.probes(), o)
		if err != nil {
			return nil, fmt.Errorf("%s: %v", f.name, err)
		}
		f.mu.Lock()
		cutoffs := maps.Clone(f.measureCutoff)
		f.mu.Unlock()
		for _, alg := range slices.Sorted(maps.Keys(cutoffs)) {
			n, err := cutoffs[alg](o)
			if err != nil {
				continue // not on the engine in this build
			}
			if r.ManyMin == nil {
				r.ManyMin = map[string]int{}
			}
			r.ManyMin[alg] = n
		}
		w.Families[f.name] = r
	}
	return w, nil
}
