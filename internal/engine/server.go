package engine

import (
	"runtime"
	"sync"
	"sync/atomic"
	"time"
	"unsafe"

	"github.com/hashlanes/hashlanes/internal/kernel"
	"github.com/hashlanes/hashlanes/internal/tuning"
)

// minLaneBlocks is the smallest request worth a place in the lanes: below
// it, the lock, the yield and the wake-up cost more than hashing the blocks
// on the single-stream kernel at once.
const minLaneBlocks = 16

// Server packs the whole blocks that concurrent writers hand it into lanes
// by flat combining: a writer queues its blocks and, if fewer combiners are
// running than there are Ps, becomes one itself. A combiner fills free lanes
// from the queue, briefly yields when there is a sign of company so that
// writers who are runnable can queue too (at several Ps also once after
// waking writers, before a full-length round), runs one kernel call (at most
// kernel.MaxLaneBytes per lane) with the mutex released, retires the lanes
// whose blocks are done, and repeats until its own blocks are done; with
// several Ps it runs shorter rounds and hands back the streams beyond its
// share when another P could take them (shed). Nothing runs between
// writes: no goroutine, no timer, no registry of hashers, so a dropped
// hasher is simply garbage.
type Server[S any] struct {
	spec   *Spec[S]
	kern   Kernels[S]
	choice *tuning.Chooser
	lanes  int // 0 when there is no multi-lane kernel

	mu        sync.Mutex
	head      *request[S] // queue of requests waiting for a lane
	tail      *request[S]
	combiners int
	queued    int // requests in the queue
	inLanes   int // requests in some combiner's lanes
	lastBusy  int // company seen lately: streams in the latest round, fading by halves
	prevBusy  int // streams in the latest round
	pairBusy  int // streams in the latest two rounds, each once (see company)
	closed    atomic.Bool

	// Waiting for writers the scheduler has not seen yet (see awaitCompany).
	epoch        time.Time     // the times below are since it
	rounds       uint64        // rounds run, multi-lane and single-stream
	lastWriter   uintptr       // the request that queued last, as a number: no reference
	lastSwitch   uint64        // rounds when a request queued after another one's
	awaiting     *request[S]   // a combiner waiting for a writer to queue
	awaitAfter   time.Duration // no wait before this, after one that brought nobody
	awaitBackoff time.Duration // the pause after the latest wait that brought nobody
	awaitSkip    int           // chances let go before the clock is read again
	probeAfter   time.Duration // no probe before this, after probes that brought nobody
	probeBackoff time.Duration

	scratch sync.Pool // *combiner[S]
	batches sync.Pool // *batch[S]
	stats   struct {
		multiCalls, multiBlocks, multiCapacity, singleBlocks atomic.Uint64
		awaits, awaitsJoined                                 atomic.Uint64
	}

	batchCache atomic.Pointer[batchCached]
}

// batchCached is the batch kernels SumMany runs with the rates they were
// chosen by.
type batchCached struct {
	rates *tuning.Rates
	set   []kernel.Batch
}

// Stats counts the work a Server did, to see how full its lanes run:
// MultiBlocks/MultiCapacity is the share of the multi-lane kernels' time
// spent on lanes in use.
type Stats struct {
	MultiCalls    uint64 // multi-lane kernel calls
	MultiBlocks   uint64 // blocks hashed by them, summed over lanes
	MultiCapacity uint64 // blocks they would have hashed with every lane in use
	SingleBlocks  uint64 // blocks hashed by the single-stream kernel
	Tries         uint64 // rounds that ran a close runner-up to check its rate
	Awaits        uint64 // times a lone combiner waited for writers not yet runnable
	AwaitsJoined  uint64 // those after which a writer had queued
}

// Stats returns the counters so far.
func (s *Server[S]) Stats() Stats {
	return Stats{
		MultiCalls:    s.stats.multiCalls.Load(),
		MultiBlocks:   s.stats.multiBlocks.Load(),
		MultiCapacity: s.stats.multiCapacity.Load(),
		SingleBlocks:  s.stats.singleBlocks.Load(),
		Tries:         s.tries(),
		Awaits:        s.stats.awaits.Load(),
		AwaitsJoined:  s.stats.awaitsJoined.Load(),
	}
}

func (s *Server[S]) tries() uint64 {
	s.mu.Lock()
	defer s.mu.Unlock()
	return s.choice.Tries()
}

