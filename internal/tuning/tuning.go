// Package tuning decides which kernel the engine runs for a round, from
// what each kernel moves on the machine it runs on.
//
// Kernels do not rank alike on different CPUs, so the rates come, in order
// of preference, from a wisdom file that `hashlanes tune` wrote for this
// CPU and build, from a measurement made in this process the first time an
// algorithm has a choice to make (a few milliseconds, once), or, until
// then, from a prior: rates measured on a known microarchitecture, the
// nearest one by instruction set for a CPU that has none. Rounds the engine
// runs are timed and refine the estimates as it goes, trying a close
// runner-up now and then, so that a measurement disturbed by a burst of
// load corrects itself.
//
// HASHLANES_TUNING chooses the source: auto (the default), measure, file,
// or table (priors only, no measurement and no refinement; table:NAME
// forces the prior of that name).
package tuning

import (
	"fmt"
	"maps"
	"slices"

	"github.com/hashlanes/hashlanes/internal/kernel"
)

// Kernel is what the choice knows of a kernel: its name and the shape of
// its lanes. A single-stream kernel has one lane.
type Kernel struct {
	Name  string
	Lanes int
	// A hybrid kernel's first Fast lanes hash FastBlocks blocks for each
	// block of its other lanes.
	Fast, FastBlocks int
}

// blocks is what lanes 0..used-1 hash in a call of one block a lane.
func (k *Kernel) blocks(used int) int {
	fast := min(used, k.Fast)
	return fast*max(1, k.FastBlocks) + used - fast
}

// blockShare is what lanes 0..used-1 are worth against all of them busy: an
// idle lane costs as much as a busy one.
func (k *Kernel) blockShare(used int) float64 {
	return float64(k.blocks(used)) / float64(k.blocks(k.Lanes))
}

// Rates are what one kernel family's kernels move on one machine.
type Rates struct {
	// Kernels is each kernel's MB/s (1e6 bytes) with every lane busy.
	Kernels map[string]float64 `json:"kernels"`
	// Fills is, where measured, the share of that rate a kernel moves
	// with n lanes busy; without one the share is the lanes' share of
	// the blocks.
	Fills map[string]map[int]float64 `json:"fills,omitempty"`
	// ManyMin is, by algorithm, the fewest messages that SumMany hands
	// to the lanes rather than to a loop of one-shot sums.
	ManyMin map[string]int `json:"summany_min,omitempty"`
}

// shares is what kernel k moves with 0 to k.Lanes lanes busy, each a
// share of its rate with all of them busy: linear between the counts
// Fills measured, and towards none busy and all busy; without a fill, and
// for a hybrid kernel, the lanes' share of the blocks. One pass over the
// fill: a choice table weighs every count of every kernel, and looking
// each up in the map was most of building one.
func (r *Rates) shares(k *Kernel) []float64 {
	s := make([]float64, k.Lanes+1)
	fill := r.Fills[k.Name]
	if k.Fast > 0 || len(fill) == 0 {
		for used := 1; used <= k.Lanes; used++ {
			s[used] = k.blockShare(used)
		}
		return s
	}
	var measured uint64 // bit n: fill has a share at n busy
	for n, f := range fill {
		if n >= 1 && n < k.Lanes {
			s[n], measured = f, measured|1<<n
		}
	}
	lo, loShare := 0, 0.0 // the nearest measured count below, and its share
	for hi := 1; hi <= k.Lanes; hi++ {
		if hi < k.Lanes && measured&(1<<hi) == 0 {
			continue
		}
		hiShare := 1.0
		if hi < k.Lanes {
			hiShare = s[hi]
		}
		for used := lo + 1; used < hi; used++ {
			s[used] = loShare + (hiShare-loShare)*float64(used-lo)/float64(hi-lo)
		}
		s[hi] = hiShare
		lo, loShare = hi, hiShare
	}
	return s
}

// shares' bitmask holds every lane count.
const _ uint = 63 - kernel.MaxLanes

// check reports a rate no kernel can move: not positive, or beyond what
// memory feeds one core.
func (r *Rates) check() error {
	for _, name := range slices.Sorted(maps.Keys(r.Kernels)) {
		if v := r.Kernels[name]; !(v > 0 && v < maxRate) {
			return fmt.Errorf("implausible rate %g MB/s for %s", v, name)
		}
	}
	for name, fill := range r.Fills {
		for n, f := range fill {
			if n < 1 || !(f > 0 && f <= maxFill) {
				return fmt.Errorf("implausible fill %g at %d lanes for %s", f, n, name)
			}
		}
	}
	for alg, n := range r.ManyMin {
		if n < 1 || n > 64 {
			return fmt.Errorf("implausible SumMany cut-off %d for %s", n, alg)
		}
	}
	return nil
}

// maxFill bounds a believable fill: a kernel moves about as much with
// some lanes busy as with all, at most, whatever it does with idle lanes.
const maxFill = 1.5

// maxRate bounds a believable rate, in MB/s: a kernel timed faster than
// this was mismeasured (a clock that stood still).
const maxRate = 500_000

// merged returns r with the kernels and cut-offs of over replacing r's.
func (r *Rates) merged(over *Rates) *Rates {
	m := &Rates{Kernels: maps.Clone(r.Kernels), Fills: maps.Clone(r.Fills), ManyMin: maps.Clone(r.ManyMin)}
	if m.Kernels == nil {
		m.Kernels = map[string]float64{}
	}
	maps.Copy(m.Kernels, over.Kernels)
	for name := range over.Kernels {
		delete(m.Fills, name) // fills belong to the rate they were measured with
	}
	if len(over.Fills) > 0 && m.Fills == nil {
		m.Fills = map[string]map[int]float64{}
	}
	maps.Copy(m.Fills, over.Fills)
	if len(over.ManyMin) > 0 && m.ManyMin == nil {
		m.ManyMin = map[string]int{}
	}
	maps.Copy(m.ManyMin, over.ManyMin)
	return m
}
