package tuning

// The refinement: timed rounds scale each kernel's estimate, and a scale
// that drifts far enough rebuilds the table.

import (
	"math"
	"slices"
)

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
		c.calm = [MaxReady + 1]uint8{} // new rates, new choices: tries at the fastest cadence
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
					c.calm[r] = 0 // tries at the fastest cadence again
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
