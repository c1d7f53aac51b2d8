package engine

import (
	"bytes"
	"crypto/sha256"
	"hash"
	"runtime"
	"slices"
	"sync"
	"testing"
	"time"

	"github.com/hashlanes/hashlanes/internal/kernel"
	sha256k "github.com/hashlanes/hashlanes/internal/kernel/sha256"
	"github.com/hashlanes/hashlanes/internal/tuning"
	"github.com/hashlanes/hashlanes/internal/workload"
)

// TestShed checks that a combiner holding more than its share of the
// streams, while another P could combine, hands the excess back to the
// front of the queue and wakes its first writer, keeping its own request;
// and that it keeps its lanes when the queue is not empty, when every P
// already combines, or when two cores would not move enough more.
func TestOffload(t *testing.T) {
	var r refKernels
	hybrid := r.server()
	// Alike lanes only, the wider kernel rated in proportion to its lanes:
	// 8 streams split 4 and 4 move no more than 8 together.
	k := r.kernels()
	wide := k.Multi[0]
	wide.Name, wide.Lanes = "wide", 8
	k.Multi = []kernel.Multi[sha256k.State]{k.Multi[0], wide}
	alike := NewServer(testSpec, k, tuning.Fixed(&tuning.Rates{Kernels: map[string]float64{"generic": 100, "alike": 300, "wide": 600}}, "test"))
	const procs = 2
	for _, tc := range []struct {
		name              string
		srv               *Server[sha256k.State]
		busy, queued      int
		combiners         int
		wantBusy, wantOut int
	}{
		{"dry P", hybrid, 10, 0, 1, 5, 5},
		{"odd", hybrid, 9, 0, 1, 5, 4},
		{"queue not empty", hybrid, 10, 1, 1, 10, 0},
		{"every P combines", hybrid, 10, 0, procs, 10, 0},
		{"no gain", alike, 8, 0, 1, 8, 0},
	} {
		t.Run(tc.name, func(t *testing.T) {
			s := NewServer(testSpec, tc.srv.kern, tc.srv.choice().Source())
			c := new(combiner[sha256k.State])
			reqs := make([]*request[sha256k.State], tc.busy+tc.queued)
			for i := range reqs {
				st := new(sha256k.State)
				reqs[i] = &request[sha256k.State]{state: st, p: make([]byte, 64*sha256k.BlockSize), wake: make(chan struct{}, 1)}
				if i < tc.busy {
					c.reqs[i], c.states[i], c.ptrs[i] = reqs[i], st, &reqs[i].p[0]
					s.inLanes++
				} else {
					s.push(reqs[i])
				}
			}
			me := reqs[tc.busy-1] // the last lane: offloading must move it
			s.combiners = tc.combiners
			c.busy = tc.busy
			s.offload(c, me, procs)
			busy := c.busy

			if busy != tc.wantBusy || s.inLanes != tc.wantBusy || s.queued != tc.queued+tc.wantOut {
				t.Fatalf("busy %d, in lanes %d, queued %d; want %d, %d, %d", busy, s.inLanes, s.queued, tc.wantBusy, tc.wantBusy, tc.queued+tc.wantOut)
			}
			if !slices.Contains(c.reqs[:busy], me) {
				t.Errorf("the combiner's own request left its lanes")
			}
			for i := range busy {
				if r := c.reqs[i]; r == nil || c.states[i] != r.state || c.ptrs[i] != &r.p[0] || r.queued {
					t.Errorf("lane %d is not a consistent lane in use", i)
				}
			}
			for i := busy; i < len(c.reqs); i++ {
				if c.reqs[i] != nil || c.states[i] != nil || c.ptrs[i] != nil {
					t.Errorf("lane %d beyond the busy ones is not cleared", i)
				}
			}
			var seen []*request[sha256k.State]
			for q := s.head; q != nil; q = q.next {
				if !q.queued {
					t.Errorf("a queued request is not marked queued")
				}
				seen = append(seen, q)
			}
			seen = append(seen, c.reqs[:busy]...)
			for _, q := range reqs {
				if !slices.Contains(seen, q) {
					t.Fatalf("a request is neither in lanes nor queued")
				}
			}
			// The wake waits until the lock is released (wakeAll).
			c.wakeAll()
			if tc.wantOut > 0 && len(s.head.wake) != 1 {
				t.Errorf("the first offloaded request's writer was not woken")
			}
		})
	}
}

