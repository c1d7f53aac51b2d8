package tuning

import (
	"fmt"
	"math"
	"slices"
	"sync"
	"sync/atomic"
)

// MaxReady is the most ready streams a choice distinguishes: the widest
// kernel's lanes. More ready streams choose as this many do.
const MaxReady = 32

// waitMargin is how much more a kernel that leaves ready streams waiting
// must move than one that takes them all: the streams left out fall out
// of step with the others, and every later round ends where the first of
// its lanes runs out.
const waitMargin = 1.03

// loneMargin is how much more a multi-lane kernel must move with one lane
// busy than the single-stream kernel to take a lone stream: its rate does
// not show the per-call cost of moving the state into lanes and out, nor
// the other lanes' 512-bit work a core may slow its clock for. MD5's
// 16 lanes in ZMM registers hash one stream 2% faster than the scalar
// kernel on an Emerald Rapids Xeon (both latency-bound), within a
// measurement's noise; the lone stream stays on its own kernel.
const loneMargin = 1.10

// priorMargin is how much more a kernel must move, by a measurement or a
// wisdom file, than the one the prior chose for a ready count to take its
// place: rates within it are a tie, and a tie keeps the prior's choice,
// so that the choice does not flip with the noise of a measurement from
// one process to the next. Measured in fresh processes on the Emerald
// Rapids Xeon, a kernel's rate moved up to 10% from one to the next
// (SHA-1's four SHA-NI streams), most within 5%. With a margin of 5%, 2
// to 4 processes in 20 chose otherwise at 2 or 4 streams; with 8%, 8 in
// 20 at 2 MD5 streams, whose two kernels measured 1.063-1.091x apart
// (their rounds in the engine moved within 4% of each other).
const priorMargin = 1.10

// keepMargin is the same for the rounds' refinement: how much more a
// kernel must move, by the estimates the timed rounds keep, than the one
// a ready count runs, to take its place. Rounds in a server are timed
// between its system calls, and a kernel's median of five moves more
// than a measurement's: at 3%, an upload server's two streams moved
// among three kernels whose rounds ran within 7% of each other (MD5
// avx512zmmx16 1163 MB/s, amd64x2 1088, avx512ymmx16 973 on an Emerald
// Rapids Xeon), and hashed at 1.60-1.68x the standard library's cost
// against 1.76-1.83x with the choice held where the table put it.
const keepMargin = 1.10

// exploreEvery is how often, in rounds of one ready count, a round tries
// the runner-up instead, so that an estimate that is wrong corrects
// itself; exploreRange is how far behind the leader a runner-up may be
// to be tried.
const (
	exploreEvery = 32
	exploreRange = 1.3
)

// baseEvery is how often, in tries at exploreEvery, the try is of the
// choice the rates alone make (the measurement's or the prior's), when the
// rounds have moved away from it, however far behind its estimate is:
// rounds timed in a spell of load can drop a kernel below a runner-up's
// range, and then neither a try nor a recheck reaches it again. In an
// upload server SHA-256's avx512zmmx16 was timed at a quarter of its
// measured rate on a few rounds, and its 64 streams ran on SHA-NI
// streams to the end, where its rounds move 2,400-2,500 MB/s against
// their 1,600.
const baseEvery = 4

// tryRounds is how many rounds in a row a try of a kernel other than the
// choice runs. The engine times a round only right after one on the same
// kernel, with no yield or wait between: on an Emerald Rapids Xeon a
// 512-bit kernel's first call after other code took up to three times its
// time in the calls after it (the core wakes its 512-bit units), so that
// tries of one round each, timed, took an upload server's choices from
// 512-bit kernels to 256-bit ones for good (docs/engine.md, "Rounds
// after other code").
const tryRounds = 3

// After the refinement changes the choice for a ready count, the kernel
// it chose before is tried recheckTries times, every recheckEvery rounds,
// however far behind its estimate now is: it may have lost on a few
// rounds of a slow spell of the machine that the new choice, timed after
// it, did not see. SHA-256's two SHA-NI streams, timed on two rounds at
// 0.69 of their measured rate on an Emerald Rapids Xeon while every
// kernel ran at 0.85-0.9, lost to the single stream and, tried once in 32
// rounds, kept 28-75% of the blocks of 32 streams off the lanes for the
// rest of a 32 MiB run; hashing /usr, three rounds of theirs disturbed to
// 200-540 MB/s put them out of a runner-up's range for good, and the
// streams ran one after another to the end (docs/engine.md, "Lone rounds
// on measured rates"). Three fresh rounds are a majority of a scale's
// five.
const (
	recheckEvery = 4
	recheckTries = 3
)

