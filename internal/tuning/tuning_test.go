package tuning

import (
	"cmp"
	"embed"
	"encoding/json"
	"errors"
	"fmt"
	"io/fs"
	"math"
	"os"
	"path/filepath"
	"reflect"
	"strings"
	"testing"
	"time"

	"github.com/hashlanes/hashlanes/internal/cpu"
)

// Kernels of a family in the engine's roles, for the choice alone: a
// single-stream kernel, two SHA-NI-like interleaved ones, lanes of 8 and
// 16, and a hybrid.
var (
	single = Kernel{Name: "single", Lanes: 1}
	multis = []Kernel{
		{Name: "x2", Lanes: 2},
		{Name: "x4", Lanes: 4},
		{Name: "x8", Lanes: 8},
		{Name: "x16", Lanes: 16},
		{Name: "hybrid", Lanes: 10, Fast: 2, FastBlocks: 4},
	}
)

func rates(kv ...any) *Rates {
	r := &Rates{Kernels: map[string]float64{}}
	for i := 0; i < len(kv); i += 2 {
		r.Kernels[kv[i].(string)] = float64(kv[i+1].(int))
	}
	return r
}

func name(c *Chooser, k int) string {
	if k < 0 {
		return c.kerns[0].Name
	}
	return c.kerns[k+1].Name
}

// TestChoice checks the choice by rates alone: the kernel that moves the
// most for the streams ready, a kernel leaving some waiting counted 3%
// lower, a kernel without a rate never, hybrids only when allowed.
func TestChoice(t *testing.T) {
	c := NewChooser(Fixed(rates("single", 1000, "x2", 1800, "x8", 3000, "x16", 8000, "hybrid", 4000), "test"), single, multis)
	for _, tc := range []struct {
		ready  int
		hybrid bool
		want   string
		lanes  int
	}{
		{1, true, "single", 1},
		{2, true, "hybrid", 2},              // 2000 (its fast lanes: 8 of 16 blocks) against 1800, 750 (x8), 1000 (x16)
		{3, true, "hybrid", 3},              // 2250 against 1800/1.03, 1125, 1500
		{5, true, "hybrid", 5},              // 2800/2.? hybrid (8+3)/16*4000 = 2750 against 1800/1.03 = 1748, x16 2500
		{7, true, "x16", 7},                 // 3500 against hybrid 3250
		{16, true, "x16", 16},               // all 16
		{32, true, "x16", 16},               // the rest wait
		{5, false, "x16", 5},                // without the hybrid
		{1000, false, "x16", 16},            // beyond MaxReady as MaxReady
		{4, true, "hybrid", 4},              // hybrid 10/16*4000 = 2500, x16 2000, x2 1748
		{MaxReady + 5, true, "x16", 16},     // clamps
		{2, false, "x2", 2},                 // x4 has no rate: never
		{MaxReady, true, "x16", 16},         //
		{9, true, "x16", 9},                 // 4500 against hybrid (8+7)/16*4000 = 3750
		{6, true, "x16", 6},                 // 3000 against hybrid 3000: the earlier kernel on a tie
		{1, false, "single", 1},             //
		{MaxReady - 1, false, "x16", 16},    //
		{MaxReady - 16, false, "x16", 16},   //
		{MaxReady - 17, false, "x16", 15},   //
		{MaxReady - 31, false, "single", 1}, //
	} {
		k, lanes := c.Pick(tc.ready, tc.hybrid)
		if got := name(c, k); got != tc.want || lanes != min(tc.lanes, tc.ready) && got != "single" {
			t.Errorf("%d ready (hybrid %v): %s on %d lanes, want %s on %d", tc.ready, tc.hybrid, got, lanes, tc.want, tc.lanes)
		}
	}
	// The single-stream kernel takes the ready streams one after another.
	if k, lanes := NewChooser(Fixed(rates("single", 1000), "test"), single, multis).Pick(5, true); k != -1 || lanes != 5 {
		t.Errorf("single-stream choice for 5 ready: kernel %d on %d lanes", k, lanes)
	}
}

// TestLoneStream checks that a lone stream stays on the single-stream
// kernel unless a multi-lane kernel moves loneMargin more with one lane.
func TestLoneStream(t *testing.T) {
	for _, tc := range []struct {
		x16  int // with 16 lanes busy; one lane moves a 16th
		want string
	}{
		{16 * 1050, "single"}, // 5% more: within the margin
		{16 * 1090, "single"},
		{16 * 1110, "x16"}, // beyond it
		{16 * 1500, "x16"},
	} {
		c := NewChooser(Fixed(rates("single", 1000, "x16", tc.x16), "test"), single, multis)
		if k, _ := c.Pick(1, true); name(c, k) != tc.want {
			t.Errorf("x16 at %d MB/s, 1 ready: %s, want %s", tc.x16, name(c, k), tc.want)
		}
		if k, _ := c.Pick(2, true); name(c, k) != "x16" {
			t.Errorf("x16 at %d MB/s, 2 ready: %s, want x16", tc.x16, name(c, k))
		}
	}
}

// TestShare checks the share of a kernel's rate its busy lanes are worth:
// the measured fills where there are some, linear between them and
// towards none and all lanes busy, and the lanes' share of the blocks
// without any or for a hybrid kernel.
func TestShare(t *testing.T) {
	r := &Rates{Fills: map[string]map[int]float64{"x16": {2: 0.15, 4: 0.3, 8: 0.55}, "hybrid": {4: 0.9}}}
	x16, plain, hybrid := &Kernel{Name: "x16", Lanes: 16}, &Kernel{Name: "x8", Lanes: 8}, &multis[4]
	for _, tc := range []struct {
		name string
		k    *Kernel
		used int
		want float64
	}{
		{"measured", x16, 4, 0.3},
		{"between two measured", x16, 3, 0.225},
		{"below the least measured", x16, 1, 0.075},
		{"above the most measured", x16, 12, 0.775},
		{"none busy", x16, 0, 0},
		{"all busy", x16, 16, 1},
		{"no fill", plain, 2, 0.25},
		{"hybrid", hybrid, 4, float64(2*4+2) / float64(2*4+8)},
	} {
		if got := r.shares(tc.k)[tc.used]; math.Abs(got-tc.want) > 1e-9 {
			t.Errorf("%s: %d busy: share %v, want %v", tc.name, tc.used, got, tc.want)
		}
	}
}

