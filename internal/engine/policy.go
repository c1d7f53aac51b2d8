package engine

// The combiner's policy: how many lanes it fills and yields for, when a
// lone one waits for company, which kernel a round runs and for how many
// blocks, and when it hands streams to another P. These are decisions on
// the server's state, taken with s.mu held: none locks, parks, wakes or
// counts statistics. server.go has the mechanism that carries them out
// (the queue, the lanes, the rounds, the yields and waits); the
// measurements behind the rules are in docs/engine.md.

import (
	"runtime"
	"time"

	"github.com/hashlanes/hashlanes/internal/kernel"
)

// awaitTimeout bounds a lone combiner's wait for writers the scheduler has
// not seen yet; a writer that queues ends it at once. When nothing at all
// is runnable the runtime sleeps in whole milliseconds, so a wait that
// brings nobody can last up to 1 ms; after one, awaitCompany pauses,
// longer after each (from minAwaitPause to maxAwaitPause). From the second
// wait in a row that brings nobody the pause is at least awaitCostShare
// times as long as that wait took, so that a stream that is truly alone
// loses a few waits at its start and then at most about 1/awaitCostShare
// of its time, not a millisecond in every two, four, eight (docs/engine.md,
// "The floor"); a single miss among waits that bring company (two uploads
// at one P) pauses for minAwaitPause only.
const (
	awaitTimeout   = 50 * time.Microsecond
	minAwaitPause  = time.Millisecond
	maxAwaitPause  = 256 * time.Millisecond
	awaitCostShare = 64
	// awaitRecentRounds is how recently, in rounds, another stream must
	// have queued for a wait to be worth trying.
	awaitRecentRounds = 4096
	// awaitSkips is how many chances a combiner lets go, while a pause
	// lasts, before it reads the clock again: a clock read every round
	// was a measurable share of a lone small message.
	awaitSkips = 16
	// awaitMinBytes is the least a lone combiner must have left to hash
	// for a wait to be worth it: the wait is idle time that the writer's
	// caller (a request, say) waits through, and a short write gains
	// little from company.
	awaitMinBytes = 16 << 10
)

// mayHaveCompany reports whether another goroutine could write to the
// server while this one combines: the evidence every wait and probe needs.
// With no other goroutine in the process (a program hashing a file, or
// inputs one after another, in main) nobody can come, whatever the
// server has seen.
func mayHaveCompany() bool { return runtime.NumGoroutine() > 1 }

// alone reports whether a write of n bytes (a first one if probe) would
// run by itself on the single-stream kernel if it went through a combine:
// no writer is queued or combining, the latest rounds had no company, a
// probe is backing off, the write is too short to wait for company
// (awaitMinBytes) and the choice for one stream is the single-stream
// kernel. Such a write hashes at once, without the lock and the combine
// (docs/engine.md, "Writes alone"). It reads only atomics, so it may be
// stale by a write: a write of another stream that enters meanwhile runs
// as it would have, and the two miss one round of each other's company.
func (s *Server[S]) alone(n int, probe bool) bool {
	if n >= awaitMinBytes || !s.quiet.Load() {
		return false
	}
	if probe && mayHaveCompany() && !s.probesPaused() {
		return false
	}
	if s.loneIsSingle() {
		return true
	}
	k, _ := s.choice().Pick(1, true)
	return k < 0
}

// loneIsSingle reports whether one stream's kernel is the single-stream
// one before the server has made its chooser (and without making it):
// while the source has read no rates, as the chooser would answer
// (tuning.Source.LoneIsSingle). A process that hashes one stream never
// makes one.
func (s *Server[S]) loneIsSingle() bool {
	return s.chooser.Load() == nil && s.src.LoneIsSingle()
}

// probesPaused reports whether probes are backing off now. While a pause
// lasts the clock is read only every awaitSkips probes, as in mayAwait:
// every new hasher's first write long enough for the lanes probes, and a
// clock read was a measurable share of a new hasher's short message
// (docs/engine.md, "Probes back off"). The count is kept with plain
// atomic loads and stores: writers racing on it lose a skip or two, which
// only moves the next read of the clock.
func (s *Server[S]) probesPaused() bool {
	after := s.probeAfter.Load()
	if after == 0 {
		return false
	}
	if k := s.probeSkip.Load(); k > 0 {
		s.probeSkip.Store(k - 1)
		return true
	}
	if int64(time.Since(s.epoch)) < after {
		s.probeSkip.Store(awaitSkips)
		return true
	}
	return false
}

// mayAwait reports whether a combiner alone at one P, after others queued
// lately, should wait for company now (see awaitCompany): only if a
// stream switched lately (a process's first writer is no switch), another
// goroutine could come, and no pause is on after a wait that found
// nobody. While a pause lasts the clock is read only every awaitSkips
// chances: it returns how many to let go before the next read.
func (s *Server[S]) mayAwait() (await bool, skip int) {
	if !s.switched || s.rounds-s.lastSwitch > awaitRecentRounds || !mayHaveCompany() {
		return false, s.awaitSkip
	}
	if s.awaitSkip > 0 {
		return false, s.awaitSkip - 1
	}
	if time.Since(s.epoch) < s.awaitAfter {
		return false, awaitSkips
	}
	return true, 0
}