// A Choice is the kernel a round with Ready streams runs: Kernel -1 for
// the single-stream kernel (the streams one after another), else the index
// of a multi-lane kernel; Lanes is how many of the ready streams it takes;
// Rate the MB/s it is expected to move.
type Choice struct {
	Ready  int
	Kernel int
	Name   string
	Lanes  int
	Rate   float64
}

// Chooser picks the kernel of each round for one engine: a single-stream
// kernel and the multi-lane ones, by the rates of its source, refined by
// the rounds it is told of. Pick is safe from any goroutine; Explore,
// Observe and Prepare are for a caller that holds the engine's lock.
type Chooser struct {
	src       Source
	kerns     []Kernel // [0] the single-stream kernel, then the multi-lane ones
	table     atomic.Pointer[table]
	prior     *table // the choice by the source's prior, which ties keep (see priorTable)
	priorOnce sync.Once
	batches   atomic.Pointer[batchChoice] // SumMany's kernels (see Batches)

	// Guarded by the caller's lock.
	scales   []scale // by kernel: observed against estimated rate
	gen      uint64  // the source generation the scales were observed on
	observed int     // observations since the last rebuild
	explore  [MaxReady + 1]uint8
	recheck  [MaxReady + 1]uint8 // tries left at recheckEvery, by ready count
	loser    [MaxReady + 1]pick  // the choice a change of choice replaced, to recheck
	streak   [MaxReady + 1]uint8 // rounds left of a try, by ready count
	sweeps   [MaxReady + 1]uint8 // tries at exploreEvery, by ready count
	tried    [MaxReady + 1]pick  // the kernel of that try
	tries    uint64
	scratch  *table      // a rebuild, published only if its choices differ (made when first needed)
	model    [][]float64 // by kernel and lanes used: the rates' estimate, unscaled
	built    []float64   // the scales the table was built with
}

// table is the choice for every ready count, rebuilt when rates change.
type table struct {
	gen    uint64
	kind   int
	rates  *Rates
	origin string
	best   [2][MaxReady + 1]pick // [hybrids allowed][ready]
	second [MaxReady + 1]pick    // a runner-up worth a try, hybrids allowed; k == none if none
	base   [MaxReady + 1]pick    // the choice on the rates alone, before the rounds' scales
}

// pick is one entry of a table: kernel index into Chooser.kerns (0 the
// single-stream kernel), lanes taken, the rate expected.
type pick struct {
	k     int
	lanes int
	rate  float64
}

const none = -1

// NewChooser returns a Chooser over single and multi, in the order the
// engine indexes its multi-lane kernels.
func NewChooser(src Source, single Kernel, multi []Kernel) *Chooser {
	c := &Chooser{src: src, kerns: append([]Kernel{single}, multi...)}
	c.kerns[0].Lanes = 1
	c.scales = make([]scale, len(c.kerns))
	c.built = make([]float64, len(c.kerns))
	return c
}

// priorTable is the choice by the source's prior, nil for fixed rates,
// built on first use: a server whose streams never have a choice to make
// (short messages in the library's hasher, a few messages in SumMany's
// loop) never pays for weighing every kernel for every ready count.
func (c *Chooser) priorTable() *table {
	c.priorOnce.Do(func() {
		if p := c.src.prior(); p != nil {
			c.prior = c.build(p, nil)
		}
	})
	return c.prior
}

// current returns the table for the source's rates of now, rebuilding it
// (without the observations, which belong to the rates they were made
// against) when the source has moved on.
func (c *Chooser) current() *table {
	t := c.table.Load()
	snap := c.src.current()
	if t != nil && t.gen == snap.gen {
		return t
	}
	prior := c.priorTable()
	nt := prior // the prior's rates, as at start: its table as it is
	if nt == nil || nt.gen != snap.gen {
		nt = c.build(snap, prior)
	}
	if c.table.CompareAndSwap(t, nt) {
		return nt
	}
	return c.table.Load()
}

// Pick returns the kernel for a round with ready streams: -1 for the
// single-stream kernel, else the multi-lane kernel's index, and the lanes
// it takes. Hybrid kernels (whose fast lanes hash more blocks than the
// others) are considered only if hybrid is set.
func (c *Chooser) Pick(ready int, hybrid bool) (k, lanes int) {
	p := c.current().best[b2i(hybrid)][min(ready, MaxReady)]
	return p.k - 1, c.lanesFor(p, ready)
}