// fakeFamily is a family of fake kernels measured on a fake clock: each
// call of kernel i advances the clock by cost(i, call), the call's
// number counted from the first.
func fakeFamily(t *testing.T, m Mode, kerns []Kernel, cost func(name string, call int) time.Duration) *Family {
	t.Helper()
	var now time.Duration
	calls := map[string]int{}
	var probes []Probe
	for _, k := range kerns {
		probes = append(probes, Probe{Kernel: k, BlockSize: 64, prepare: func(_ []byte, _, busy, nblocks int) (func(), int) {
			return func() {
				now += cost(k.Name, calls[k.Name])
				calls[k.Name]++
			}, (&k).blocks(busy) * nblocks * 64
		}})
	}
	f := NewFamily("fake", func() []Probe { return probes }, m)
	f.clock = func() time.Duration { return now }
	f.load = func() (*Wisdom, string, error) { return nil, "", ErrNoWisdom }
	return f
}

// perMB is the time a kernel of rate MB/s takes over the bytes of one
// call of QuickMeasure: every lane busy.
func perMB(k Kernel, rate float64) time.Duration {
	bytes := float64(k.blocks(k.Lanes) * (QuickMeasure.LaneBytes / 64) * 64)
	return time.Duration(bytes / rate * 1e3)
}

// TestMeasureKeepsTheFastest checks that a burst of load during the
// measurement, slowing some calls tenfold, does not move a rate: the
// fastest call of each kernel counts; and that a kernel timed at no time
// at all is left out, not believed.
func TestMeasureKeepsTheFastest(t *testing.T) {
	kerns := []Kernel{single, multis[0], multis[3]}
	true_ := map[string]float64{"single": 1000, "x2": 1800, "x16": 8000}
	f := fakeFamily(t, Mode{Kind: ModeMeasure}, kerns, func(name string, call int) time.Duration {
		k := kerns[map[string]int{"single": 0, "x2": 1, "x16": 2}[name]]
		d := perMB(k, true_[name])
		if call%3 != 2 { // two calls in three disturbed
			d *= 10
		}
		return d
	})
	r, err := Measure(f.probes(), Options{LaneBytes: QuickMeasure.LaneBytes, Rounds: 4, Calls: 2, Budget: time.Hour, Clock: f.clock})
	if err != nil {
		t.Fatal(err)
	}
	for name, want := range true_ {
		if got := r.Kernels[name]; math.Abs(got/want-1) > 0.01 {
			t.Errorf("%s measured %.0f MB/s, want %.0f", name, got, want)
		}
	}

	still := fakeFamily(t, Mode{Kind: ModeMeasure}, kerns, func(name string, _ int) time.Duration {
		if name == "x16" {
			return 0 // a clock that stood still
		}
		return time.Microsecond
	})
	r, err = Measure(still.probes(), Options{LaneBytes: QuickMeasure.LaneBytes, Rounds: 3, Calls: 1, Clock: still.clock})
	if err != nil {
		t.Fatal(err)
	}
	if _, ok := r.Kernels["x16"]; ok || len(r.Kernels) != 2 {
		t.Errorf("rates %v: want x16 left out, the others in", r.Kernels)
	}
	none := fakeFamily(t, Mode{Kind: ModeMeasure}, kerns, func(string, int) time.Duration { return 0 })
	if _, err := Measure(none.probes(), Options{LaneBytes: 2048, Rounds: 3, Calls: 1, Clock: none.clock}); err == nil {
		t.Error("a measurement that timed nothing succeeded")
	}
}

// TestMeasureDisturbedKernel checks that a kernel whose calls with every
// lane busy were all slowed, so that it seems to move more with lanes
// idle, is left out of the measurement rather than failing it.
func TestMeasureDisturbedKernel(t *testing.T) {
	kerns := []Kernel{single, multis[0], multis[3]}
	rate := map[string]float64{"single": 1000, "x2": 1800, "x16": 8000}
	f := fakeFamily(t, Mode{Kind: ModeMeasure}, kerns, func(name string, call int) time.Duration {
		k := kerns[map[string]int{"single": 0, "x2": 1, "x16": 2}[name]]
		d := perMB(k, rate[name]) // a call costs the same whatever lanes are busy
		if name == "x16" && call%2 == 0 {
			d *= 4 // its full calls, first in each round, always slowed
		}
		return d
	})
	r, err := Measure(f.probes(), Options{LaneBytes: QuickMeasure.LaneBytes, Rounds: 3, Calls: 1, Budget: time.Hour, Busy: []int{8}, Clock: f.clock})
	if err != nil {
		t.Fatal(err)
	}
	if _, ok := r.Kernels["x16"]; ok || r.Fills["x16"] != nil {
		t.Errorf("x16 kept: rate %v, fills %v", r.Kernels["x16"], r.Fills["x16"])
	}
	if math.Abs(r.Kernels["x2"]/1800-1) > 0.01 || math.Abs(r.Kernels["single"]/1000-1) > 0.01 {
		t.Errorf("the others: %v", r.Kernels)
	}
}

// TestMeasureBudget checks that the measurement stops once over its
// budget, after two rounds, however many it was asked for.
func TestMeasureBudget(t *testing.T) {
	calls := 0
	f := fakeFamily(t, Mode{Kind: ModeMeasure}, []Kernel{single}, func(string, int) time.Duration {
		calls++
		return time.Millisecond
	})
	if _, err := Measure(f.probes(), Options{LaneBytes: 2048, Rounds: 1000, Calls: 1, Budget: 5 * time.Millisecond, Clock: f.clock}); err != nil {
		t.Fatal(err)
	}
	if calls > 10 {
		t.Errorf("%d calls within a budget of 5 calls' time", calls)
	}
}