// request is one Write's whole blocks while they wait for, or sit in, a
// lane. It lives in the Hasher, so queuing allocates nothing.
type request[S any] struct {
	state  *S
	p      []byte // blocks still to hash
	next   *request[S]
	wake   chan struct{}
	queued bool // in the queue, not in a lane
	done   bool
	probed bool   // the hasher has looked for company since it was made or Reset
	round  uint64 // the latest round its stream was in lanes for (Server.rounds after it)
}

// combiner is the scratch a combining writer needs; pooled because a
// kernel called through a function value makes its arguments escape.
type combiner[S any] struct {
	reqs   [kernel.MaxLanes]*request[S]
	states [kernel.MaxLanes]*S
	ptrs   [kernel.MaxLanes]*byte

	// The channels of writers to be woken: those whose requests are done,
	// and a queued one's whose writer is to combine. Waking one can cost
	// a futex call (the runtime wakes an idle P to run it), so it waits
	// until s.mu is released: with the wakes under the lock, the other P's
	// combiner parked on s.mu 28-54 times an iteration of 32 SHA-1 and
	// SHA-512 streams at two Ps, 5-7 times without. The channel is read
	// under s.mu, where its writer makes it. A late token is safe: a
	// writer checks its request under s.mu and waits again if there is
	// nothing for it to do.
	toWake  [kernel.MaxLanes + 1]chan struct{}
	nToWake int

	await *time.Timer // bounds awaitCompany

	// wokeAtExit: the combine that last used this scratch woke writers as
	// it left, after a full-length round. The pool hands a scratch back
	// to the same P as a rule, and the writers wait in that P's queue, so
	// the next combine here yields for them before its own first
	// full-length round, as for writers it woke itself (see combine).
	wokeAtExit bool
}

// wakeLater has r's writer woken at the next wakeAll; s.mu is held.
// Between two, at most MaxLanes+1 wait: one round's lanes and the
// queue's head. A writer without a channel has never waited, and is not
// waiting: it makes one, under s.mu, before it first does.
func (c *combiner[S]) wakeLater(r *request[S]) {
	if r.wake == nil {
		return
	}
	c.toWake[c.nToWake] = r.wake
	c.nToWake++
}

// wakeAll wakes the writers wakeLater named. s.mu is not held.
func (c *combiner[S]) wakeAll() {
	for i := range c.nToWake {
		signal(c.toWake[i])
		c.toWake[i] = nil
	}
	c.nToWake = 0
}

// NewServer returns a Server for spec running the given kernels, chosen
// round by round by the rates of src.
func NewServer[S any](spec *Spec[S], k Kernels[S], src tuning.Source) *Server[S] {
	s := &Server[S]{spec: spec, kern: k, lanes: k.maxLanes(), epoch: time.Now()}
	single, multi := k.describe()
	s.choice = tuning.NewChooser(src, single, multi)
	s.scratch.New = func() any { return new(combiner[S]) }
	s.batches.New = func() any { return new(batch[S]) }
	return s
}

// Kernels returns the kernels the server runs.
func (s *Server[S]) Kernels() Kernels[S] { return s.kern }

// Choice returns the tuning that chooses the server's kernels.
func (s *Server[S]) Choice() *tuning.Chooser { return s.choice }

// Batches returns the batch kernels SumMany runs by the current rates.
func (s *Server[S]) Batches() []kernel.Batch { return s.batchSet() }

// batchSet is the batch kernels SumMany runs by the current rates.
func (s *Server[S]) batchSet() []kernel.Batch {
	r := s.choice.Rates()
	if c := s.batchCache.Load(); c != nil && c.rates == r {
		return c.set
	}
	c := &batchCached{rates: r, set: batchSet(s.kern.Batch, r)}
	s.batchCache.Store(c)
	return c.set
}

// Close stops packing streams into lanes: hashers keep working, each on the
// single-stream kernel. Closing twice is harmless.
func (s *Server[S]) Close() error {
	s.closed.Store(true)
	return nil
}

// blocks hashes p, a whole number of blocks, into r.state.
func (s *Server[S]) blocks(r *request[S], p []byte) {
	if s.lanes == 0 || len(p) < minLaneBlocks*s.spec.BlockSize || s.closed.Load() {
		s.single(r.state, p)
		return
	}
	r.p, r.done = p, false
	probe := !r.probed
	r.probed = true
	procs := runtime.GOMAXPROCS(0)
	s.mu.Lock()
	s.push(r)
	if id := uintptr(unsafe.Pointer(r)); id != s.lastWriter {
		s.lastWriter, s.lastSwitch = id, s.rounds
	}
	if a := s.awaiting; a != nil {
		s.awaiting = nil
		signal(a.wake) // made before it waited
	}
	for !r.done {
		if r.queued && s.combiners < procs {
			s.combine(r, procs, probe) // releases s.mu
			r.p = nil
			return
		}
		if r.wake == nil { // made when first needed: a lone stream never waits
			r.wake = make(chan struct{}, 1)
		}
		s.mu.Unlock()
		<-r.wake
		s.mu.Lock()
	}
	s.mu.Unlock()
	r.p = nil // keep no reference to the caller's buffer
}

