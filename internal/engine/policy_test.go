package engine

import (
	"testing"
	"time"

	"github.com/hashlanes/hashlanes/internal/kernel"
	sha256k "github.com/hashlanes/hashlanes/internal/kernel/sha256"
)

// TestPolicyDecisions pins the combine's decisions on states set by hand,
// no goroutine running: when a round yields for company and how, when a
// lone combiner waits, and when it hands streams to another P.
func TestPolicyDecisions(t *testing.T) {
	s := nullServer(kernel.Multi[sha256k.State]{Name: "alike16", Lanes: 16}, lanesFrom2)
	s.combiners = 1

	// companyYields: no sign of company, no yield; company lately,
	// maxYields, capped at one P only; a probe yields uncapped unless
	// probes are backing off.
	for _, c := range []struct {
		lastBusy, queued, procs, n int
		probe, paused, fresh       bool
		yields                     int
		capped, probed             bool
	}{
		{lastBusy: 1, procs: 1, n: 32 << 10, capped: true},
		{lastBusy: 4, procs: 1, n: 32 << 10, yields: maxYields, capped: true},
		{lastBusy: 4, procs: 2, n: 32 << 10, yields: maxYields},
		{lastBusy: 1, queued: 1, procs: 1, n: 1 << 10, yields: maxYields, capped: true},
		{lastBusy: 1, procs: 1, n: 32 << 10, probe: true, yields: maxYields, probed: true},
		{lastBusy: 1, procs: 1, n: 32 << 10, probe: true, paused: true, capped: true},
		{lastBusy: 1, procs: 1, n: 32 << 10, probe: true, paused: true, fresh: true, yields: 2, probed: true},
		{lastBusy: 1, procs: 2, n: 32 << 10, probe: true, yields: maxYields},
	} {
		s.lastBusy, s.queued = c.lastBusy, c.queued
		s.probeAfter.Store(0)
		if c.paused {
			s.probeAfter.Store(int64(time.Since(s.epoch) + time.Hour))
		}
		y, capped, probed := s.companyYields(c.procs, c.n, c.probe, c.fresh)
		if y != c.yields || capped != c.capped || probed != c.probed {
			t.Errorf("%+v: companyYields = %d, %v, %v", c, y, capped, probed)
		}
	}
	s.lastBusy, s.queued = 1, 0

	// mayAwait: only after a switch of writers, recent; while a pause
	// lasts, it lets awaitSkips chances go between reads of the clock.
	s.switched, s.rounds, s.lastSwitch, s.awaitSkip, s.awaitAfter = false, 10, 9, 0, 0
	if ok, _ := s.mayAwait(); ok {
		t.Error("a wait with no switch of writers yet")
	}
	s.switched = true
	if ok, skip := s.mayAwait(); !ok || skip != 0 {
		t.Errorf("no wait after a recent switch: %v, %d", ok, skip)
	}
	s.rounds = s.lastSwitch + awaitRecentRounds + 1
	if ok, _ := s.mayAwait(); ok {
		t.Error("a wait long after the last switch")
	}
	s.rounds, s.awaitAfter = s.lastSwitch+1, time.Since(s.epoch)+time.Hour
	if ok, skip := s.mayAwait(); ok || skip != awaitSkips {
		t.Errorf("during a pause: %v, %d, want false, %d", ok, skip, awaitSkips)
	}
	s.awaitSkip = 3
	if ok, skip := s.mayAwait(); ok || skip != 2 {
		t.Errorf("skipping: %v, %d, want false, 2", ok, skip)
	}

	// probesPaused: no pause, no clock; during one, the clock is read
	// once every awaitSkips probes, so a pause that has ended is seen
	// within awaitSkips probes.
	s.probeAfter.Store(0)
	s.probeSkip.Store(5)
	if s.probesPaused() || s.probeSkip.Load() != 5 {
		t.Error("paused, or a skip counted, with no backoff on")
	}
	s.probeSkip.Store(0)
	s.probeAfter.Store(int64(time.Since(s.epoch) + time.Hour))
	if !s.probesPaused() || s.probeSkip.Load() != awaitSkips {
		t.Errorf("a probe during a pause: skips %d, want %d", s.probeSkip.Load(), awaitSkips)
	}
	s.probeAfter.Store(1) // ended long ago: only the clock can tell
	for i := range awaitSkips {
		if !s.probesPaused() {
			t.Fatalf("probe %d after the clock's read: not paused, so the clock was read again", i+1)
		}
	}
	if s.probesPaused() || s.probeSkip.Load() != 0 {
		t.Errorf("after %d skips: still paused (skips %d)", awaitSkips, s.probeSkip.Load())
	}
	s.probeAfter.Store(0)

	// awaitsCompany: alone, at one P, with a long enough write.
	for _, c := range []struct {
		procs, busy, n int
		want           bool
	}{{1, 1, awaitMinBytes, true}, {1, 1, awaitMinBytes - 1, false}, {2, 1, awaitMinBytes, false}, {1, 2, awaitMinBytes, false}} {
		if got := awaitsCompany(c.procs, c.busy, c.n); got != c.want {
			t.Errorf("awaitsCompany(%d, %d, %d) = %v", c.procs, c.busy, c.n, got)
		}
	}

	// offloadKeep: not while anything is queued or every P combines.
	c := &combiner[sha256k.State]{busy: 16}
	s.queued, s.combiners = 1, 1
	if _, ok := s.offloadKeep(c, 2); ok {
		t.Error("an offload with requests queued")
	}
	s.queued, s.combiners = 0, 2
	if _, ok := s.offloadKeep(c, 2); ok {
		t.Error("an offload with every P combining")
	}
}