// TestRecovers checks that a measurement disturbed by a burst of load
// does not lock in a kernel slower than the single-stream one: the
// rounds the engine times correct the estimates within a bounded number
// of rounds. A kernel measured faster than it is gets chosen, and its
// rounds show it; one measured slower than it is is shown by a try of
// the runner-up, if it is close enough to be tried.
func TestRecovers(t *testing.T) {
	kerns := append([]Kernel{single}, multis[0], multis[3])
	true_ := map[string]float64{"single": 1000, "x2": 1500, "x16": 9600}
	for _, tc := range []struct {
		name     string
		wrong    string  // the kernel the measurement got wrong
		factor   float64 // measured rate over true rate
		ready    int
		want     string // the right choice
		inRounds int    // at most this many rounds to find it
	}{
		{"lanes measured too fast", "x16", 10, 2, "x2", 4},
		{"lanes measured too fast, all of them", "x16", 10, 16, "x16", 1},
		{"single-stream kernel measured too slow", "single", 0.1, 2, "x2", 1},
		// x16 on 3 lanes moves 1800 against x2's 1456 (two lanes, one
		// stream waiting), but measured at 0.7 of its rate, 1260: only a
		// try shows it.
		{"lanes measured too slow", "x16", 0.7, 3, "x16", 3 * exploreEvery},
		{"single-stream kernel measured too fast", "single", 12, 16, "x16", 4},
		// Measured below the single-stream kernel, which is then the
		// choice (x16 is left out for this case): only a try shows the
		// two-lane kernel's true rate.
		{"lanes measured below the single-stream kernel", "x2", 0.6, 2, "x2", 3 * exploreEvery},
	} {
		t.Run(tc.name, func(t *testing.T) {
			kerns := kerns
			if tc.wrong == "x2" {
				kerns = kerns[:2]
			}
			f := fakeFamily(t, Mode{Kind: ModeMeasure}, kerns, func(name string, _ int) time.Duration {
				k := kerns[map[string]int{"single": 0, "x2": 1, "x16": 2}[name]]
				r := true_[name]
				if name == tc.wrong {
					r *= tc.factor
				}
				return perMB(k, r)
			})
			c := NewChooser(f.Source(f.mode), single, kerns[1:])
			c.Prepare(2)
			if c.Pending() {
				t.Fatal("still pending after Prepare")
			}
			round := func() string {
				return timedRound(c, kerns, tc.ready, func(k string) float64 { return true_[k] })
			}
			var rounds int
			for rounds = 1; rounds <= 10*exploreEvery; rounds++ {
				round()
				if got, _ := c.Pick(tc.ready, true); name(c, got) == tc.want {
					break
				}
			}
			if rounds > tc.inRounds {
				t.Errorf("%d rounds to choose %s for %d ready, want at most %d", rounds, tc.want, tc.ready, tc.inRounds)
			}
			// And it stays with the right kernel but for a try now and
			// then: one in exploreEvery, and the rechecks of the kernel a
			// change of choice left behind, each tryRounds rounds long.
			wrong := 0
			for range 4 * exploreEvery {
				if round() != tc.want {
					wrong++
				}
			}
			if wrong > (4+recheckTries)*tryRounds+1 {
				t.Errorf("%d of %d rounds ran another kernel than %s", wrong, 4*exploreEvery, tc.want)
			}
		})
	}
}

// timedRound runs a round as the engine times it: the kernel Explore
// gives for ready streams, at the rate rate gives for it with every lane
// busy, on the lanes it took, reported to Observe. It returns the kernel.
func timedRound(c *Chooser, kerns []Kernel, ready int, rate func(kernel string) float64) string {
	k, used := c.Explore(ready)
	kern := kerns[k+1]
	r := rate(kern.Name)
	if k >= 0 {
		r *= kern.blockShare(used)
	}
	bytes := used * 64 * 256
	c.Observe(k, used, bytes, int64(float64(bytes)/r*1e3))
	return kern.Name
}

// TestSlowSpell checks that a kernel timed slow on a few rounds, in a
// spell when the whole machine ran slower or in a burst that stalled its
// rounds, is back in use soon after: the choice it lost is rechecked with
// fresh rounds, not left to a try in exploreEvery against a median of
// stale ones, nor left out for good when its estimate fell out of a
// runner-up's range.
func TestSlowSpell(t *testing.T) {
	kerns := []Kernel{single, multis[0]}
	true_ := map[string]float64{"single": 1400, "x2": 1900}
	for _, tc := range []struct {
		name string
		// speed is the share of its rate kernel k runs at in round i.
		speed func(i int, k string) float64
	}{
		// The first rounds of x2 slower still than the spell.
		{"spell", func(i int, k string) float64 {
			switch {
			case i < 2 && k == "x2":
				return 0.6
			case i < 40:
				return 0.87
			}
			return 1
		}},
		// Three rounds of x2 stalled to a sixth of its rate.
		{"burst", func(i int, k string) float64 {
			if i >= 20 && i < 23 && k == "x2" {
				return 0.16
			}
			return 1
		}},
	} {
		t.Run(tc.name, func(t *testing.T) {
			f := fakeFamily(t, Mode{Kind: ModeMeasure}, kerns, func(name string, _ int) time.Duration {
				return perMB(kerns[map[string]int{"single": 0, "x2": 1}[name]], true_[name])
			})
			c := NewChooser(f.Source(f.mode), single, kerns[1:])
			c.Prepare(2)
			const ready = 8
			var names []string
			for i := range 40 + exploreEvery {
				names = append(names, timedRound(c, kerns, ready, func(k string) float64 { return true_[k] * tc.speed(i, k) }))
			}
			if got, _ := c.Pick(ready, true); name(c, got) != "x2" {
				t.Fatalf("the choice is %s after the slow rounds, want x2; rounds ran %v", name(c, got), names)
			}
			// Once the rechecks have seen x2 at the machine's rate of the
			// time, x2 is the choice again.
			if single := strings.Count(strings.Join(names, " "), "single"); single > 3+recheckTries*recheckEvery {
				t.Errorf("%d of %d rounds ran the single-stream kernel: %v", single, len(names), names)
			}
		})
	}
}