// companyYields is how a round looks for company before it runs: yields
// (up to maxYields) only on a sign of company, the latest round had
// some, requests are queued, another combiner runs, or this is the
// hasher's first write (probe: a burst of new writers finds itself),
// since a yield hands the P to any runnable goroutine and a lone stream
// must not yield (docs/engine.md, "Yields"); capped, whether the yields
// stop at the streams the latest rounds held (gatherTarget); probed,
// whether the probe was the only reason to yield, so that its outcome
// sets the probes' backoff. n is the write's length; fresh, whether the
// probe is the first write of a stream other than the last writer's: while
// probes back off it still yields, twice, since a new stream beside an old
// one is the burst the backoff must not hide, and one yield can hand the P
// straight back (see gather; docs/engine.md, "Probes back off").
func (s *Server[S]) companyYields(procs, n int, probe, fresh bool) (yields int, capped, probed bool) {
	probe = probe && mayHaveCompany()
	if probe || s.lastBusy > 1 || s.queued > 0 || s.combiners > 1 {
		yields = maxYields
	}
	// Outside a probe, at one P, stop once the round holds as many
	// streams as came lately: their writers are back, and more yields
	// would find nobody. At several Ps a writer can wait for a P while
	// each P combines a stream of its own, and only a yield lets it in
	// (docs/engine.md, "The cap on yields at one P").
	capped = !probe && procs == 1
	// A probe that is the only sign of company backs off when probes
	// lately found nobody: at one P, and at several for a write too short
	// to wait for company, where each yield's wake-up of an idle P costs
	// more than company would save. At several Ps the writers of a longer
	// burst are often in this P's run queue, and only a yield lets them
	// in (docs/engine.md, "Probes back off").
	probed = probe && (procs == 1 || n < awaitMinBytes) && s.lastBusy <= 1 && s.queued == 0 && s.combiners == 1
	if probed && s.probesPaused() {
		if fresh {
			return 2, false, true
		}
		return 0, true, false
	}
	return yields, capped, probed
}

// awaitsCompany reports whether a combiner holding busy lanes (the one,
// if alone, with n bytes left) at procs Ps is the kind that waits for
// writers the scheduler has not seen yet: alone at one P with a write long
// enough (awaitMinBytes).
func awaitsCompany(procs, busy, n int) bool {
	return procs == 1 && busy == 1 && n >= awaitMinBytes
}

// backoff returns the next pause of a try that found nobody when missed
// (from minAwaitPause, doubling up to maxAwaitPause; after a pause, at
// least awaitCostShare times cost, what the try took) and sets *after to
// the end of it; a try that found company resets the pause.
func backoff(after *time.Duration, pause time.Duration, missed bool, cost time.Duration, epoch time.Time) time.Duration {
	if !missed {
		return 0
	}
	next := max(2*pause, minAwaitPause)
	if pause > 0 {
		next = max(next, awaitCostShare*cost)
	}
	pause = min(next, maxAwaitPause)
	*after = time.Since(epoch) + pause
	return pause
}

// maxYields bounds how long a combiner waits for company before a round.
const maxYields = 4

// sharedRoundBytes bounds the bytes of a multi-lane round's busiest lane
// when several Ps combine, so that a combiner holding more than its share
// of the streams sees another P run dry soon and hands the excess over
// (see offload) within a few kernel calls (docs/engine.md, "Shared rounds
// at several Ps").
const sharedRoundBytes = 16 << 10

// offloadGain is how much more two cores must move with a combiner's streams
// split between them, by the kernels' rates, for the split to be worth a
// hand-over: the cores run at unequal speeds and the writer taking the
// streams over has to be woken.
const offloadGain = 1.2

// maxSingleRound bounds a combiner's single-stream round: long enough that
// the yield between rounds, to look for company, costs a small share of
// it, and short enough that company is found soon (docs/engine.md, "The
// floor").
const maxSingleRound = 16 << 10

// plan picks the kernel for a round over c's busy lanes and returns it, the
// lanes it takes and the blocks per lane (see roundBlocks). For a hybrid
// kernel the requests with the most blocks left move to its fast lanes,
// which hash FastBlocks times as many; when even those are too short for
// one block of the others, a kernel of alike lanes runs the round.
func (s *Server[S]) plan(c *combiner[S], busy int, shared bool) (k, used, nb int) {
	switch {
	case busy >= 2:
		k, used = s.choice().Explore(busy)
	case s.loneIsSingle():
		k, used = -1, busy
	default:
		// A lone stream's rounds are not timed, so a try of another
		// kernel on one would only cost it (amd64x2 on one lane runs at
		// half the rate).
		k, used = s.choice().Pick(busy, true)
	}
	if k >= 0 && s.kern.Multi[k].Fast > 0 {
		c.longestFirst(min(s.kern.Multi[k].Fast, used), busy)
		if nb = s.roundBlocks(c, k, used, shared); nb > 0 {
			return k, used, nb
		}
		k, used = s.choice().Pick(busy, false)
	}
	return k, used, s.roundBlocks(c, k, used, shared)
}