// Rate is what one core moves with ready streams on the kernel Pick
// returns, in MB/s.
func (c *Chooser) Rate(ready int) float64 {
	return c.current().best[1][min(ready, MaxReady)].rate
}

// Explore is Pick for a round the caller will time and report with
// Observe: every exploreEvery rounds of a ready count it starts a try,
// tryRounds rounds of a close runner-up instead (never one expected to
// move less than the single-stream kernel unless that kernel is the
// choice), every baseEvery-th try of the rates' own choice if the rounds
// moved away from it; after a change of choice, the rechecks of the
// choice it replaced come first.
func (c *Chooser) Explore(ready int) (k, lanes int) {
	t := c.current()
	r := min(ready, MaxReady)
	p := t.best[1][r]
	if c.src.online() {
		switch {
		case c.streak[r] > 0:
			c.streak[r]--
			p = c.tried[r]
		case c.recheck[r] > 0:
			if c.explore[r]++; c.explore[r] >= recheckEvery {
				c.explore[r] = 0
				c.recheck[r]--
				p = c.try(r, c.loser[r])
			}
		default:
			if c.explore[r]++; c.explore[r] >= exploreEvery {
				c.explore[r] = 0
				c.sweeps[r]++
				if b := t.base[r]; c.sweeps[r]%baseEvery == 0 && b.k != p.k {
					p = c.try(r, b)
				} else if s := t.second[r]; s.k != none {
					p = c.try(r, s)
				}
			}
		}
	}
	return p.k - 1, c.lanesFor(p, ready)
}

// try starts a try of p for ready count r: tryRounds rounds in a row, so
// that the engine, which times no round that changes kernel, times the
// later ones.
func (c *Chooser) try(r int, p pick) pick {
	c.tries++
	c.streak[r], c.tried[r] = tryRounds-1, p
	return p
}

func (c *Chooser) lanesFor(p pick, ready int) int {
	if p.k == 0 {
		return ready // the single-stream kernel takes them one after another
	}
	return min(ready, c.kerns[p.k].Lanes)
}

// Observe refines the estimates with a round that ran kernel k (-1 the
// single-stream kernel) on used lanes and hashed bytes in ns nanoseconds.
func (c *Chooser) Observe(k, used, bytes int, ns int64) {
	if !c.src.online() || ns <= 0 || bytes <= 0 {
		return
	}
	t := c.current()
	if c.gen != t.gen {
		c.gen = t.gen
		c.model = c.models(t.rates)
		for i := range c.scales {
			c.scales[i], c.built[i] = scale{}, 1
		}
	}
	i := k + 1
	if i == 0 {
		used = 1
	}
	model := c.model[i][used]
	rate := float64(bytes) / float64(ns) * 1e3
	if !(model > 0) || !(rate < maxRate) {
		return
	}
	c.scales[i].add(rate / model)
	c.observed++
	// Rebuild when a kernel's scale has moved since the table was built:
	// at once if by the keep margin (enough to change a choice), else
	// every rebuildEvery rounds.
	moved := math.Abs(c.scales[i].value()/c.built[i] - 1)
	if moved > keepMargin-1 || c.observed >= rebuildEvery && c.drifted() {
		c.observed = 0
		for j := range c.scales {
			c.built[j] = c.scales[j].value()
		}
		if c.scratch == nil {
			c.scratch = new(table)
		}
		c.fill(c.scratch, t.snapshot(), c.model, c.built, t, keepMargin)
		if !c.scratch.sameChoices(t) {
			for r := range t.best[1] {
				if c.scratch.best[1][r].k != t.best[1][r].k {
					c.recheck[r], c.loser[r] = recheckTries, t.best[1][r]
				}
			}
			nt := new(table)
			*nt = *c.scratch
			c.table.Store(nt)
		}
	}
}

// drifted reports whether any kernel's scale has moved by more than 2%
// since the table was built.
func (c *Chooser) drifted() bool {
	for j := range c.scales {
		if math.Abs(c.scales[j].value()/c.built[j]-1) > 0.02 {
			return true
		}
	}
	return false
}

// sameChoices reports whether t and o run the same kernels on the same
// lanes for every ready count (their expected rates may differ).
func (t *table) sameChoices(o *table) bool {
	if t.gen != o.gen {
		return false
	}
	for r := range t.second {
		if t.best[0][r].k != o.best[0][r].k || t.best[1][r].k != o.best[1][r].k || t.second[r].k != o.second[r].k {
			return false
		}
	}
	return true
}