// TestLoneRounds checks that rounds move a lone stream's choice towards
// the single-stream kernel and never away from it: lone rounds timed slow
// (as they are when a stream starts or ends, right after a system call)
// leave it on the single-stream kernel, while lanes whose rounds show them
// slower than measured give it back to the single-stream kernel.
func TestLoneRounds(t *testing.T) {
	kerns := []Kernel{single, multis[3]}
	for _, tc := range []struct {
		name       string
		x16        float64 // measured, all lanes busy
		speed      map[string]float64
		ready      int // the ready count the rounds ran at
		want, then string
	}{
		// x16 on one lane measured at 1050 against 1000, within the lone
		// margin; the single kernel's rounds time at 0.6.
		{"slow lone rounds", 16 * 1050, map[string]float64{"single": 0.6, "x16": 1}, 1, "single", "single"},
		// The same, the lone rounds among many rounds of x16 at 2 ready.
		{"slow lone rounds among lanes", 16 * 1050, map[string]float64{"single": 0.6, "x16": 1}, 2, "single", "single"},
		// x16 measured at 16 x 1500 takes a lone stream; its rounds show
		// it at half that.
		{"lanes slower than measured", 16 * 1500, map[string]float64{"single": 1, "x16": 0.5}, 2, "x16", "single"},
	} {
		t.Run(tc.name, func(t *testing.T) {
			true_ := map[string]float64{"single": 1000, "x16": tc.x16}
			f := fakeFamily(t, Mode{Kind: ModeMeasure}, kerns, func(name string, _ int) time.Duration {
				return perMB(kerns[map[string]int{"single": 0, "x16": 1}[name]], true_[name])
			})
			c := NewChooser(f.Source(f.mode), single, kerns[1:])
			c.Prepare(2)
			if got, _ := c.Pick(1, true); name(c, got) != tc.want {
				t.Fatalf("measured: %s for a lone stream, want %s", name(c, got), tc.want)
			}
			for i := range 4 * exploreEvery {
				ready := tc.ready
				if i%4 == 0 {
					ready = 1 // a stream starting or ending
				}
				timedRound(c, kerns, ready, func(k string) float64 { return true_[k] * tc.speed[k] })
			}
			if got, _ := c.Pick(1, true); name(c, got) != tc.then {
				t.Errorf("after the rounds: %s for a lone stream, want %s", name(c, got), tc.then)
			}
		})
	}
}

// TestBackToTheRates checks that a kernel timed far below its measured
// rate for longer than its rechecks last, out of a runner-up's range, is
// tried again once its rounds would show it right: every baseEvery tries
// go to the choice the rates alone make.
func TestBackToTheRates(t *testing.T) {
	kerns := append([]Kernel{single}, multis[0], multis[3])
	true_ := map[string]float64{"single": 1000, "x2": 1500, "x16": 9600}
	f := fakeFamily(t, Mode{Kind: ModeMeasure}, kerns, func(name string, _ int) time.Duration {
		return perMB(kerns[map[string]int{"single": 0, "x2": 1, "x16": 2}[name]], true_[name])
	})
	c := NewChooser(f.Source(f.mode), single, kerns[1:])
	c.Prepare(2)
	// Back within two of the tries that go to the rates' choice.
	const ready, spell, after = 16, 100, 2*4*exploreEvery + tryRounds
	found := -1
	for i := range spell + after {
		timedRound(c, kerns, ready, func(k string) float64 {
			if i < spell && k == "x16" {
				return 0.1 * true_[k] // a spell of load on x16's rounds alone
			}
			return true_[k]
		})
		if got, _ := c.Pick(ready, true); i == spell-1 && name(c, got) == "x16" {
			t.Fatalf("x16 is still the choice after %d rounds timed at a tenth of its rate", spell)
		} else if i >= spell && name(c, got) == "x16" && found < 0 {
			found = i - spell
		}
	}
	if found < 0 {
		t.Errorf("x16 is not the choice %d rounds after the spell", after)
	}
}

// TestTiesKeepThePrior checks that a measured rate within 10% of the
// prior's choice leaves the choice where the prior put it, and that one
// further ahead takes it.
func TestTiesKeepThePrior(t *testing.T) {
	prior := &snapshot{rates: rates("single", 1000, "x2", 2000, "x16", 8000)}
	for _, tc := range []struct {
		x2   int
		want string
	}{{1990, "x2"}, {1820, "x2"}, {1800, "x16"}} {
		c := &Chooser{kerns: append([]Kernel{single}, multis[0], multis[3])}
		c.prior = c.build(prior, nil)
		measured := &snapshot{rates: rates("single", 1000, "x2", tc.x2, "x16", 16000)}
		// x16 at 2 of 16 lanes moves 2000: a tie with x2 at 1990 or 1820.
		tbl := c.build(measured, c.prior)
		if got := c.kerns[tbl.best[1][2].k].Name; got != tc.want {
			t.Errorf("x2 measured at %d against x16's 2000 on two lanes: %s chosen, want %s", tc.x2, got, tc.want)
		}
	}
}

