package engine

// The combiner's policy: how many lanes it fills and yields for, when a
// lone one waits for company, which kernel a round runs and for how many
// blocks, and when it hands streams to another P. server.go has the
// mechanism that carries it out (the queue, the lanes, the rounds); the
// measurements behind the rules are in docs/engine.md.

import (
	"runtime"
	"sync/atomic"
	"time"

	"github.com/hashlanes/hashlanes/internal/kernel"
)

// awaitTimeout bounds a lone combiner's wait for writers the scheduler has
// not seen yet; a writer that queues ends it at once. When nothing at all
// is runnable the runtime sleeps in whole milliseconds, so a wait that
// brings nobody can last up to 1 ms; after one, awaitCompany pauses,
// longer after each (from minAwaitPause to maxAwaitPause), so that a
// stream that is truly alone loses at most 1 ms in maxAwaitPause.
const (
	awaitTimeout  = 50 * time.Microsecond
	minAwaitPause = time.Millisecond
	maxAwaitPause = 256 * time.Millisecond
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
	k, _ := s.choice.Pick(1, true)
	return k < 0
}

// probesPaused reports whether probes are backing off now.
func (s *Server[S]) probesPaused() bool {
	return int64(time.Since(s.epoch)) < s.probeAfter.Load()
}

// awaitCompany waits, with s.mu held and released meanwhile, until a writer
// queues or awaitTimeout passes, and reports whether one queued. It is for
// a combiner at one P that found itself alone although other streams queued
// lately. Their writers may not be runnable: a goroutine blocked on a
// socket becomes runnable when the scheduler polls the network, which it
// does when its P has nothing else to run, never on a Gosched (that runs
// the goroutines already queued, then the one that yielded). An upload
// handler whose socket always has data never blocks, so without the wait
// it hashes its whole body alone while the next upload's data waits
// (docs/figures.md, "An upload server"). Parking lets the scheduler poll;
// the first writer to queue wakes the combiner (see blocks), and the others
// the poll made runnable join in the yields that follow.
func (s *Server[S]) awaitCompany(c *combiner[S], me *request[S]) bool {
	if !s.switched || s.rounds-s.lastSwitch > awaitRecentRounds || !mayHaveCompany() {
		return false
	}
	if s.awaitSkip > 0 {
		s.awaitSkip--
		return false
	}
	if time.Since(s.epoch) < s.awaitAfter {
		s.awaitSkip = awaitSkips
		return false
	}
	// One waiting combiner in the process at a time: a writer that hashes
	// its data with two algorithms (an ETag and a payload hash) would
	// wait in one Server for the writer combining alone in the other, who
	// would wait for it in turn until both timed out, idle.
	if !awaitingAnywhere.CompareAndSwap(false, true) {
		return false
	}
	defer awaitingAnywhere.Store(false)
	if me.wake == nil {
		me.wake = make(chan struct{}, 1)
	}
	select {
	case <-me.wake: // a stale token would end the wait at once
	default:
	}
	s.awaiting = me
	s.stats.awaits.Add(1)
	c.prev = noKernel
	s.mu.Unlock()
	c.wakeAll()
	if c.await == nil {
		c.await = time.NewTimer(awaitTimeout)
	} else {
		c.await.Reset(awaitTimeout)
	}
	select {
	case <-me.wake:
	case <-c.await.C:
	}
	c.await.Stop()
	s.mu.Lock()
	if s.awaiting == me {
		s.awaiting = nil
	}
	joined := s.head != nil
	s.awaitBackoff = backoff(&s.awaitAfter, s.awaitBackoff, !joined, s.epoch)
	if joined {
		s.stats.awaitsJoined.Add(1)
	}
	return joined
}

// backoff returns the next pause of a try that found nobody when missed
// (from minAwaitPause, doubling up to maxAwaitPause) and sets *after to
// the end of it; a try that found company resets the pause.
func backoff(after *time.Duration, pause time.Duration, missed bool, epoch time.Time) time.Duration {
	if !missed {
		return 0
	}
	pause = min(max(2*pause, minAwaitPause), maxAwaitPause)
	*after = time.Since(epoch) + pause
	return pause
}