// rebuildEvery bounds the observations between two rebuilds of the table
// for a drift of the estimates: a rebuild weighs every kernel for every
// ready count (about 4 us), a round lasts tens. A scale moved by the keep
// margin rebuilds at once.
const rebuildEvery = 64

// Prepare runs the source's first measurement now if it is pending, once,
// for ready streams: with two or more there is a choice to make. It is
// for a program that would rather pay the measurement at start.
func (c *Chooser) Prepare(ready int) {
	if ready >= 2 {
		c.src.prepare()
	}
}

// Pending reports whether the source has yet to settle on its rates.
func (c *Chooser) Pending() bool { return c.src.pending() }

// Due counts bytes hashed on a choice between kernels while the source is
// pending and reports whether Settle has something to do now: read the
// wisdom file, or measure once the work would pay for it. A lone stream
// has no choice to make and never calls it.
func (c *Chooser) Due(bytes int) bool { return c.src.due(bytes) }

// Settle does what Due said was to do; the caller holds no lock, as it
// may read a file or measure for a millisecond.
func (c *Chooser) Settle() { c.src.settle() }

// Tries is how many rounds ran a runner-up to check its estimate.
func (c *Chooser) Tries() uint64 { return c.tries }

// Choices returns the choice for 1 to MaxReady ready streams.
func (c *Chooser) Choices() []Choice {
	t := c.current()
	var out []Choice
	for r := 1; r <= MaxReady; r++ {
		p := t.best[1][r]
		out = append(out, Choice{Ready: r, Kernel: p.k - 1, Name: c.kerns[p.k].Name, Lanes: c.lanesFor(p, r), Rate: p.rate})
	}
	return out
}

// Origin says where the rates of the current choice come from: "measured
// in 1.2 ms", "file /home/u/.cache/hashlanes/…", "prior zen4 (nearest)".
func (c *Chooser) Origin() string { return c.current().origin }

// Rates returns the rates the current choice is made from (a new pointer
// whenever they change).
func (c *Chooser) Rates() *Rates { return c.current().rates }

// Source returns the chooser's source.
func (c *Chooser) Source() Source { return c.src }

// build weighs every kernel for every ready count by snap's rates. Where
// prev (if any: the prior's table) chose a kernel that is still within
// priorMargin of the best, it keeps it, so that the choice a measurement
// makes does not hang on its noise.
func (c *Chooser) build(snap *snapshot, prev *table) *table {
	t := new(table)
	c.fill(t, *snap, c.models(snap.rates), nil, prev, priorMargin)
	return t
}

// snapshot is the source state t was built from.
func (t *table) snapshot() snapshot {
	return snapshot{gen: t.gen, kind: t.kind, rates: t.rates, origin: t.origin}
}

// models is every kernel's estimate by rates r, by lanes used (1 to its
// lanes; the single-stream kernel's at 1).
func (c *Chooser) models(r *Rates) [][]float64 {
	m := make([][]float64, len(c.kerns))
	for i := range c.kerns {
		k := &c.kerns[i]
		m[i] = make([]float64, k.Lanes+1)
		for used := 1; used <= k.Lanes; used++ {
			m[i][used] = r.Kernels[k.Name] * r.share(k, used)
		}
	}
	return m
}