// TestCutoff checks the SumMany cut-off found from timings: the fewest
// messages from which the lanes beat the loop at every count up to the
// most tried, never fewer than 2, one past the most if they never do.
func TestCutoff(t *testing.T) {
	var now time.Duration
	clock := func() time.Duration { return now }
	for _, tc := range []struct {
		loopPer, lanes time.Duration // the loop's time a message, the lanes' a call
		want           int
	}{
		{100, 300, 4},  // 300 = 3x100 is no win; 4 is
		{100, 50, 2},   // even one message is faster in lanes: 2 still
		{100, 2000, 9}, // never within 8
	} {
		p := CutoffProbe{
			Loop:  func(n int) { now += time.Duration(n) * tc.loopPer },
			Lanes: func(int) { now += tc.lanes },
			Max:   8,
		}
		got, err := MeasureCutoff(p, Options{Rounds: 2, Calls: 1, Budget: time.Hour, Clock: clock})
		if err != nil || got != tc.want {
			t.Errorf("loop %v a message, lanes %v: cut-off %d (%v), want %d", tc.loopPer, tc.lanes, got, err, tc.want)
		}
	}
}

// TestPriors checks that every prior parses and holds rates for the four
// families, and which prior a CPU takes: AMD's family 19h models by their
// published ranges, Intel's Xeons with AMX by that feature (Sapphire and
// Emerald Rapids by their models too, where a hypervisor hides it), any other CPU
// the nearest by instruction set.
func TestPriors(t *testing.T) {
	if len(priors()) < 3 {
		t.Fatalf("priors: %v", PriorNames())
	}
	for _, p := range priors() {
		for _, fam := range []string{"md5", "sha1", "sha256", "sha512"} {
			if r := p.Families[fam]; r == nil || len(r.Kernels) == 0 || len(r.ManyMin) == 0 {
				t.Errorf("prior %s has no rates or cut-offs for %s", p.Name, fam)
			}
		}
		if len(p.Provenance) == 0 {
			t.Errorf("prior %s says nothing of where it comes from", p.Name)
		}
	}
	amd := func(family, model uint32) CPU { return CPU{Vendor: "AuthenticAMD", Family: family, Model: model} }
	intel := func(model uint32, amx bool) CPU {
		c := CPU{Vendor: "GenuineIntel", Family: 6, Model: model}
		if amx {
			c.Features = []string{"amx"}
		}
		return c
	}
	for _, c := range []struct {
		cpu      CPU
		detected cpu.Level
		want     string
		exact    bool
	}{
		{amd(0x19, 0x01), cpu.AVX2, "zen3", true},   // EPYC 7003 (Milan)
		{amd(0x19, 0x21), cpu.AVX2, "zen3", true},   // Ryzen 5000 (Vermeer)
		{amd(0x19, 0x50), cpu.AVX2, "zen3", true},   // Ryzen 5000 APU (Cezanne)
		{amd(0x19, 0x11), cpu.AVX512, "zen4", true}, // EPYC 9004 (Genoa)
		{amd(0x19, 0x61), cpu.AVX512, "zen4", true}, // Ryzen 7000 (Raphael)
		{amd(0x19, 0xa0), cpu.AVX512, "zen4", true}, // EPYC 97x4 (Bergamo)
		{amd(0x19, 0x90), cpu.AVX512, "zen4", false},
		{amd(0x1a, 0x02), cpu.AVX512, "zen4", false},                                                   // Zen 5
		{amd(0x17, 0x31), cpu.AVX2, "zen3", false},                                                     // Zen 2
		{CPU{Family: 0x19, Model: 0x01}, cpu.AVX2, "zen3", false},                                      // not AMD
		{intel(0x8f, true), cpu.AVX512, "goldencove", true},                                            // Sapphire Rapids
		{intel(0xcf, true), cpu.AVX512, "goldencove", true},                                            // Emerald Rapids
		{intel(0xad, true), cpu.AVX512, "goldencove", true},                                            // Granite Rapids
		{intel(0xa7, true), cpu.AVX512, "goldencove", true},                                            // as a hypervisor reports one
		{intel(0xcf, false), cpu.AVX512, "goldencove", true},                                           // Emerald Rapids, AMX hidden by the hypervisor
		{intel(0x8f, false), cpu.AVX512, "goldencove", true},                                           // Sapphire Rapids, the same
		{intel(0xa7, false), cpu.AVX512, "zen4", false},                                                // no AMX, and not known by its model
		{intel(0x8f, true), cpu.AVX2, "zen3", false},                                                   // AVX-512 off
		{intel(0x6a, false), cpu.AVX512, "zen4", false},                                                // Ice Lake server
		{intel(0x97, false), cpu.AVX2, "zen3", false},                                                  // Alder Lake
		{intel(0x97, false), cpu.Generic, "zen3", false},                                               // no AVX2
		{CPU{Vendor: "AuthenticAMD", Family: 6, Features: []string{"amx"}}, cpu.AVX512, "zen4", false}, // AMX, not Intel
	} {
		i, exact := priorFor(c.cpu, c.detected)
		if p := prior(i); p == nil || p.Name != c.want || exact != c.exact {
			t.Errorf("%+v at %v: %v (exact %v), want %s (exact %v)", c.cpu, c.detected, p, exact, c.want, c.exact)
		}
	}
}

// TestParseMode checks HASHLANES_TUNING's values.
func TestParseMode(t *testing.T) {
	for in, want := range map[string]Mode{
		"auto": {Kind: ModeAuto}, "MEASURE": {Kind: ModeMeasure}, "file": {Kind: ModeFile},
		"table": {Kind: ModeTable}, "table:zen3": {Kind: ModeTable, Prior: "zen3"},
	} {
		if got, err := ParseMode(in); err != nil || got != want {
			t.Errorf("ParseMode(%q) = %v, %v; want %v", in, got, err, want)
		}
	}
	for _, in := range []string{"", "fast", "table:zen9", "measure:zen3", "table:"} {
		if _, err := ParseMode(in); err == nil {
			t.Errorf("ParseMode(%q) accepted", in)
		}
	}
}