// roundBlocks is the block count of a round on kernel k over lanes
// 0..used-1: the most that no lane runs out of (a fast lane needing
// FastBlocks of its own for each), bounded per call, and shorter when
// several Ps share the streams (shared). A single-stream round is kept
// short, so that streams arriving meanwhile soon get lanes instead of
// waiting behind it.
func (s *Server[S]) roundBlocks(c *combiner[S], k, used int, shared bool) int {
	bs := s.spec.BlockSize
	nb := kernel.MaxLaneBytes / bs
	switch {
	case k >= 0:
		nb = s.kern.Multi[k].MaxBlocks(bs)
		if shared {
			nb = max(1, nb/(kernel.MaxLaneBytes/sharedRoundBytes))
		}
	case s.lanes > 0:
		nb = maxSingleRound / bs
	}
	for i, r := range c.reqs[:used] {
		nb = min(nb, len(r.p)/bs/s.laneBlocks(k, i, 1))
	}
	return nb
}

// laneShare is how many lanes a combiner fills with procs Ps: with
// several, its share of the streams, never fewer than the narrowest
// kernel's lanes.
func (s *Server[S]) laneShare(procs int) int {
	if procs == 1 {
		return s.lanes
	}
	share := (s.inLanes + s.queued + procs - 1) / procs
	return min(s.lanes, max(s.kern.minLanes(), share))
}

// fullLength reports whether a round of nb blocks on kernel k is a
// multi-lane round of sharedRoundBytes a lane, the longest several Ps
// run: long enough that writers left waiting through it are worth a
// yield before it.
func (s *Server[S]) fullLength(k, nb int) bool {
	return k >= 0 && nb*s.spec.BlockSize >= sharedRoundBytes
}

// gatherTarget is how many lanes a combiner yields for before a round:
// its laneShare, and with capped no more than the latest rounds held (lastBusy,
// pairBusy). It is asked again after every yield, because at several Ps
// the limit is a share of the streams queued and in lanes, which grows as
// the writers the yield let run queue again (docs/engine.md, "The cap on
// yields at one P").
func (s *Server[S]) gatherTarget(procs int, capped bool) int {
	l := s.laneShare(procs)
	if capped {
		l = min(l, max(s.lastBusy, s.pairBusy, 1))
	}
	return l
}

// offloadKeep decides whether c hands the lanes beyond its share back to
// the queue, for another P to combine, and how many it keeps: when a P is
// free to (fewer combiners than Ps, nothing queued) and two cores would
// move enough more than this one alone (offloadGain). This is the end of
// a batch at several Ps: one P's streams are done and its core would idle
// while the other P's streams, bound to their combiner, run to the end of
// their writes.
func (s *Server[S]) offloadKeep(c *combiner[S], procs int) (keep int, ok bool) {
	if s.queued > 0 || s.combiners >= procs {
		return 0, false
	}
	keep = s.laneShare(procs)
	n := c.busy
	if n <= keep || s.choice().Rate(keep)+s.choice().Rate(n-keep) < offloadGain*s.choice().Rate(n) {
		return 0, false
	}
	return keep, true
}

// payingCompany is how many streams of a round of busy count as company
// (lastBusy, and a probe's outcome): busy where meeting pays, else 1.
// Meeting pays where the choice for busy ready streams is a multi-lane
// kernel and its rounds save, on the bytes the streams hold together
// (shared a lane), more than meeting costs them (companyCost a stream).
// Streams that would run one after another anyway, or whose writes are
// too short for a lane kernel's small gain to cover the yields, parks and
// wake-ups that gathered them, gain nothing from meeting, and gathering
// them again would cost their writers time (docs/engine.md, "Company
// that does not pay").
func (s *Server[S]) payingCompany(busy, shared int) int {
	if busy <= 1 {
		return busy
	}
	if k, _ := s.choice().Pick(busy, true); k < 0 {
		return 1
	}
	shared = min(shared, kernel.MaxLaneBytes)
	bytes := float64(busy * shared) // MB/s is bytes a µs
	saved := bytes/s.choice().Rate(1) - bytes/s.choice().Rate(busy)
	if saved < float64(busy)*companyCost.Seconds()*1e6 {
		return 1
	}
	return busy
}

// companyCost is what a stream pays to meet others in a round at one P: a
// writer's yields, its park and wake-up and its share of the round's
// bookkeeping. Two uploads at once in 8 KiB writes on an Emerald Rapids
// Xeon bracket it: by the goldencove prior's rates SHA-1's two SHA-NI
// streams save 0.7 µs a round of two writes, and lost about 10% to
// meeting; SHA-512's two lanes save 1.4 µs, and gained 7-28%
// (docs/engine.md, "Company that does not pay").
const companyCost = 500 * time.Nanosecond

// sharedBytes is what each of c's busy lanes holds at least: the bytes
// the streams can hash together.
func (c *combiner[S]) sharedBytes() int {
	if c.busy == 0 {
		return 0
	}
	n := len(c.reqs[0].p)
	for _, r := range c.reqs[1:c.busy] {
		n = min(n, len(r.p))
	}
	return n
}