// round hashes nb blocks in lanes 0..used-1 (a hybrid kernel's fast lanes
// their multiple of them), from ptrs[i] into *states[i], on multi-lane
// kernel k, or for k < 0 on the single-stream kernel, one lane after
// another.
func (s *Server[S]) round(k, used, nb int, states *[kernel.MaxLanes]*S, ptrs *[kernel.MaxLanes]*byte) {
	if k >= 0 {
		m := &s.kern.Multi[k]
		m.Fn(states, ptrs, uint32(1)<<used-1, nb)
		s.stats.multiCalls.Add(1)
		s.stats.multiBlocks.Add(uint64(m.Blocks(used, nb)))
		s.stats.multiCapacity.Add(uint64(m.Blocks(m.Lanes, nb)))
		return
	}
	for i := range used {
		s.single(states[i], unsafe.Slice(ptrs[i], nb*s.spec.BlockSize))
	}
}

// roundBytes is what a round of nb blocks on kernel k over lanes
// 0..used-1 hashes.
func (s *Server[S]) roundBytes(k, used, nb int) int {
	if k < 0 {
		return used * nb * s.spec.BlockSize
	}
	return s.kern.Multi[k].Blocks(used, nb) * s.spec.BlockSize
}

// laneBlocks is the blocks lane i hashes in a round of nb blocks on kernel
// k: nb but for a hybrid kernel's fast lanes.
func (s *Server[S]) laneBlocks(k, i, nb int) int {
	if k < 0 {
		return nb
	}
	return s.kern.Multi[k].LaneBlocks(i, nb)
}

// single hashes p on the single-stream kernel in bounded calls, so that the
// goroutine stays preemptible.
func (s *Server[S]) single(st *S, p []byte) {
	s.stats.singleBlocks.Add(uint64(len(p) / s.spec.BlockSize))
	for len(p) > 0 {
		n := min(len(p), kernel.MaxLaneBytes)
		s.kern.Single.Fn(st, p[:n])
		p = p[n:]
	}
}

func (s *Server[S]) push(r *request[S]) {
	s.queued++
	r.queued, r.next = true, nil
	if s.tail == nil {
		s.head = r
	} else {
		s.tail.next = r
	}
	s.tail = r
}

func (s *Server[S]) pushFront(r *request[S]) {
	s.queued++
	r.queued, r.next = true, s.head
	s.head = r
	if s.tail == nil {
		s.tail = r
	}
}

func (s *Server[S]) pop() *request[S] {
	r := s.head
	if r != nil {
		s.queued--
		s.head = r.next
		if s.head == nil {
			s.tail = nil
		}
		r.next, r.queued = nil, false
	}
	return r
}

// signal leaves a wake-up token in a writer's channel.
func signal(ch chan struct{}) {
	select {
	case ch <- struct{}{}:
	default: // a token is already waiting
	}
}