// validWisdom is a wisdom file for this CPU and build.
func validWisdom() *Wisdom {
	return &Wisdom{Format: Format, CPU: ThisCPU(), Build: BuildID(), Measured: time.Unix(0, 0).UTC(), Method: "test",
		Families: map[string]*Rates{"fake": rates("single", 1000, "x2", 1900, "x16", 9000)}}
}

// TestWisdomPath checks the wisdom file's name: in the user's cache
// directory unless HASHLANES_TUNING_FILE names one, keyed by this CPU's
// vendor (lower case, letters and digits only), family, model and
// stepping in decimal, so that files written by earlier builds are found.
func TestWisdomPath(t *testing.T) {
	t.Setenv("HASHLANES_TUNING_FILE", "")
	t.Setenv("XDG_CACHE_HOME", "/cache")
	t.Setenv("HOME", "/home/someone")
	c := ThisCPU()
	vendor := strings.ToLower(strings.Map(func(r rune) rune {
		if r >= 'a' && r <= 'z' || r >= 'A' && r <= 'Z' || r >= '0' && r <= '9' {
			return r
		}
		return -1
	}, cmp.Or(c.Vendor, "unknown")))
	dir, err := os.UserCacheDir()
	if err != nil {
		t.Fatal(err)
	}
	want := filepath.Join(dir, "hashlanes", fmt.Sprintf("tuning-%s-%d-%d-%d.json", vendor, c.Family, c.Model, c.Stepping))
	if got, err := WisdomPath(); got != want || err != nil {
		t.Errorf("WisdomPath() = %q, %v; want %q", got, err, want)
	}
	t.Setenv("HASHLANES_TUNING_FILE", "/elsewhere/t.json")
	if got, err := WisdomPath(); got != "/elsewhere/t.json" || err != nil {
		t.Errorf("with HASHLANES_TUNING_FILE: %q, %v", got, err)
	}
}

// TestWisdomFile checks that the wisdom file round-trips, and that a file
// truncated, corrupt, of another format, CPU or build, with impossible
// rates, unreadable, or a directory is refused with a reason, and a
// family in auto mode then measures instead.
func TestWisdomFile(t *testing.T) {
	dir := t.TempDir()
	good := filepath.Join(dir, "good.json")
	if err := validWisdom().Save(good); err != nil {
		t.Fatal(err)
	}
	w, err := ReadWisdom(good)
	if err != nil || w.Families["fake"].Kernels["x16"] != 9000 {
		t.Fatalf("round trip: %v, %v", w, err)
	}
	whole, _ := os.ReadFile(good)
	edit := func(f func(*Wisdom)) []byte {
		w := validWisdom()
		f(w)
		b, _ := json.Marshal(w)
		return b
	}
	for _, tc := range []struct {
		name   string
		data   []byte
		reason string
	}{
		{"truncated", whole[:len(whole)/2], "not a wisdom file"},
		{"empty", nil, "not a wisdom file"},
		{"not JSON", []byte("kernels: fast\n"), "not a wisdom file"},
		{"unknown field", []byte(`{"format":"hashlanes-tuning/1","speed":1}`), "not a wisdom file"},
		{"other format", edit(func(w *Wisdom) { w.Format = "hashlanes-tuning/0" }), "format"},
		{"other CPU", edit(func(w *Wisdom) { w.CPU.Model++ }), "another CPU"},
		{"other features", edit(func(w *Wisdom) { w.CPU.Features = append(w.CPU.Features, "avx10") }), "another CPU"},
		{"other build", edit(func(w *Wisdom) { w.Build = "go1.0 v0.0.1" }), "another build"},
		{"impossible rate", edit(func(w *Wisdom) { w.Families["fake"].Kernels["x16"] = 9e9 }), "implausible rate"},
		{"negative rate", edit(func(w *Wisdom) { w.Families["fake"].Kernels["x2"] = -1 }), "implausible rate"},
		{"no rates", edit(func(w *Wisdom) { w.Families = nil }), "no rates"},
		{"bad cut-off", edit(func(w *Wisdom) { w.Families["fake"].ManyMin = map[string]int{"fake": 0} }), "cut-off"},
	} {
		path := filepath.Join(dir, strings.ReplaceAll(tc.name, " ", "-")+".json")
		if err := os.WriteFile(path, tc.data, 0o644); err != nil {
			t.Fatal(err)
		}
		if _, err := ReadWisdom(path); err == nil || !strings.Contains(err.Error(), tc.reason) {
			t.Errorf("%s: %v, want a reason with %q", tc.name, err, tc.reason)
		}
	}
	if _, err := ReadWisdom(dir); err == nil || !strings.Contains(err.Error(), "directory") {
		t.Errorf("a directory: %v", err)
	}
	if _, err := ReadWisdom(filepath.Join(dir, "absent.json")); !errors.Is(err, ErrNoWisdom) {
		t.Errorf("an absent file: %v, want ErrNoWisdom", err)
	}
	if os.Geteuid() != 0 { // root reads it anyway
		unreadable := filepath.Join(dir, "unreadable.json")
		os.WriteFile(unreadable, whole, 0o000)
		if _, err := ReadWisdom(unreadable); err == nil || !strings.Contains(err.Error(), "permission") {
			t.Errorf("an unreadable file: %v", err)
		}
	}

	// A family in auto mode takes a good file's rates, and measures when
	// the file is refused.
	kerns := []Kernel{single, multis[0], multis[3]}
	slow := func(string, int) time.Duration { return time.Millisecond }
	f := fakeFamily(t, Mode{Kind: ModeAuto}, kerns, slow)
	f.load = func() (*Wisdom, string, error) { w, err := ReadWisdom(good); return w, good, err }
	src := f.Source(f.mode)
	src.prepare()
	if got := src.current(); got.kind != kindFile || got.rates.Kernels["x16"] != 9000 {
		t.Errorf("auto with a good file: %s %v", got.origin, got.rates.Kernels)
	}
	bad := fakeFamily(t, Mode{Kind: ModeAuto}, kerns, slow)
	bad.load = func() (*Wisdom, string, error) { w, err := ReadWisdom(dir); return w, dir, err }
	src = bad.Source(bad.mode)
	src.prepare()
	if got := src.current(); got.kind != kindMeasured {
		t.Errorf("auto with a refused file: %s, want a measurement", got.origin)
	}
	// In file mode, a refused file leaves the prior.
	fileOnly := fakeFamily(t, Mode{Kind: ModeFile}, kerns, slow)
	fileOnly.load = bad.load
	src = fileOnly.Source(fileOnly.mode)
	src.prepare()
	if got := src.current(); got.kind != kindPrior {
		t.Errorf("file mode with a refused file: %s, want the prior", got.origin)
	}
}

