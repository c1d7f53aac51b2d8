// Package filesum hashes named files and standard input with the
// checksum commands' methods, in order: in the library's lanes through
// SumStreams, a large regular file on every core with its method's
// splitter, standard input's turns in operand order.
package filesum

import (
	"context"
	"hash"
	"io"
	"runtime"
	"sync"

	"github.com/hashlanes/hashlanes"
	"github.com/hashlanes/hashlanes/cmd/hashlanes/internal/files"
	"github.com/hashlanes/hashlanes/cmd/hashlanes/internal/method"
)

// Job is one run's way of hashing files: what every stream of it shares.
type Job struct {
	Ctx     context.Context
	Stdin   io.Reader
	Jobs    int  // files hashed at once (hashlanes.WithJobs); 0: the library's default
	Threads int  // cores a split file is hashed on (b3sum --num-threads); 0: GOMAXPROCS
	NoMmap  bool // b3sum --no-mmap: split files are read, on one core
}

// StdinTurns lets streams read standard input one after another in operand
// order, as GNU's sequential reads would: the first "-" reads it to its
// end, a later one finds it at end (or reads on, from a terminal).
type StdinTurns struct {
	mu   sync.Mutex
	cond *sync.Cond
	next int
}

func NewStdinTurns() *StdinTurns {
	t := &StdinTurns{}
	t.cond = sync.NewCond(&t.mu)
	return t
}

func (t *StdinTurns) wait(turn int) {
	t.mu.Lock()
	for t.next != turn {
		t.cond.Wait()
	}
	t.mu.Unlock()
}

func (t *StdinTurns) done() {
	t.mu.Lock()
	t.next++
	t.cond.Broadcast()
	t.mu.Unlock()
}

// stdinStream is one turn at standard input; Close hands it on.
type stdinStream struct {
	r     io.Reader
	turns *StdinTurns
}

func (s *stdinStream) Read(p []byte) (int, error) { return s.r.Read(p) }

func (s *stdinStream) Close() error { s.turns.done(); return nil }

// Open opens a named file, or standard input for "-" (turn is its
// place among the "-" operands).
func (j *Job) Open(name string, turn int, turns *StdinTurns) (io.Reader, error) {
	if name == "-" {
		turns.wait(turn)
		return &stdinStream{j.Stdin, turns}, nil
	}
	return files.Open(name)
}

// Streams is hashlanes.SumStreams over methods: stream i is hashed with
// planOf(i)'s, and done gets its digests in their order.
func (j *Job) Streams(n int, planOf func(i int) *method.Plan, open func(i int) (io.Reader, error), done func(i int, s hashlanes.StreamSum)) {
	opts := append(j.jobOptions(),
		hashlanes.WithStreamAlgorithms(func(i int) []hashlanes.Algorithm { return planOf(i).Algs }),
		hashlanes.WithStreamHashes(func(i int) []hash.Hash { return planOf(i).Hashes() }))
	hashlanes.SumStreams(j.Ctx, nil, n, open, func(i int, s hashlanes.StreamSum) {
		s.Sums = planOf(i).Sums(s)
		done(i, s)
	}, opts...)
}

// Item is one thing to hash: a file name, or a problem met while listing
// names (an unreadable directory), reported in its place.
type Item struct {
	Name      string
	Err       error
	StdinTurn int // for "-": its place among the "-" operands
	Size      int64
}

// Items hashes items with ms and hands each result to done, in
// order: regular files large enough for the one method's splitter on
// every core, the rest through SumStreams, in lanes where the methods
// have them.
func (j *Job) Items(ms []*method.Method, items []Item, done func(i int, s hashlanes.StreamSum)) {
	turns := NewStdinTurns()
	plan := method.PlanFor(ms)
	start := 0
	if sp := j.splitter(ms); sp != nil {
		for i := range items {
			it := &items[i]
			if it.Err != nil || it.Name == "-" {
				continue
			}
			if fi, err := files.Stat(it.Name); err != nil || !fi.Mode().IsRegular() || fi.Size() < splitMinOf(sp) {
				continue
			}
			j.hashBatch(items, start, i, plan, turns, done)
			if j.Ctx.Err() != nil {
				return
			}
			j.hashSplit(items, i, sp, plan, turns, done)
			start = i + 1
		}
	}
	j.hashBatch(items, start, len(items), plan, turns, done)
}

// hashBatch hashes items[first:end] through SumStreams.
func (j *Job) hashBatch(items []Item, first, end int, plan *method.Plan, turns *StdinTurns, done func(i int, s hashlanes.StreamSum)) {
	if first == end {
		return
	}
	j.Streams(end-first, func(int) *method.Plan { return plan },
		func(i int) (io.Reader, error) {
			it := &items[first+i]
			if it.Err != nil {
				return nil, it.Err
			}
			return j.Open(it.Name, it.StdinTurn, turns)
		},
		func(i int, s hashlanes.StreamSum) { done(first+i, s) })
}

// SplitMinTest, from 0 on, replaces every splitter's size for the tests.
var SplitMinTest int64 = -1

func splitMinOf(sp *method.Splitter) int64 {
	if SplitMinTest >= 0 {
		return SplitMinTest
	}
	return sp.Min
}

// splitter is the splitter of ms, where ms is one method that has one and it pays on
// the cores there are.
func (j *Job) splitter(ms []*method.Method) *method.Splitter {
	if len(ms) != 1 {
		return nil
	}
	sp := ms[0].Split
	if sp == nil || sp.MultiCore && j.cores() < 2 {
		return nil
	}
	return sp
}

// cores is how many cores a split file is hashed on: b3sum's
// --num-threads, or GOMAXPROCS.
func (j *Job) cores() int {
	if j.Threads > 0 {
		return j.Threads
	}
	return runtime.GOMAXPROCS(0)
}

// hashSplit hashes items[i], a large regular file, with its method's
// splitter; if it is no longer a regular file when opened, it goes
// through SumStreams after all.
func (j *Job) hashSplit(items []Item, i int, sp *method.Splitter, plan *method.Plan, turns *StdinTurns, done func(i int, s hashlanes.StreamSum)) {
	r, err := j.Open(items[i].Name, 0, turns)
	if err != nil {
		done(i, hashlanes.StreamSum{Err: err})
		return
	}
	f, size, ok := files.Ranges(r)
	if !ok {
		r.(io.Closer).Close()
		j.hashBatch(items, i, i+1, plan, turns, done)
		return
	}
	sum, err := sp.Sum(method.SplitRun{Ctx: j.Ctx, Cores: j.cores(), NoMmap: j.NoMmap}, f, size)
	if cerr := r.(io.Closer).Close(); err == nil {
		err = cerr
	}
	s := hashlanes.StreamSum{Size: size, Err: err}
	if err == nil {
		s.Sums = [][]byte{sum}
	}
	done(i, s)
}

func (j *Job) jobOptions() []hashlanes.StreamOption {
	if j.Jobs > 0 {
		return []hashlanes.StreamOption{hashlanes.WithJobs(j.Jobs)}
	}
	return nil
}
