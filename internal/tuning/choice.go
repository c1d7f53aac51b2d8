package tuning

// The Chooser: which kernel a round runs for the streams ready, by the
// table its rates build (table.go) and the rounds refine (refine.go), and
// what it reports of its choices.

import (
	"fmt"
	"math"
	"sync"
	"sync/atomic"
)

// MaxReady is the most ready streams a choice distinguishes: the widest
// kernel's lanes. More ready streams choose as this many do.
const MaxReady = 32

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
	lone      atomic.Pointer[loneChoice]  // one stream's kernel before a table (see lonePick)

	// Guarded by the caller's lock.
	scales   []scale              // by kernel: observed against estimated rate
	gen      uint64               // the source generation the scales were observed on
	observed int                  // observations since the last rebuild
	explore  [MaxReady + 1]uint16 // rounds since the latest try, by ready count
	recheck  [MaxReady + 1]uint8  // tries left at recheckEvery, by ready count
	loser    [MaxReady + 1]pick   // the choice a change of choice replaced, to recheck
	streak   [MaxReady + 1]uint8  // rounds left of a try, by ready count
	sweeps   [MaxReady + 1]uint8  // tries at exploreInterval, by ready count
	calm     [MaxReady + 1]uint8  // of those, since the choice last changed (saturating)
	tried    [MaxReady + 1]pick   // the kernel of that try
	tries    uint64
	scratch  *table      // a rebuild, published only if its choices differ (made when first needed)
	model    [][]float64 // by kernel and lanes used: the rates' estimate, unscaled
	built    []float64   // the scales the table was built with
}

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
	var p pick
	if ready <= 1 && c.table.Load() == nil {
		p = c.lonePick(hybrid)
	} else {
		p = c.current().best[b2i(hybrid)][min(ready, MaxReady)]
	}
	return p.k - 1, c.lanesFor(p, ready)
}

// lonePick is the first table's choice for one stream, made without
// building the table: a process's first write asks only this (is a lone
// stream's kernel the single-stream one?), and the table, every kernel
// weighed for every ready count, cost its first write 24-37 µs in a fresh
// process. While no table is built, the one current would build is the
// source's rates with no rounds observed and no earlier choice to keep
// (the prior's own, or fixed rates): for one stream, the best of the
// candidates by the rates at one lane, as fill finds it. Later snapshots
// keep the prior's choices within a margin, so they build the table.
func (c *Chooser) lonePick(hybrid bool) pick {
	if c.src.LoneIsSingle() {
		// No rates read yet: the single-stream kernel, which every
		// prior chooses for one stream (loneMargin; TestKernelChoice),
		// without reading one. The prior needs this CPU's identity (CPUID
		// leaves, each a trap under a hypervisor) and its rates made:
		// most of a fresh process's first write (docs/engine.md,
		// "Start-up"). The source is read when a choice has two streams
		// or more, or SumMany's cut-off is asked for.
		return pick{k: 0}
	}
	snap := c.src.current()
	if l := c.lone.Load(); l != nil && l.gen == snap.gen {
		return l.best[b2i(hybrid)]
	}
	if prior := c.src.prior(); prior != nil && snap != prior {
		return c.current().best[b2i(hybrid)][1]
	}
	one := make([]float64, len(c.kerns)) // each kernel's estimate with one lane busy
	for i := range c.kerns {
		one[i] = snap.rates.Kernels[c.kerns[i].Name] * snap.rates.shares(&c.kerns[i])[1]
	}
	l := &loneChoice{gen: snap.gen}
	for h := range l.best {
		var buf [16]scored
		l.best[h] = c.candidates(buf[:0], 1, h == 1, func(i, _ int) float64 { return one[i] })[0].pick
	}
	c.lone.Store(l)
	return l.best[b2i(hybrid)]
}

// loneChoice is lonePick's, without and with the hybrid kernels, for the
// rates of generation gen.
type loneChoice struct {
	gen  uint64
	best [2]pick
}

// Rate is what one core moves with ready streams on the kernel Pick
// returns, in MB/s.
func (c *Chooser) Rate(ready int) float64 {
	return c.current().best[1][min(ready, MaxReady)].rate
}

// Explore is Pick for a round the caller will time and report with
// Observe: every exploreInterval rounds of a ready count it starts a try,
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
			if c.explore[r]++; int(c.explore[r]) >= c.exploreInterval(r) {
				c.explore[r] = 0
				c.sweeps[r]++
				if c.calm[r] < math.MaxUint8 {
					c.calm[r]++
				}
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

// exploreInterval is the rounds of ready count r between two tries:
// exploreEvery at first and after each change of its choice, doubled after
// every exploreDoubling tries that changed nothing, up to exploreEvery <<
// exploreMaxDoublings. A try runs a slower kernel for tryRounds rounds;
// once tries keep confirming the choice, a steady load pays for fewer of
// them (docs/engine.md, "Tries back off").
func (c *Chooser) exploreInterval(r int) int {
	return exploreEvery << min(int(c.calm[r])/exploreDoubling, exploreMaxDoublings)
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
