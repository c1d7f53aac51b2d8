package engine

import (
	"math/bits"
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
// share when another P could take them (offload). A short write that
// would run alone on the single-stream kernel anyway skips all of it
// (alone). Nothing runs between writes: no goroutine, no timer, no
// registry of hashers, so a dropped hasher is simply garbage.
type Server[S any] struct {
	spec *kernel.Spec[S]
	kern Kernels[S]
	src  tuning.Source
	// The chooser, made on first use (choice): a lone stream's writes
	// need none before the source has begun (alone), and a fresh
	// process's first server need not describe its kernels to one
	// (docs/engine.md, "Start-up").
	chooser     atomic.Pointer[tuning.Chooser]
	chooserMade sync.Once
	lanes       int  // 0 when there is no multi-lane kernel
	front       bool // new streams start in a Front (servesFront)

	mu        sync.Mutex
	head      *request[S] // queue of requests waiting for a lane
	tail      *request[S]
	combiners int
	// procs is GOMAXPROCS as the latest combine read it (1 before the
	// first), by which a writer asks whether another combiner may start:
	// runtime.GOMAXPROCS takes the scheduler's lock, a cost every write
	// into the lanes paid, while a read a combine follows a change soon
	// enough (docs/figures.md, "Figures behind the code").
	procs    int
	queued   int // requests in the queue
	inLanes  int // requests in some combiner's lanes
	lastBusy int // company seen lately: streams in the latest round, fading by halves
	prevBusy int // streams in the latest round
	pairBusy int // streams in the latest two rounds, each once (see company)
	closed   atomic.Bool

	// Waiting for writers the scheduler has not seen yet (see awaitCompany).
	epoch        time.Time     // the times below are since it
	rounds       uint64        // rounds run, multi-lane and single-stream
	lastWriter   uintptr       // the request that queued last, as a number: no reference
	lastSwitch   uint64        // rounds when a request queued after another one's
	switched     bool          // one has: the start of a process is no switch
	awaiting     *request[S]   // a combiner waiting for a writer to queue
	awaitAfter   time.Duration // no wait before this, after one that brought nobody
	awaitBackoff time.Duration // the pause after the latest wait that brought nobody
	awaitSkip    int           // chances let go before the clock is read again
	probeBackoff time.Duration
	// probeAfter is the end of the pause while probes back off, after
	// probes that brought nobody (zero when they do not): no probe before
	// it. Atomic, as alone reads it without s.mu.
	probeAfter atomic.Int64
	probeSkip  atomic.Int32 // probes let go before the clock is read again

	// quiet is set, as s.mu's holders leave it, while no writer is queued
	// or combining and the latest rounds had no company: a write may skip
	// the lock (see alone).
	quiet atomic.Bool

	scratch sync.Pool // *combiner[S]
	batches sync.Pool // *batch[S]
	stats   struct {
		multiCalls, multiBlocks, multiCapacity atomic.Uint64
		awaits, awaitsJoined, yields           atomic.Uint64
		blocks                                 blockCounts
	}
}

// Stats counts the work a Server did, to see how full its lanes run:
// MultiBlocks/MultiCapacity is the share of the multi-lane kernels' time
// spent on lanes in use.
type Stats struct {
	MultiCalls    uint64 // multi-lane kernel calls
	MultiBlocks   uint64 // blocks hashed by them, summed over lanes
	MultiCapacity uint64 // blocks they would have hashed with every lane in use
	SingleBlocks  uint64 // blocks hashed by the single-stream kernel
	LoneBlocks    uint64 // those hashed in rounds that found one stream: no company to share lanes with
	Tries         uint64 // rounds that ran a close runner-up to check its rate
	Awaits        uint64 // times a lone combiner waited for writers not yet runnable
	AwaitsJoined  uint64 // those after which a writer had queued
	Yields        uint64 // times a combiner yielded its P for writers to queue
}

// Stats returns the counters so far.
func (s *Server[S]) Stats() Stats {
	return Stats{
		MultiCalls:    s.stats.multiCalls.Load(),
		MultiBlocks:   s.stats.multiBlocks.Load(),
		MultiCapacity: s.stats.multiCapacity.Load(),
		SingleBlocks:  s.stats.blocks.single(),
		LoneBlocks:    s.stats.blocks.lone(),
		Tries:         s.tries(),
		Awaits:        s.stats.awaits.Load(),
		AwaitsJoined:  s.stats.awaitsJoined.Load(),
		Yields:        s.stats.yields.Load(),
	}
}

func (s *Server[S]) tries() uint64 {
	c := s.chooser.Load()
	if c == nil {
		return 0 // no chooser yet: no round has had a choice
	}
	s.mu.Lock()
	defer s.mu.Unlock()
	return c.Tries()
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
	round  uint64 // the latest round its stream was in lanes for (Server.rounds after it)
}

// combiner is the scratch a combining writer needs; pooled because a
// kernel called through a function value makes its arguments escape.
type combiner[S any] struct {
	// The lanes, kept dense: the busy ones are reqs[:busy].
	reqs   [kernel.MaxLanes]*request[S]
	states [kernel.MaxLanes]*S
	ptrs   [kernel.MaxLanes]*byte
	busy   int

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

	// prev is the kernel of the round just before, with no yield or wait
	// since (-1 the single-stream kernel, noKernel none): only a round
	// that follows one on the same kernel is timed (see timedRound).
	prev int

	// settle: the tuning has something to do before the next round (see
	// tuning.Chooser.Due).
	settle bool
}

// noKernel is a combiner's prev when its next round follows no round.
const noKernel = -2

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
		Signal(c.toWake[i])
		c.toWake[i] = nil
	}
	c.nToWake = 0
}