// TestRoundsTakeEveryStream checks that a combiner gathers all of a few
// streams before each round, however it decides that nobody else is
// coming: 2 to 5 streams of 1 MiB in 32 KiB writes on one P, with a
// 16-lane kernel, make one round per write of each stream, give or take
// one where a yield found the scheduler serving its global queue first.
func TestRoundsTakeEveryStream(t *testing.T) {
	defer runtime.GOMAXPROCS(runtime.GOMAXPROCS(1))
	for _, streams := range []int{2, 3, 5} {
		s := nullServer(kernel.Multi[sha256k.State]{Name: "alike16", Lanes: 16}, lanesAlways)
		msgs := nullMessages(streams)
		const runs = 10
		for range runs {
			workload.Streams(msgs, func() hash.Hash { return s.NewHash() }, nil)
		}
		writes := uint64(runs * overheadSize / workload.WriteSize)
		if st := s.Stats(); st.MultiCalls > writes+runs || st.SingleBlocks > 0 {
			t.Errorf("%d streams: %d rounds (%d single-stream blocks) for %d writes of each stream", streams, st.MultiCalls, st.SingleBlocks, writes)
		}
	}
}

// TestThirdStreamJoinsAtTwoPs: 3 streams on 2 Ps, each P combining a
// stream of its own, must still let the third writer into the lanes
// rather than leave it waiting for a P until a stream ends.
func TestThirdStreamJoinsAtTwoPs(t *testing.T) {
	defer runtime.GOMAXPROCS(runtime.GOMAXPROCS(2))
	s := nullServer(kernel.Multi[sha256k.State]{Name: "alike16", Lanes: 16}, lanesFrom2)
	msgs := nullMessages(3)
	for range 20 {
		workload.Streams(msgs, func() hash.Hash { return s.NewHash() }, nil)
	}
	st := s.Stats()
	// Capped as at one P, 2% of the blocks went to the lanes; since, 28-67%.
	if total := st.MultiBlocks + st.SingleBlocks; st.MultiBlocks < total/8 {
		t.Errorf("%d of %d blocks in lanes (%+v)", st.MultiBlocks, total, st)
	}
	t.Logf("%+v", st)
}

// TestWritesAlone checks when a write skips the combine (see alone): a
// stream's writes under awaitMinBytes once its first round found nobody,
// a new stream's first write while probes back off, and not a write long
// enough to wait for company, nor while the latest rounds had company.
func TestWritesAlone(t *testing.T) {
	defer runtime.GOMAXPROCS(runtime.GOMAXPROCS(1))
	s := nullServer(kernel.Multi[sha256k.State]{Name: "alike16", Lanes: 16}, lanesFrom2)
	short := make([]byte, 8<<10)
	write := func(h hash.Hash, p []byte) (rounds uint64) {
		before := s.rounds
		h.Write(p)
		return s.rounds - before
	}
	lone := func() uint64 { return s.Stats().LoneBlocks }

	h := s.NewHash()
	if n := write(h, short); n != 1 {
		t.Fatalf("a stream's first write: %d rounds, want 1 (its probe)", n)
	}
	before := lone()
	for i := range 4 {
		if n := write(h, short); n != 0 {
			t.Fatalf("write %d of a stream alone: %d rounds, want none", i+2, n)
		}
	}
	if got, want := lone()-before, uint64(4*len(short)/sha256k.BlockSize); got != want {
		t.Errorf("writes alone counted %d lone blocks, want %d", got, want)
	}
	// The first probe found nobody, so probes back off for minAwaitPause.
	// A slow machine can spend that long in the writes above; the pause
	// is stretched here so that the rule is checked, not the clock.
	if s.probeAfter.Load() == 0 {
		t.Fatal("a probe that found nobody set no backoff")
	}
	after := s.probeAfter.Load()
	s.probeAfter.Store(int64(time.Since(s.epoch) + time.Hour))
	if n := write(s.NewHash(), short); n != 0 {
		t.Errorf("a new stream's first write while probes back off: %d rounds, want none", n)
	}
	s.probeAfter.Store(after)
	if n := write(h, make([]byte, awaitMinBytes)); n == 0 {
		t.Error("a write of awaitMinBytes skipped the combine: it may wait for company")
	}

	// Four streams together leave company behind: the next writes go
	// through the combine until it fades (lastBusy halves each round).
	// A collection under way would hold the other writers back in
	// allocation assists while the first hashes all of its message
	// alone, so the test starts with none due.
	msgs := nullMessages(4)
	runtime.GC()
	workload.Streams(msgs, func() hash.Hash { return s.NewHash() }, nil)
	if s.quiet.Load() {
		t.Fatalf("quiet after rounds of four streams (%+v)", s.Stats())
	}
	if n := write(h, short); n != 1 {
		t.Errorf("a write after rounds with company: %d rounds, want 1", n)
	}
	for range 3 {
		write(h, short)
	}
	if n := write(h, short); n != 0 {
		t.Errorf("a write once company faded: %d rounds, want none", n)
	}
}