// TestManyMinLeavesTheFile: in auto mode SumMany's cut-off is the
// prior's, not final, and asking for it reads no wisdom file (a fresh
// process's first few messages paid 8-10 µs for the read); the file is
// read at the engine's first round on the lanes, and then its cut-off is
// final. In file mode the first ask reads it.
func TestManyMinLeavesTheFile(t *testing.T) {
	kerns := []Kernel{single, multis[0], multis[3]}
	slow := func(string, int) time.Duration { return time.Millisecond }
	w := validWisdom()
	w.Families["fake"].ManyMin = map[string]int{"fake": 7}
	for _, m := range []ModeKind{ModeAuto, ModeFile} {
		f := fakeFamily(t, Mode{Kind: m}, kerns, slow)
		reads := 0
		f.load = func() (*Wisdom, string, error) { reads++; return w, "wisdom.json", nil }
		src := f.Source(f.mode)
		n, final := src.ManyMin("fake", nil)
		if m == ModeAuto && (reads != 0 || final || n == 7) {
			t.Errorf("auto: first cut-off %d (final %v) after %d reads of the file, want the prior's, not final, no read", n, final, reads)
		}
		if m == ModeFile && (reads != 1 || !final || n != 7) {
			t.Errorf("file: first cut-off %d (final %v) after %d reads of the file, want the file's 7, final, one read", n, final, reads)
		}
		if src.due(1) {
			src.settle()
		}
		if n, final = src.ManyMin("fake", nil); reads != 1 || !final || n != 7 {
			t.Errorf("%v, after the first round: cut-off %d (final %v) after %d reads, want the file's 7, final, one read", m, n, final, reads)
		}
	}
}

// FuzzWisdom feeds the wisdom file's parser arbitrary bytes: it refuses
// or accepts without panicking, and what it accepts has rates a choice
// can be made by.
func FuzzWisdom(f *testing.F) {
	b, _ := json.Marshal(validWisdom())
	f.Add(b)
	for _, name := range []string{"zen3", "zen4", "goldencove"} {
		data, err := priorFiles.ReadFile("priors/" + name + ".json")
		if err != nil {
			f.Fatal(err)
		}
		f.Add(data)
	}
	f.Fuzz(func(t *testing.T, data []byte) {
		w, err := parseWisdom(data)
		if err != nil {
			return
		}
		for _, r := range w.Families {
			if err := r.check(); err != nil {
				t.Fatalf("accepted rates that fail their check: %v", err)
			}
			c := NewChooser(Fixed(r, "fuzz"), single, multis)
			for ready := 1; ready <= MaxReady; ready++ {
				if k, lanes := c.Pick(ready, true); k < -1 || k >= len(multis) || lanes < 1 || lanes > ready {
					t.Fatalf("%d ready: kernel %d on %d lanes", ready, k, lanes)
				}
			}
		}
	})
}

// BenchmarkRound is what the choice adds to a round of the engine: the
// pick (with a try of the runner-up every exploreEvery rounds) and the
// timed round's report, rounds of 16 KiB a lane moving what their kernel
// is rated at, with 5% of noise.
func BenchmarkRound(b *testing.B) {
	kerns := append([]Kernel{single}, multis...)
	var now time.Duration
	var probes []Probe
	for _, k := range kerns {
		probes = append(probes, Probe{Kernel: k, BlockSize: 64, prepare: func(_ []byte, _, busy, nblocks int) (func(), int) {
			return func() { now += time.Microsecond }, (&k).blocks(busy) * nblocks * 64
		}})
	}
	f := NewFamily("bench", func() []Probe { return probes }, Mode{Kind: ModeMeasure})
	f.clock = func() time.Duration { return now }
	c := NewChooser(f.Source(f.mode), single, multis)
	c.Prepare(2)
	rates := c.Rates()
	i := 0
	for b.Loop() {
		ready := 2 + i%15
		k, used := c.Explore(ready)
		kern := &c.kerns[k+1]
		bytes := kern.blocks(used) * 256 * 64
		rate := rates.Kernels[kern.Name] * kern.blockShare(used) * (1 + 0.05*float64(i%7-3)/3)
		c.Observe(k, used, bytes, int64(float64(bytes)/rate*1e3))
		i++
	}
}

//go:embed priors/*.json
var priorFiles embed.FS

// TestPriorTableCurrent checks that priors_table.go holds what
// priors/*.json say: run go generate after changing a prior.
func TestPriorTableCurrent(t *testing.T) {
	names, _ := fs.Glob(priorFiles, "priors/*.json")
	table := priors()
	if len(names) != len(table) {
		t.Fatalf("%d priors, %d in priors_table.go: run go generate", len(names), len(table))
	}
	for i, name := range names {
		b, _ := priorFiles.ReadFile(name)
		w, err := parseWisdom(b)
		if err != nil {
			t.Fatalf("%s: %v", name, err)
		}
		if !reflect.DeepEqual(w, table[i]) {
			t.Errorf("%s differs from its entry in priors_table.go: run go generate", name)
		}
	}
}