// awaitTimeout bounds a lone combiner's wait for writers the scheduler has
// not seen yet. When nothing at all is runnable the runtime sleeps in
// whole milliseconds, so a wait that brings nobody can last up to 1 ms, of
// idle time; after one, awaitCompany pauses, longer after each (from
// minAwaitPause to maxAwaitPause), so that a stream that is truly alone
// loses at most 1 ms in maxAwaitPause.
const (
	awaitTimeout  = 50 * time.Microsecond
	minAwaitPause = time.Millisecond
	maxAwaitPause = 256 * time.Millisecond
	// awaitRecentRounds is how recently, in rounds, another stream must
	// have queued for a wait to be worth trying: a stream that has
	// always been alone never waits.
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
	if s.rounds-s.lastSwitch > awaitRecentRounds {
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
// yields for company (see enough) yields for these: at one P, a round
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
// (see shed): 16 KiB on 16 lanes is about 40 µs of SHA-1 (docs/engine.md,
// "Shared rounds at several Ps").
const sharedRoundBytes = 16 << 10

// shedGain is how much more two cores must move with a combiner's streams
// split between them, by the kernels' rates, for the split to be worth a
// hand-over: the cores run at unequal speeds and the writer taking the
// streams over has to be woken.
const shedGain = 1.2

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
	k, used = s.choice.Explore(busy)
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

// limit is how many lanes a combiner fills with procs Ps: with several,
// its share of the streams, never fewer than the narrowest kernel's lanes.
func (s *Server[S]) limit(procs int) int {
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

// enough is how many lanes a combiner yields for before a round: its
// limit, and with capped no more than the latest rounds held (lastBusy,
// pairBusy). It is asked again after every yield, because at several Ps
// the limit is a share of the streams queued and in lanes, which grows as
// the writers the yield let run queue again (docs/engine.md, "The cap on
// yields at one P").
func (s *Server[S]) enough(procs int, capped bool) int {
	l := s.limit(procs)
	if capped {
		l = min(l, max(s.lastBusy, s.pairBusy, 1))
	}
	return l
}

// shed hands the lanes beyond c's share back to the queue, in front, and
// has the first of them woken to combine them on another P, when one is free
// to (fewer combiners than Ps, nothing queued) and two cores would move
// enough more than this one alone. This is the end of a batch at several
// Ps: one P's streams are done and its core would idle while the other
// P's streams, bound to their combiner, run to the end of their writes.
// me stays: its writer is the one combining.
func (s *Server[S]) shed(c *combiner[S], me *request[S], busy *int, procs int) {
	if s.queued > 0 || s.combiners >= procs {
		return
	}
	keep := s.limit(procs)
	n := *busy
	if n <= keep || s.choice.Rate(keep)+s.choice.Rate(n-keep) < shedGain*s.choice.Rate(n) {
		return
	}
	for i, r := range c.reqs[keep:n] {
		if r == me { // keep me in lanes 0..keep-1
			c.swapLanes(0, keep+i)
		}
	}
	s.handBack(c, keep, n)
	*busy = keep
	c.wakeLater(s.head)
}

// handBack returns lanes from..to-1 of c to the front of the queue, in
// their order, and clears them.
func (s *Server[S]) handBack(c *combiner[S], from, to int) {
	for i := to - 1; i >= from; i-- {
		s.inLanes--
		s.pushFront(c.reqs[i])
		c.reqs[i], c.states[i], c.ptrs[i] = nil, nil, nil
	}
}

// swapLanes exchanges lanes i and j.
func (c *combiner[S]) swapLanes(i, j int) {
	c.reqs[i], c.reqs[j] = c.reqs[j], c.reqs[i]
	c.states[i], c.states[j] = c.states[j], c.states[i]
	c.ptrs[i], c.ptrs[j] = c.ptrs[j], c.ptrs[i]
}

// longestFirst moves the n requests with the most bytes left among lanes
// 0..busy-1 to lanes 0..n-1.
func (c *combiner[S]) longestFirst(n, busy int) {
	for i := range n {
		j := i
		for l := i + 1; l < busy; l++ {
			if len(c.reqs[l].p) > len(c.reqs[j].p) {
				j = l
			}
		}
		c.swapLanes(i, j)
	}
}

// combine runs rounds until me is done. s.mu is held on entry and
// released on return.
// Lanes are kept dense: the busy ones are c.reqs[:busy].
//
// With several Ps each combiner takes only its share of the streams, never
// fewer than the narrowest kernel's lanes: 32 streams on 2 Ps run as two
// 16-lane rounds on two cores, not one 32-lane round on one.
func (s *Server[S]) combine(me *request[S], procs int, probe bool) {
	s.combiners++
	c := s.scratch.Get().(*combiner[S])
	busy := 0
	bs := s.spec.BlockSize
	fill := func() {
		for l := s.limit(procs); busy < l && s.head != nil; {
			r := s.pop()
			c.reqs[busy], c.states[busy], c.ptrs[busy] = r, r.state, &r.p[0]
			busy++
			s.inLanes++
		}
	}
	// gather yields up to n times while the lanes hold fewer than want()
	// streams, filling them from the queue after each.
	// It stops after two yields in a row bring nobody: once in 61 schedules
	// the Go scheduler serves its global queue first, so a goroutine that
	// yields can be picked again ahead of the writers it yielded to.
	gather := func(n int, want func() int) {
		for y, idle := 0, 0; busy < want() && y < n && idle < 2; y++ {
			before := busy
			s.mu.Unlock()
			c.wakeAll()
			runtime.Gosched()
			s.mu.Lock()
			fill()
			if busy == before {
				idle++
			} else {
				idle = 0
			}
		}
	}
	long := false // the latest round was full-length
	for !me.done {
		s.shed(c, me, &busy, procs)
		fill()
		// Writers that are runnable get a chance to join this round, more
		// while they keep arriving, but only on a sign of company: the latest
		// round had some, requests are queued, another combiner runs, or
		// this is the hasher's first write (a probe: a burst of new writers
		// finds itself). A yield hands the P to any runnable goroutine, so a
		// lone stream does not yield (docs/engine.md, "Yields").
		yields := 0
		if probe || s.lastBusy > 1 || s.queued > 0 || s.combiners > 1 {
			yields = maxYields
		}
		// Outside a probe, at one P, stop once the round holds as many
		// streams as came lately: their writers are back, and more yields
		// would find nobody. At several Ps a writer can wait for a P while
		// each P combines a stream of its own, and only a yield lets it in
		// (docs/engine.md, "The cap on yields at one P").
		capped := !probe && procs == 1
		// At one P, a probe that is the only sign of company backs off
		// when probes lately found nobody (docs/engine.md, "Probes").
		probed := probe && procs == 1 && s.lastBusy <= 1 && s.queued == 0 && s.combiners == 1
		if probed && s.probeBackoff > 0 && time.Since(s.epoch) < s.probeAfter {
			yields, probed, capped = 0, false, true
		}
		probe = false
		gather(yields, func() int { return s.enough(procs, capped) })
		if probed { // the probe was the only reason to yield
			s.probeBackoff = backoff(&s.probeAfter, s.probeBackoff, busy == 1, s.epoch)
		}
		// Alone at one P, after others queued lately: their writers may be
		// waiting for the scheduler to poll the network.
		if procs == 1 && busy == 1 && len(c.reqs[0].p) >= awaitMinBytes && s.awaitCompany(c, me) {
			fill()
			// The others the poll made runnable queue as they run.
			gather(maxYields, func() int { return s.lanes })
		}
		// Company fades by halves, not at once: an unlucky round alone
		// (below) must not end the sharing.
		s.lastBusy = max(busy, s.lastBusy/2)
		s.pairBusy = s.company(c, busy)
		if busy >= 2 && s.choice.Pending() {
			// The first choice to make: the tuning measures the kernels,
			// once, the lock released, the writers that were woken let go.
			s.mu.Unlock()
			c.wakeAll()
			s.choice.Prepare(busy)
			s.mu.Lock()
			fill()
		}
		k, used, nb := s.plan(c, busy, procs > 1)
		if procs > 1 && (c.nToWake > 0 || c.wokeAtExit) && s.fullLength(k, nb) {
			c.wokeAtExit = false
			// A writer woken here (or as the previous combine on this P
			// left) waits on this P until the kernel call returns, while
			// another P's combiner may be yielding for it: before a
			// full-length round, yield once so the writers queue first
			// (docs/engine.md, "The yield before a full-length round").
			s.mu.Unlock()
			c.wakeAll()
			runtime.Gosched()
			s.mu.Lock()
			fill()
			k, used, nb = s.plan(c, busy, procs > 1)
		}
		long = s.fullLength(k, nb)
		s.rounds++
		s.mu.Unlock()
		c.wakeAll()
		// Rounds with a choice are timed, to keep the rates the choice
		// is made by current; a lone stream's are not, nor rounds shorter
		// than the measurement's calls, whose rates are mostly the call's
		// own cost (docs/engine.md, "Timed rounds").
		timed := busy >= 2 && nb*bs >= tuning.QuickMeasure.LaneBytes
		var start time.Time
		if timed {
			start = time.Now()
		}
		s.round(k, used, nb, &c.states, &c.ptrs)
		var took time.Duration
		if timed {
			took = time.Since(start)
		}
		s.mu.Lock()
		if timed {
			s.choice.Observe(k, used, s.roundBytes(k, used, nb), took.Nanoseconds())
		}
		for i := used - 1; i >= 0; i-- { // backwards, so a moved lane is one already advanced
			r := c.reqs[i]
			r.p = r.p[s.laneBlocks(k, i, nb)*bs:]
			if len(r.p) > 0 {
				c.ptrs[i] = &r.p[0]
				continue
			}
			r.done = true
			if r != me {
				c.wakeLater(r)
			}
			busy--
			s.inLanes--
			c.reqs[i], c.states[i], c.ptrs[i] = c.reqs[busy], c.states[busy], c.ptrs[busy]
			c.reqs[busy], c.states[busy], c.ptrs[busy] = nil, nil, nil
		}
	}
	s.handBack(c, 0, busy) // the lanes still in use
	s.combiners--
	if s.head != nil {
		c.wakeLater(s.head) // its writer becomes the next combiner
	}
	s.mu.Unlock()
	c.wokeAtExit = c.nToWake > 0 && long
	c.wakeAll()
	s.scratch.Put(c)
}