// TestCompanyThatDoesNotPay: two streams whose choice is the
// single-stream kernel (a 4-lane kernel at 2 lanes only ties it) are no
// company: rounds that hold both do not keep the server from letting
// writes go alone, and probes that find only them back off, so two short
// uploads at once on one P yield a few times in all, where with a kernel
// that pays at 2 lanes they yield to meet on most uploads.
func TestCompanyThatDoesNotPay(t *testing.T) {
	defer runtime.GOMAXPROCS(runtime.GOMAXPROCS(1))
	const singleTies = 480 // the 4-lane kernel moves 1000 with 4 lanes busy, 500 with 2
	ties := nullServer(kernel.Multi[sha256k.State]{Name: "alike4", Lanes: 4}, singleTies)
	for busy, want := range []int{0, 1, 1, 3, 4} {
		if got := ties.payingCompany(busy, 8<<10); got != want {
			t.Errorf("payingCompany(%d) = %d, want %d", busy, got, want)
		}
	}
	const uploads = 200
	run := func(s *Server[sha256k.State]) Stats { return twoUploads(s, uploads, 8<<10) }
	// Probes that find nobody back off for pauses that double from a
	// millisecond, so the yields grow with the log of the run's time (16
	// in the fastest builds, 17 in the pure-Go one); 1,216 without the rule.
	if st := run(ties); st.Yields > uploads/4 || st.MultiCalls > 0 {
		t.Errorf("2 ready on the single-stream kernel: %d yields, %d multi-lane calls in %d uploads", st.Yields, st.MultiCalls, 2*uploads)
	}
	pays := nullServer(kernel.Multi[sha256k.State]{Name: "alike4", Lanes: 4}, lanesFrom2)
	if st := run(pays); st.Yields < uploads {
		t.Errorf("2 ready on a kernel that pays: %d yields in %d uploads; the test no longer tells the two apart", st.Yields, 2*uploads)
	}
}

// TestCompanyTooShortToPay: where a multi-lane kernel moves a little more
// than the single-stream kernel (here 1.1x with two streams: SHA-1's two
// SHA-NI streams against one in the goldencove prior, 2,397 against 2,180
// MB/s), two streams of 8 KiB writes count as company for no round, and
// their writers barely yield; with 64 KiB writes the same kernels' rounds
// save more than meeting costs, and the streams gather.
func TestCompanyTooShortToPay(t *testing.T) {
	defer runtime.GOMAXPROCS(runtime.GOMAXPROCS(1))
	shape := kernel.Multi[sha256k.State]{Name: "alike4", Lanes: 4}
	const single, lanes = 2180, 2 * 2397 // 2,397 MB/s with 2 of the 4 lanes busy
	s := nullServerAt(shape, single, lanes)
	for _, tc := range []struct{ busy, shared, want int }{
		{2, 8 << 10, 1},  // 16 KiB save 0.7 µs, meeting costs 1.0
		{2, 64 << 10, 2}, // 128 KiB save 5.4 µs
		{2, 1 << 20, 2},  // a round is at most kernel.MaxLaneBytes a lane
		{4, 8 << 10, 4},  // 4,794 against 2,180 MB/s: 32 KiB save 8.2 µs
		{1, 64 << 10, 1},
	} {
		if got := s.payingCompany(tc.busy, tc.shared); got != tc.want {
			t.Errorf("payingCompany(%d, %d) = %d, want %d", tc.busy, tc.shared, got, tc.want)
		}
	}
	const uploads = 200
	run := func(write int) Stats { return twoUploads(nullServerAt(shape, single, lanes), uploads, write) }
	if st := run(8 << 10); st.Yields > uploads/4 {
		t.Errorf("8 KiB writes, lanes 1.1x the single stream: %d yields in %d uploads", st.Yields, 2*uploads)
	}
	if st := run(64 << 10); st.Yields < uploads {
		t.Errorf("64 KiB writes, lanes 1.1x the single stream: %d yields in %d uploads; the test no longer tells the two apart", st.Yields, 2*uploads)
	}
}