// TestSaveKeepsWhatIsThere: Save through a symbolic link writes the
// link's target and leaves the link; into a pipe (as into a device such
// as /dev/null) it writes, and the pipe is still a pipe.
func TestSaveKeepsWhatIsThere(t *testing.T) {
	dir := t.TempDir()
	target := filepath.Join(dir, "target.json")
	link := filepath.Join(dir, "link.json")
	if err := os.WriteFile(target, []byte("old"), 0o644); err != nil {
		t.Fatal(err)
	}
	if err := os.Symlink(target, link); err != nil {
		t.Skip(err)
	}
	if err := validWisdom().Save(link); err != nil {
		t.Fatal(err)
	}
	if fi, err := os.Lstat(link); err != nil || fi.Mode()&os.ModeSymlink == 0 {
		t.Errorf("the link was replaced: %v %v", fi.Mode(), err)
	}
	if w, err := ReadWisdom(target); err != nil || w.Format != Format {
		t.Errorf("the target holds no wisdom: %v", err)
	}

	fifo := filepath.Join(dir, "fifo")
	if err := mkfifo(fifo); err != nil {
		t.Skip(err)
	}
	read := make(chan int)
	go func() {
		b, _ := os.ReadFile(fifo)
		read <- len(b)
	}()
	if err := validWisdom().Save(fifo); err != nil {
		t.Fatal(err)
	}
	if n := <-read; n == 0 {
		t.Error("nothing came through the pipe")
	}
	if fi, err := os.Lstat(fifo); err != nil || fi.Mode()&os.ModeNamedPipe == 0 {
		t.Errorf("the pipe was replaced: %v %v", fi.Mode(), err)
	}
	if err := validWisdom().Save(dir); err == nil {
		t.Error("saved over a directory")
	}
}

// TestProbesMadeOnDemand checks that a family makes its probes when its
// kernels are first listed or measured, once, and not to choose from its
// prior: a process that hashes a little never needs them.
func TestProbesMadeOnDemand(t *testing.T) {
	made := 0
	f := NewFamily("md5", func() []Probe { made++; return nil }, Mode{Kind: ModeAuto})
	src := f.Source(Mode{Kind: ModeAuto})
	_ = src.Rates()
	if made != 0 {
		t.Fatalf("the probes were made %d times before anything listed them", made)
	}
	f.Probes()
	f.Probes()
	if made != 1 {
		t.Fatalf("the probes were made %d times for two listings, want 1", made)
	}
}

// TestLoneStreamReadsNoPrior checks that a lone stream's choice takes the
// single-stream kernel without the family reading its prior (this CPU's
// identity and the prior's rates, most of a fresh process's first write),
// and that the first choice with two streams reads it.
func TestLoneStreamReadsNoPrior(t *testing.T) {
	f := NewFamily("md5", func() []Probe { return nil }, Mode{Kind: ModeAuto})
	c := NewChooser(f.Source(Mode{Kind: ModeAuto}), Kernel{Name: "amd64"}, []Kernel{{Name: "amd64x2", Lanes: 2}})
	for _, hybrid := range []bool{false, true} {
		if k, lanes := c.Pick(1, hybrid); k != -1 || lanes != 1 {
			t.Errorf("a lone stream (hybrid %v): kernel %d, %d lanes; want the single-stream kernel", hybrid, k, lanes)
		}
	}
	if f.snap.Load() != nil {
		t.Fatal("the family took its prior for a lone stream's choice")
	}
	c.Pick(2, true)
	if f.snap.Load() == nil {
		t.Error("a choice for two streams was made without the family's rates")
	}
}

// TestTriesBackOff checks that a steady load, whose tries keep confirming
// the choice, runs fewer and fewer of them, down to one in
// exploreEvery<<exploreMaxDoublings rounds, and that a change of choice
// brings the tries back to one in exploreEvery.
func TestTriesBackOff(t *testing.T) {
	kerns := []Kernel{single, multis[2], multis[3]}
	true_ := map[string]float64{"single": 1000, "x8": 7000, "x16": 8000}
	f := fakeFamily(t, Mode{Kind: ModeMeasure}, kerns, func(name string, _ int) time.Duration {
		return perMB(kerns[map[string]int{"single": 0, "x8": 1, "x16": 2}[name]], true_[name])
	})
	c := NewChooser(f.Source(f.mode), single, kerns[1:])
	c.Prepare(16)
	const ready, steady = 16, 8000
	rate := func(slow float64) func(string) float64 {
		return func(k string) float64 {
			if k == "x16" {
				return slow * true_[k]
			}
			return true_[k]
		}
	}
	// x8, on 8 of the 16 ready, moves 7000 against x16's 8000: a close
	// runner-up, tried now and then.
	tries := c.Tries()
	var last int
	for i := range steady {
		before := c.Tries()
		timedRound(c, kerns, ready, rate(1))
		if c.Tries() > before {
			last = i
		}
	}
	if got, _ := c.Pick(ready, true); name(c, got) != "x16" {
		t.Fatalf("%s chosen for %d ready, want x16", name(c, got), ready)
	}
	n := c.Tries() - tries
	// Without the backoff: steady/(exploreEvery+tryRounds), 228.
	if most := uint64(steady / (exploreEvery << 2)); n == 0 || n > most {
		t.Errorf("%d tries in %d steady rounds, want 1 to %d", n, steady, most)
	}
	if gap := steady - last; gap > exploreEvery<<exploreMaxDoublings+2*tryRounds {
		t.Errorf("no try in the last %d rounds, want one in every %d", gap, exploreEvery<<exploreMaxDoublings)
	}
	// A spell that makes x16 lose the choice, and then the same load.
	for range 40 {
		timedRound(c, kerns, ready, rate(0.5))
	}
	tries = c.Tries()
	for range 4 * exploreEvery {
		timedRound(c, kerns, ready, rate(1))
	}
	if n := c.Tries() - tries; n < 4 {
		t.Errorf("%d tries in the %d rounds after a change of choice, want at least 4", n, 4*exploreEvery)
	}
}
