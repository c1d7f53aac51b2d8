package tuning

// The choice table: for every count of ready streams, the kernel that
// moves the most by the rates (and the rounds' scales), built afresh when
// they change.

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
		rate := r.Kernels[k.Name]
		m[i] = r.shares(k)
		for used := 1; used <= k.Lanes; used++ {
			m[i][used] *= rate
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
	// the lanes' steady rounds, which took lone streams into lanes they
	// run no faster in (docs/engine.md, "Lone rounds on measured rates"). So for one stream ready the single-stream kernel's
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
		} else {
			score /= combineMargin
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

func b2i(b bool) int {
	if b {
		return 1
	}
	return 0
}