// TestAwaitBackoffBoundsAloneStream follows the waits a truly alone
// stream makes, each costing what a sleep with nothing runnable costs at
// one P (about a millisecond), on a simulated clock: the pauses after
// them must keep the waits' share of the stream's time small from the
// start, not only once the pauses reach maxAwaitPause. A report's lone
// stream of about 100 ms read 0.93-0.95x the standard library after
// other streams had written, from seven waits where the pauses doubled
// from 1 ms (docs/engine.md, "The floor"). A single miss among waits that
// bring company pauses for minAwaitPause only.
func TestAwaitBackoffBoundsAloneStream(t *testing.T) {
	epoch := time.Now()
	const waitCost = 1100 * time.Microsecond
	for _, span := range []time.Duration{50 * time.Millisecond, 110 * time.Millisecond, time.Second, 10 * time.Second} {
		var (
			now, after, pause, lost time.Duration
			waits                   int
		)
		for now < span {
			if now >= after { // a wait that brings nobody
				waits++
				lost += waitCost
				now += waitCost
				var real time.Duration // backoff's end of the pause, on the real clock
				pause = backoff(&real, pause, true, waitCost, epoch)
				after = now + pause
				continue
			}
			now += 100 * time.Microsecond // hashing between the chances to wait
		}
		share := float64(lost) / float64(now)
		t.Logf("%v alone: %d waits, %.1f%% of the time", span, waits, 100*share)
		if limit := 0.045; span >= 100*time.Millisecond && share > limit {
			t.Errorf("%v alone: %d waits took %.1f%% of the time, want at most %.1f%%", span, waits, 100*share, 100*limit)
		}
	}

	var after time.Duration
	if p := backoff(&after, 0, true, waitCost, epoch); p != minAwaitPause {
		t.Errorf("a first miss paused %v, want %v", p, minAwaitPause)
	}
	if p := backoff(&after, minAwaitPause, true, waitCost, epoch); p < awaitCostShare*waitCost {
		t.Errorf("a second miss in a row paused %v, want at least %v", p, awaitCostShare*waitCost)
	}
	if p := backoff(&after, maxAwaitPause, true, time.Second, epoch); p != maxAwaitPause {
		t.Errorf("a miss after the longest pause paused %v, want %v", p, maxAwaitPause)
	}
	if p := backoff(&after, 64*time.Millisecond, false, waitCost, epoch); p != 0 {
		t.Errorf("a wait that found company left a pause of %v", p)
	}
}