// NewServer returns a Server for spec running the given kernels, chosen
// round by round by the rates of src.
func NewServer[S any](spec *kernel.Spec[S], k Kernels[S], src tuning.Source) *Server[S] {
	s := &Server[S]{spec: spec, kern: k, src: src, lanes: k.maxLanes(), procs: 1, epoch: time.Now()}
	s.front = s.servesFront()
	// No writer yet, and no company seen: quiet, so that a process's first
	// write, alone, skips the lock and the combine as later lone writes do
	// (the start of a process is no sign of company).
	s.quiet.Store(true)
	s.scratch.New = func() any { return new(combiner[S]) }
	s.batches.New = func() any { return new(batch[S]) }
	return s
}

// Kernels returns the kernels the server runs.
func (s *Server[S]) Kernels() Kernels[S] { return s.kern }

// Choice returns the tuning that chooses the server's kernels.
func (s *Server[S]) Choice() *tuning.Chooser { return s.choice() }

// choice returns the server's chooser, making it on first use.
func (s *Server[S]) choice() *tuning.Chooser {
	if c := s.chooser.Load(); c != nil {
		return c
	}
	s.chooserMade.Do(func() {
		single, multi := s.kern.describe()
		s.chooser.Store(tuning.NewChooser(s.src, single, multi))
	})
	return s.chooser.Load()
}

// Batches returns the batch kernels SumMany runs, as the tuning chooses
// them by the current rates.
func (s *Server[S]) Batches() []kernel.Batch { return s.choice().Batches(s.kern.Batch) }

// Close stops packing streams into lanes: hashers keep working, each on the
// single-stream kernel. Closing twice is harmless.
func (s *Server[S]) Close() error {
	s.closed.Store(true)
	return nil
}