// twoUploads runs two goroutines at once on s, each hashing uploads
// messages of two writes of write bytes, a new hasher each, and returns
// s's counters.
func twoUploads(s *Server[sha256k.State], uploads, write int) Stats {
	piece := make([]byte, write)
	var wg sync.WaitGroup
	for range 2 {
		wg.Go(func() {
			for range uploads {
				h := s.NewHash()
				h.Write(piece)
				h.Write(piece)
				h.Sum(nil)
			}
		})
	}
	wg.Wait()
	return s.Stats()
}

// TestBurstWhileProbesPaused: two new streams that start together while
// probes back off (a spell of lone streams found nobody) meet in the
// lanes, every time. The pause is set by hand before each burst, so the
// outcome does not hang on where the backoff's clock stands: the first
// write of a stream other than the last writer's still yields, and the
// second yield lets the second writer queue when the first one handed the
// P straight back (the scheduler serving its global queue first).
func TestBurstWhileProbesPaused(t *testing.T) {
	defer runtime.GOMAXPROCS(runtime.GOMAXPROCS(1))
	s := nullServer(kernel.Multi[sha256k.State]{Name: "alike16", Lanes: 16}, lanesFrom2)
	msg := make([]byte, 256<<10)
	write := func(h hash.Hash) {
		for p := msg; len(p) > 0; p = p[32<<10:] {
			h.Write(p[:32<<10])
		}
		h.Sum(nil)
	}
	loner := s.NewHash()
	for burst := range 20 {
		write(loner) // the last writer before the burst is a stream of its own
		s.mu.Lock()
		// What a lone spell leaves: no company lately, no switch of
		// writers to wait after, probes paused.
		s.lastBusy, s.pairBusy, s.prevBusy, s.switched = 1, 1, 1, false
		s.probeAfter.Store(int64(time.Since(s.epoch) + time.Hour))
		s.probeSkip.Store(0)
		s.mu.Unlock()
		before := s.Stats()
		var wg sync.WaitGroup
		for range 2 {
			wg.Go(func() { write(s.NewHash()) })
		}
		wg.Wait()
		st := s.Stats()
		if lone, total := st.LoneBlocks-before.LoneBlocks, 2*len(msg)/testSpec.BlockSize; lone > uint64(total/4) {
			t.Fatalf("burst %d: %d of %d blocks hashed alone (%+v)", burst, lone, total, st)
		}
	}
}

// TestLoneStreamMakesNoChooser: a stream alone on a fresh server, whose
// family has read no rates, runs its short and long writes, its Sum and
// the server's Stats without the server making its chooser or the family
// taking its prior: a process that hashes one stream pays for neither
// (docs/engine.md, "Start-up"). A choice asked for makes it.
func TestLoneStreamMakesNoChooser(t *testing.T) {
	mode := tuning.Mode{Kind: tuning.ModeAuto}
	fam := tuning.NewFamily("lone-chooser", func() []tuning.Probe { return nil }, mode)
	s := NewServer(testSpec, Kernels[sha256k.State]{
		Single: kernel.Single[sha256k.State]{Name: "generic", Fn: sha256k.Singles()[0].Fn},
		Multi:  []kernel.Multi[sha256k.State]{sha256k.Multis()[0]},
	}, fam.Source(mode))
	if s.lanes == 0 {
		t.Fatal("no lanes: the test needs a server that could share them")
	}
	msg := make([]byte, 3<<20+100)
	for i := range msg {
		msg[i] = byte(i * 7)
	}
	h := s.NewStream()
	for _, n := range []int{4 << 10, 100, 64 << 10, 1 << 20, 2 << 20} {
		h.Write(msg[:n])
	}
	got := h.Sum(nil)
	want := sha256.New()
	for _, n := range []int{4 << 10, 100, 64 << 10, 1 << 20, 2 << 20} {
		want.Write(msg[:n])
	}
	if !bytes.Equal(got, want.Sum(nil)) {
		t.Fatalf("digest %x, want %x", got, want.Sum(nil))
	}
	s.Stats()
	if s.chooser.Load() != nil {
		t.Error("a lone stream's writes made the server's chooser")
	}
	if !fam.Source(mode).LoneIsSingle() {
		t.Error("a lone stream's writes read the family's rates")
	}
	if s.Choice() == nil || s.chooser.Load() == nil {
		t.Error("Choice made no chooser")
	}
}