// fill builds into t the table of snap's rates, their estimates model
// scaled by scale (nil: unscaled), a choice of prev (if any) kept against
// a kernel that does not move margin times as much.
func (c *Chooser) fill(t *table, snap snapshot, model [][]float64, scale []float64, prev *table, margin float64) {
	t.gen, t.kind, t.rates, t.origin = snap.gen, snap.kind, snap.rates, snap.origin
	scaled := func(i, used int) float64 {
		v := model[i][min(used, len(model[i])-1)]
		if scale != nil {
			v *= scale[i]
		}
		return v
	}
	// A lone stream's rounds may move it towards the single-stream
	// kernel, never away: that kernel's rounds come when a stream starts
	// or ends, right after its reader's system call, and time slower than
	// the lanes' steady rounds (an upload server's at 457-677 MB/s
	// against 662 measured), which took lone streams into lanes they run
	// no faster in. So for one stream ready the single-stream kernel's
	// estimate is the higher of its measured rate and the rounds', a
	// multi-lane kernel's the lower.
	lone := func(i, used int) float64 {
		v, w := model[i][min(used, len(model[i])-1)], scaled(i, used)
		if (i == 0) == (w > v) {
			return w
		}
		return v
	}
	for h := range 2 {
		for ready := 1; ready <= MaxReady; ready++ {
			est := scaled
			if ready == 1 {
				est = lone
			}
			var buf [16]scored
			cands := c.candidates(buf[:0], ready, h == 1, est)
			best := cands[0]
			if prev != nil {
				if old := prev.best[h][ready]; old.k != best.k {
					for _, p := range cands {
						if p.k == old.k && p.score*margin >= best.score {
							best = p
						}
					}
				}
			}
			t.best[h][ready] = best.pick
			if h == 1 {
				t.base[ready] = best.pick
				if scale != nil && prev != nil {
					t.base[ready] = prev.base[ready] // the rates' own choice, kept
				}
				t.second[ready] = pick{k: none}
				single := est(0, 1)
				for _, p := range cands {
					// A runner-up expected to move less than the single-stream
					// kernel is not worth a try, unless the single-stream
					// kernel is the choice: then an underestimated multi-lane
					// kernel would never run again to be corrected (a server
					// measured while its network interrupts shared the core
					// ran two streams one after the other until it ended).
					if p.k != best.k && p.score*exploreRange >= best.score && (p.k == 0 || p.rate >= single || best.k == 0 && ready >= 2) {
						t.second[ready] = p.pick
						break
					}
				}
			}
		}
	}
}

// scored is a candidate pick with its score: its rate, less if it leaves
// ready streams waiting.
type scored struct {
	pick
	score float64
}

// candidates appends to cands the picks for ready streams, best first (of
// equal scores the earlier kernel: the engine lists them narrowest first);
// the single-stream kernel is always among them.
func (c *Chooser) candidates(cands []scored, ready int, hybrid bool, est func(i, used int) float64) []scored {
	single := est(0, 1)
	cands = append(cands, scored{pick{k: 0, lanes: ready, rate: single}, single})
	for i := 1; i < len(c.kerns); i++ {
		k := &c.kerns[i]
		if k.Fast > 0 && !hybrid {
			continue
		}
		used := min(ready, k.Lanes)
		rate := est(i, used)
		if !(rate > 0) {
			continue // no rate: not measured here, never run
		}
		score := rate
		if used < ready {
			score /= waitMargin
		}
		if ready == 1 {
			score /= loneMargin
		}
		p := scored{pick{k: i, lanes: used, rate: rate}, score}
		j := len(cands)
		cands = append(cands, p)
		for ; j > 0 && cands[j-1].score < score; j-- { // insertion: stable
			cands[j] = cands[j-1]
		}
		cands[j] = p
	}
	return cands
}

// scale is a kernel's recent observed rates against its estimates: the
// median of the last few ratios, with 1 (the estimate itself) counted
// while there are fewer than three, so that one round disturbed by the
// machine moves nothing on its own and a wrong estimate is corrected
// within a few.
type scale struct {
	ratios [5]float64
	n      int
}

func (s *scale) add(r float64) {
	s.ratios[s.n%len(s.ratios)] = r
	s.n++
}

func (s *scale) value() float64 {
	if s.n == 0 {
		return 1
	}
	var buf [len(s.ratios) + 1]float64
	v := append(buf[:0], s.ratios[:min(s.n, len(s.ratios))]...)
	if s.n < 3 {
		v = append(v, 1)
	}
	slices.Sort(v)
	if len(v)%2 == 1 {
		return v[len(v)/2]
	}
	return (v[len(v)/2-1] + v[len(v)/2]) / 2
}

func b2i(b bool) int {
	if b {
		return 1
	}
	return 0
}

// Crossover lists, for each ready count from 1 to maxReady, every
// kernel's expected MB/s and the choice: what hashlanes tune prints.
func Crossover(c *Chooser, maxReady int) (names []string, rows [][]float64, picks []string) {
	t := c.current()
	model := c.models(t.rates)
	for i := range c.kerns {
		names = append(names, c.kerns[i].Name)
	}
	for ready := 1; ready <= maxReady; ready++ {
		row := make([]float64, len(c.kerns))
		for i := range c.kerns {
			row[i] = model[i][min(ready, len(model[i])-1)]
		}
		rows = append(rows, row)
		p := t.best[1][min(ready, MaxReady)]
		picks = append(picks, fmt.Sprintf("%s (%d)", c.kerns[p.k].Name, c.lanesFor(p, ready)))
	}
	return names, rows, picks
}