// blocks hashes p, a whole number of blocks, into r.state. *probed is
// whether the stream has looked for company since it was made or Reset:
// its first write that could share lanes does (a probe).
func (s *Server[S]) blocks(r *request[S], p []byte, probed *atomic.Bool) {
	if s.lanes == 0 || len(p) < minLaneBlocks*s.spec.BlockSize || s.closed.Load() {
		s.single(r.state, p, false)
		return
	}
	probe := !probed.Load()
	setProbed(probed, true)
	if s.alone(len(p), probe) {
		s.single(r.state, p, true)
		return
	}
	r.p, r.done = p, false
	s.mu.Lock()
	if s.quiet.Load() {
		s.quiet.Store(false)
	}
	s.push(r)
	fresh := false // the first write of a stream other than the last writer's
	if id := uintptr(unsafe.Pointer(r)); id != s.lastWriter {
		fresh = probe && s.lastWriter != 0
		s.switched = s.switched || s.lastWriter != 0
		s.lastWriter, s.lastSwitch = id, s.rounds
	}
	if a := s.awaiting; a != nil {
		s.awaiting = nil
		Signal(a.wake) // made before it waited
	}
	for !r.done {
		if r.queued && s.combiners < s.procs {
			s.combine(r, probe, fresh) // releases s.mu
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
		s.single(states[i], unsafe.Slice(ptrs[i], nb*s.spec.BlockSize), used == 1)
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
// goroutine stays preemptible, and counts its blocks, as a lone stream's
// too if lone.
func (s *Server[S]) single(st *S, p []byte, lone bool) {
	s.stats.blocks.add(unsafe.Pointer(st), len(p)/s.spec.BlockSize, lone)
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

// blockCounts counts the blocks of the single-stream kernel, and those of
// streams hashing alone, in shards a cache-line pair each, picked by the
// stream's state: every lone write bumps them, and streams hashing on
// different cores bumping one line had it bounce between the cores at
// every write, a tenth of short writes' speed (docs/figures.md, "Figures
// behind the code").
type blockCounts struct {
	shards [countShards]struct {
		single, lone atomic.Uint64
		_            [128 - 16]byte
	}
}

// countShards is the number of blockCounts' shards, a power of two.
const countShards = 16

// add counts n blocks of the stream whose state is at st, as lone ones
// too if lone.
func (b *blockCounts) add(st unsafe.Pointer, n int, lone bool) {
	// Fibonacci hashing of the state's address, whose low bits are its
	// allocation's alignment.
	h := (uint64(uintptr(st)) >> 4) * 0x9e3779b97f4a7c15
	sh := &b.shards[h>>(64-bits.TrailingZeros(countShards))]
	sh.single.Add(uint64(n))
	if lone {
		sh.lone.Add(uint64(n))
	}
}

// single and lone return the totals.
func (b *blockCounts) single() uint64 {
	var n uint64
	for i := range b.shards {
		n += b.shards[i].single.Load()
	}
	return n
}

func (b *blockCounts) lone() uint64 {
	var n uint64
	for i := range b.shards {
		n += b.shards[i].lone.Load()
	}
	return n
}

// timedRound runs a round of nb blocks on kernel k over c's lanes
// 0..used-1 with s.mu released (held on entry and on return), and times
// it for the choice when it has one to refine: with busy streams, two or
// more, and lanes long enough that the rate is not mostly the call's own
// cost (docs/engine.md, "Timed rounds").
func (s *Server[S]) timedRound(c *combiner[S], k, used, nb int) {
	s.rounds++
	s.mu.Unlock()
	c.wakeAll()
	// A round is timed only right after a round on the same kernel: the
	// first call after other code, a socket read or another kernel, pays
	// for what that left cold, a 512-bit kernel up to three times its
	// time (docs/engine.md, "Rounds after other code").
	timed := c.busy >= 2 && nb*s.spec.BlockSize >= tuning.QuickMeasure.LaneBytes && k == c.prev
	c.prev = k
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
		s.choice().Observe(k, used, s.roundBytes(k, used, nb), took.Nanoseconds())
	}
}

// retire moves c's lanes 0..used-1 past the round of nb blocks on kernel
// k, and takes out those whose blocks are done, their writers (but me's)
// to be woken, keeping the busy lanes dense. s.mu is held.
func (s *Server[S]) retire(c *combiner[S], me *request[S], k, used, nb int) {
	busy := c.busy
	for i := used - 1; i >= 0; i-- { // backwards, so a moved lane is one already advanced
		r := c.reqs[i]
		r.p = r.p[s.laneBlocks(k, i, nb)*s.spec.BlockSize:]
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
	c.busy = busy
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
// released on return. Each round: hand lanes to another P where it pays
// (offload), fill the lanes from the queue, let writers that are about to
// queue join (gatherCompany), choose the kernel and length (plan), run it
// (timedRound) and take out the streams it finished (retire).
//
// With several Ps each combiner takes only its share of the streams, never
// fewer than the narrowest kernel's lanes: 32 streams on 2 Ps run as two
// 16-lane rounds on two cores, not one 32-lane round on one.
func (s *Server[S]) combine(me *request[S], probe, fresh bool) {
	procs := runtime.GOMAXPROCS(0)
	s.procs = procs
	s.combiners++
	c := s.scratch.Get().(*combiner[S])
	c.busy, c.prev, c.settle = 0, noKernel, false
	long := false // the latest round was full-length
	for !me.done {
		s.offload(c, me, procs)
		s.fill(c, procs)
		s.gatherCompany(c, me, procs, probe, fresh)
		probe, fresh = false, false
		// Company fades by halves, not at once: an unlucky round alone
		// (below) must not end the sharing.
		s.lastBusy = max(s.payingCompany(c.busy, c.sharedBytes()), s.lastBusy/2)
		s.pairBusy = s.company(c, c.busy)
		if c.settle {
			// The tuning reads the wisdom file or measures the kernels,
			// once, the lock released, the writers that were woken let go.
			c.settle = false
			s.mu.Unlock()
			c.wakeAll()
			s.choice().Settle()
			s.mu.Lock()
			s.fill(c, procs)
		}
		k, used, nb := s.plan(c, c.busy, procs > 1)
		if procs > 1 && (c.nToWake > 0 || c.wokeAtExit) && s.fullLength(k, nb) {
			c.wokeAtExit = false
			// A writer woken here (or as the previous combine on this P
			// left) waits on this P until the kernel call returns, while
			// another P's combiner may be yielding for it: before a
			// full-length round, yield once so the writers queue first
			// (docs/engine.md, "The yield before a full-length round").
			s.yield(c)
			s.fill(c, procs)
			k, used, nb = s.plan(c, c.busy, procs > 1)
		}
		long = s.fullLength(k, nb)
		s.timedRound(c, k, used, nb)
		if used >= 2 {
			c.settle = s.choice().Due(s.roundBytes(k, used, nb))
		}
		s.retire(c, me, k, used, nb)
	}
	s.handBack(c, 0, c.busy) // the lanes still in use
	c.busy = 0
	s.combiners--
	s.quiet.Store(s.combiners == 0 && s.head == nil && s.lastBusy <= 1)
	if s.head != nil {
		c.wakeLater(s.head) // its writer becomes the next combiner
	}
	s.mu.Unlock()
	c.wokeAtExit = c.nToWake > 0 && long
	c.wakeAll()
	s.scratch.Put(c)
}

// fill moves queued requests into c's free lanes, up to its share of the
// lanes with procs Ps (laneShare).
func (s *Server[S]) fill(c *combiner[S], procs int) {
	for l := s.laneShare(procs); c.busy < l && s.head != nil; {
		r := s.pop()
		c.reqs[c.busy], c.states[c.busy], c.ptrs[c.busy] = r, r.state, &r.p[0]
		c.busy++
		s.inLanes++
	}
}

// yield lets the writers c woke, and any other runnable goroutine, run
// once: s.mu is released around a Gosched.
func (s *Server[S]) yield(c *combiner[S]) {
	c.prev = noKernel
	s.stats.yields.Add(1)
	s.mu.Unlock()
	c.wakeAll()
	runtime.Gosched()
	s.mu.Lock()
}

// gather yields up to n times while c's lanes hold fewer than want()
// streams, filling them from the queue after each. It stops after two
// yields in a row bring nobody: once in 61 schedules the Go scheduler
// serves its global queue first, so a goroutine that yields can be picked
// again ahead of the writers it yielded to.
func (s *Server[S]) gather(c *combiner[S], procs, n int, want func() int) {
	for y, idle := 0, 0; c.busy < want() && y < n && idle < 2; y++ {
		before := c.busy
		s.yield(c)
		s.fill(c, procs)
		if c.busy == before {
			idle++
		} else {
			idle = 0
		}
	}
}

// gatherCompany is a round's wait for company, as companyYields and
// awaitsCompany decide it: writers that are runnable get a chance to join
// the round, more while they keep arriving, and a combiner alone at one P
// after others queued lately waits for those the scheduler has not seen.
func (s *Server[S]) gatherCompany(c *combiner[S], me *request[S], procs int, probe, fresh bool) {
	yields, capped, probed := s.companyYields(procs, len(me.p), probe, fresh)
	s.gather(c, procs, yields, func() int { return s.gatherTarget(procs, capped) })
	if probed { // the probe was the only reason to yield
		after := time.Duration(s.probeAfter.Load())
		if s.probeBackoff = backoff(&after, s.probeBackoff, s.payingCompany(c.busy, c.sharedBytes()) == 1, 0, s.epoch); s.probeBackoff == 0 {
			after = 0
		}
		s.probeAfter.Store(int64(after))
	}
	// Alone at one P, after others queued lately: their writers may be
	// waiting for the scheduler to poll the network.
	if c.busy == 1 && awaitsCompany(procs, c.busy, len(c.reqs[0].p)) && s.awaitCompany(c, me) {
		s.fill(c, procs)
		// The others the poll made runnable queue as they run.
		s.gather(c, procs, maxYields, func() int { return s.lanes })
	}
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
	ok, skip := s.mayAwait()
	if s.awaitSkip = skip; !ok {
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
	start := time.Now()
	select {
	case <-me.wake:
	case <-c.await.C:
	}
	waited := time.Since(start)
	c.await.Stop()
	s.mu.Lock()
	if s.awaiting == me {
		s.awaiting = nil
	}
	joined := s.head != nil
	s.awaitBackoff = backoff(&s.awaitAfter, s.awaitBackoff, !joined, waited, s.epoch)
	if joined {
		s.stats.awaitsJoined.Add(1)
	}
	return joined
}

// awaitingAnywhere is set while a combiner of any Server waits in
// awaitCompany.
var awaitingAnywhere atomic.Bool

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

// offload hands the lanes beyond c's share back to the queue, in front,
// and has the first of them woken to combine them on another P, when
// offloadKeep says so. me stays: its writer is the one combining.
func (s *Server[S]) offload(c *combiner[S], me *request[S], procs int) {
	keep, ok := s.offloadKeep(c, procs)
	if !ok {
		return
	}
	n := c.busy
	for i, r := range c.reqs[keep:n] {
		if r == me { // keep me in lanes 0..keep-1
			c.swapLanes(0, keep+i)
		}
	}
	s.handBack(c, keep, n)
	c.busy = keep
	c.wakeLater(s.head)
}

// Signal leaves a wake-up token in a parked goroutine's channel, of
// capacity one; a token already waiting is enough. The engine's writers
// park on such channels, and so do the root package's BLAKE3 batchers.
func Signal(ch chan struct{}) {
	select {
	case ch <- struct{}{}:
	default:
	}
}