// company counts the streams of the latest two rounds, c's busy lanes
// being the next one's, each stream once, and stamps c's. A combiner that
// yields for company (see gatherTarget) yields for these: at one P, a round
// that starts with the first half of the streams that are back leaves the
// two halves out of step, and capped at the latest round's streams each
// half would gather only as many as came with it, so the split would
// last. It is not a sign of company by itself (lastBusy is): uploads that
// come one after another are two streams in two rounds, and must not
// yield for each other (docs/engine.md, "The cap on yields at one P").
func (s *Server[S]) company(c *combiner[S], busy int) int {
	again := 0 // streams of this round that were in the latest one
	for _, r := range c.reqs[:busy] {
		if r.round == s.rounds {
			again++
		}
		r.round = s.rounds + 1
	}
	n := busy + s.prevBusy - again
	s.prevBusy = busy
	return n
}

// awaitingAnywhere is set while a combiner of any Server waits in
// awaitCompany.
var awaitingAnywhere atomic.Bool

// maxYields bounds how long a combiner waits for company before a round.
const maxYields = 4

// sharedRoundBytes bounds the bytes of a multi-lane round's busiest lane
// when several Ps combine, so that a combiner holding more than its share
// of the streams sees another P run dry soon and hands the excess over
// (see offload): 16 KiB on 16 lanes is about 40 µs of SHA-1 (docs/engine.md,
// "Shared rounds at several Ps").
const sharedRoundBytes = 16 << 10

// offloadGain is how much more two cores must move with a combiner's streams
// split between them, by the kernels' rates, for the split to be worth a
// hand-over: the cores run at unequal speeds and the writer taking the
// streams over has to be woken.
const offloadGain = 1.2

// maxSingleRound bounds a combiner's single-stream round: 16 KiB is 20 µs
// of MD5 on one core, against one yield (well under 1 µs) to look for
// company before the next.
const maxSingleRound = 16 << 10

// plan picks the kernel for a round over c's busy lanes and returns it, the
// lanes it takes and the blocks per lane (see roundBlocks). For a hybrid
// kernel the requests with the most blocks left move to its fast lanes,
// which hash FastBlocks times as many; when even those are too short for
// one block of the others, a kernel of alike lanes runs the round.
func (s *Server[S]) plan(c *combiner[S], busy int, shared bool) (k, used, nb int) {
	if busy >= 2 {
		k, used = s.choice.Explore(busy)
	} else {
		// A lone stream's rounds are not timed, so a try of another
		// kernel on one would only cost it (amd64x2 on one lane runs at
		// half the rate).
		k, used = s.choice.Pick(busy, true)
	}
	if k >= 0 && s.kern.Multi[k].Fast > 0 {
		c.longestFirst(min(s.kern.Multi[k].Fast, used), busy)
		if nb = s.roundBlocks(c, k, used, shared); nb > 0 {
			return k, used, nb
		}
		k, used = s.choice.Pick(busy, false)
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

// offload hands the lanes beyond c's share back to the queue, in front, and
// has the first of them woken to combine them on another P, when one is free
// to (fewer combiners than Ps, nothing queued) and two cores would move
// enough more than this one alone. This is the end of a batch at several
// Ps: one P's streams are done and its core would idle while the other
// P's streams, bound to their combiner, run to the end of their writes.
// me stays: its writer is the one combining.
func (s *Server[S]) offload(c *combiner[S], me *request[S], procs int) {
	if s.queued > 0 || s.combiners >= procs {
		return
	}
	keep := s.laneShare(procs)
	n := c.busy
	if n <= keep || s.choice.Rate(keep)+s.choice.Rate(n-keep) < offloadGain*s.choice.Rate(n) {
		return
	}
	for i, r := range c.reqs[keep:n] {
		if r == me { // keep me in lanes 0..keep-1
			c.swapLanes(0, keep+i)
		}
	}
	s.handBack(c, keep, n)
	c.busy = keep
	c.wakeLater(s.head)
}
