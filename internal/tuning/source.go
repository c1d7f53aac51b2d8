package tuning

import (
	"fmt"
	"os"
	"strings"
	"sync"
	"sync/atomic"
	"time"
)

// Mode is where rates come from (HASHLANES_TUNING).
type Mode struct {
	Kind  ModeKind
	Prior string // for Table: the prior to use; empty for this CPU's
}

// ModeKind is a kind of Mode.
type ModeKind int

const (
	ModeAuto    ModeKind = iota // the wisdom file if valid, else measure; priors until then
	ModeMeasure                 // measure, whatever the wisdom file says
	ModeFile                    // the wisdom file, else priors
	ModeTable                   // priors only: no measurement, no refinement
)

var modeNames = [...]string{ModeAuto: "auto", ModeMeasure: "measure", ModeFile: "file", ModeTable: "table"}

func (m Mode) String() string {
	s := modeNames[m.Kind]
	if m.Prior != "" {
		s += ":" + m.Prior
	}
	return s
}

// ParseMode parses HASHLANES_TUNING's values: auto, measure, file, table
// and table:NAME.
func ParseMode(s string) (Mode, error) {
	name, prior, hasPrior := strings.Cut(s, ":")
	for k, n := range modeNames {
		if strings.EqualFold(name, n) && (!hasPrior || ModeKind(k) == ModeTable) {
			m := Mode{Kind: ModeKind(k), Prior: prior}
			if hasPrior {
				if _, ok := priorNamed(prior); !ok {
					return Mode{}, fmt.Errorf("hashlanes: HASHLANES_TUNING=%s: no prior named %q (have %s)", s, prior, strings.Join(PriorNames(), ", "))
				}
			}
			return m, nil
		}
	}
	return Mode{}, fmt.Errorf("hashlanes: unknown HASHLANES_TUNING %q (want auto, measure, file, table or table:NAME)", s)
}

// EnvMode is the mode HASHLANES_TUNING sets for the process; EnvErr is
// non-nil when it held something unusable, and auto applies.
var EnvMode, EnvErr = func() (Mode, error) {
	v := os.Getenv("HASHLANES_TUNING")
	if v == "" {
		return Mode{}, nil
	}
	m, err := ParseMode(v)
	if err != nil {
		return Mode{}, err
	}
	return m, nil
}()

// snapshot is one state of a source's rates. gen changes whenever the
// rates do.
type snapshot struct {
	gen    uint64
	kind   int // kindPrior, kindFile, kindMeasured
	rates  *Rates
	origin string
}

const (
	kindPrior = iota
	kindFile
	kindMeasured
)

var generations atomic.Uint64

func newSnapshot(kind int, r *Rates, origin string) *snapshot {
	return &snapshot{gen: generations.Add(1), kind: kind, rates: r, origin: origin}
}

// Source is where a Chooser's rates come from: a kernel family, whose
// rates move from its prior to the wisdom file's or a measurement's on
// first use, or a fixed set of rates.
type Source struct {
	fam   *Family
	fixed *snapshot
}

// Fixed is a source of rates that never change and are never refined.
func Fixed(r *Rates, origin string) Source {
	return Source{fixed: newSnapshot(kindPrior, r, origin)}
}

// Source returns the family's rates in mode m: the family's own for the
// process's mode, a fixed prior for table modes.
func (f *Family) Source(m Mode) Source {
	if m.Kind == ModeTable {
		p, exact := f.priorFor(m.Prior)
		return Source{fixed: newSnapshot(kindPrior, p.rates(f.name), priorOrigin(p, exact))}
	}
	f.begin()
	return Source{fam: f}
}

func (s Source) current() *snapshot {
	if s.fixed != nil {
		return s.fixed
	}
	return s.fam.snap.Load()
}

func (s Source) online() bool { return s.fixed == nil && s.fam.mode.Kind != ModeTable }

func (s Source) pending() bool { return s.fixed == nil && s.fam.state.Load() == statePending }

func (s Source) prepare() {
	if s.fixed == nil {
		s.fam.prepare()
	}
}

func (s Source) due(bytes int) bool { return s.fixed == nil && s.fam.due(bytes) }

func (s Source) settle() {
	if s.fixed == nil {
		s.fam.settle(false)
	}
}

// prior is the snapshot of the family's prior, nil for fixed rates.
func (s Source) prior() *snapshot {
	if s.fixed != nil {
		return nil
	}
	return s.fam.priorSnap
}

// Generation changes whenever the source's rates do.
func (s Source) Generation() uint64 { return s.current().gen }

// Rates returns the rates the source gives now.
func (s Source) Rates() *Rates { return s.current().rates }

// Family is the kernels of one family (md5, sha1, sha256, sha512), as the
// process's engines share them: their rates on this machine, measured at
// most once per process.
type Family struct {
	name      string
	probes    []Probe
	mode      Mode
	prior     *Wisdom
	exact     bool // the prior is this CPU's own, not the nearest
	priorSnap *snapshot

	start    sync.Once // begin
	state    atomic.Int32
	snap     atomic.Pointer[snapshot]
	fileOnce sync.Once
	fileRead atomic.Bool  // readFile has run
	worked   atomic.Int64 // bytes hashed on a choice while pending (see due)

	// Where prepare reads the wisdom file and how its measurement
	// reads the time: LoadWisdom and the monotonic clock, but in tests.
	load  func() (*Wisdom, string, error)
	clock func() time.Duration

	mu       sync.Mutex
	manyMins map[string]*cutoff
	// measureCutoff measures each algorithm's SumMany cut-off, for Tune.
	measureCutoff map[string]func(Options) (int, error)
}

// AddCutoff gives Tune the measurement of algorithm alg's SumMany cut-off.
func (f *Family) AddCutoff(alg string, measure func(Options) (int, error)) {
	f.mu.Lock()
	defer f.mu.Unlock()
	if f.measureCutoff == nil {
		f.measureCutoff = map[string]func(Options) (int, error){}
	}
	f.measureCutoff[alg] = measure
}

const (
	statePending = iota
	stateRunning
	stateDone
)

// NewFamily returns the family name of the given kernels (Probes), in mode
// m, starting from this CPU's prior.
func NewFamily(name string, probes []Probe, m Mode) *Family {
	f := &Family{name: name, probes: probes, mode: m, manyMins: map[string]*cutoff{}, load: LoadWisdom, clock: monotonic}
	if m.Kind == ModeTable {
		f.state.Store(stateDone)
	}
	return f
}

// begin takes the family's prior, on first use rather than at start: the
// priors are parsed then, and a program that never hashes on the engine
// does not pay for it.
func (f *Family) begin() {
	f.start.Do(func() {
		f.prior, f.exact = f.priorFor(f.mode.Prior)
		f.priorSnap = newSnapshot(kindPrior, f.prior.rates(f.name), priorOrigin(f.prior, f.exact))
		f.snap.Store(f.priorSnap)
	})
}

// Name is the family's name.
func (f *Family) Name() string { return f.name }

// Mode is the mode the family was made in.
func (f *Family) Mode() Mode { return f.mode }

// Probes returns the kernels the family measures.
func (f *Family) Probes() []Probe { return f.probes }

func (f *Family) priorFor(name string) (*Wisdom, bool) {
	if name != "" {
		p, _ := priorNamed(name)
		return p, true
	}
	return priorForCPU()
}

func priorOrigin(p *Wisdom, exact bool) string {
	if exact {
		return "prior " + p.Name
	}
	return "prior " + p.Name + " (nearest)"
}

// prepare moves the family from its prior to the wisdom file's rates or
// to a measurement, once; a caller that finds it under way goes on with
// the prior. It measures whatever work was done (Calibrate, tests).
func (f *Family) prepare() { f.settle(true) }

// calibrateAfter is how much work, in bytes, the engines of a family in
// auto mode do on the prior's choice before they measure the kernels: the
// measurement costs about as much as a few MiB of hashing, so a process
// that hashes a little and exits never pays it, and one that hashes much
// pays it as a small share (docs/engine.md, "The floor: a lone stream
// waits for nothing").
const calibrateAfter = 256 << 20

// due counts bytes of work done on a choice between kernels and reports
// whether settle has something to do: read the wisdom file, the first
// time, or measure, once the work reaches calibrateAfter (at once in
// measure mode).
func (f *Family) due(bytes int) bool {
	if f.state.Load() != statePending {
		return false
	}
	if !f.fileRead.Load() || f.mode.Kind == ModeMeasure {
		return true
	}
	return f.worked.Add(int64(bytes)) >= calibrateAfter
}

// settle reads the wisdom file, once, and takes its rates if it has them
// for the family; otherwise it measures, when force is set, in measure
// mode, or when the work has reached calibrateAfter.
func (f *Family) settle(force bool) {
	if f.state.Load() != statePending {
		return
	}
	f.begin()
	f.fileOnce.Do(f.readFile)
	if f.state.Load() != statePending {
		return
	}
	if !force && f.mode.Kind == ModeAuto && f.worked.Load() < calibrateAfter {
		return
	}
	if !f.state.CompareAndSwap(statePending, stateRunning) {
		return
	}
	defer f.state.Store(stateDone)
	o := QuickMeasure
	o.Clock = f.clock
	start := f.clock()
	r, err := Measure(f.probes, o)
	cost := f.clock() - start
	if err != nil {
		return // the prior stays
	}
	f.snap.Store(newSnapshot(kindMeasured, f.prior.rates(f.name).merged(r), fmt.Sprintf("measured in %.1f ms", float64(cost.Microseconds())/1e3)))
}

// readFile takes the wisdom file's rates for the family where the mode
// reads it and it has them; in file mode the family is settled then,
// with or without them.
func (f *Family) readFile() {
	defer f.fileRead.Store(true)
	if f.mode.Kind != ModeAuto && f.mode.Kind != ModeFile {
		return
	}
	if w, path, _ := f.load(); w != nil {
		if r, ok := w.Families[f.name]; ok {
			f.snap.Store(newSnapshot(kindFile, f.prior.rates(f.name).merged(r), "file "+path))
			f.state.Store(stateDone)
			return
		}
	}
	if f.mode.Kind == ModeFile {
		f.state.Store(stateDone)
	}
}

// cutoff is one algorithm's SumMany cut-off, measured at most once.
type cutoff struct {
	once sync.Once
	n    int
}

// ManyMin is algorithm alg's SumMany cut-off: the fewest messages worth
// the lanes, and whether it is final. The wisdom file's is final; a
// source that measures measures it once with measure (if not nil), but
// only once its family's kernels are measured (see calibrateAfter): until
// then it gives the prior's, not final, so that a process hashing a few
// messages never pays for the measurement.
func (s Source) ManyMin(alg string, measure func() (int, error)) (int, bool) {
	if s.fixed != nil {
		return manyMinOf(s.current().rates, alg), true
	}
	f := s.fam
	f.settle(false) // the file, at most, unless the work is done
	snap := s.current()
	if !s.online() || f.mode.Kind == ModeFile || measure == nil {
		return manyMinOf(snap.rates, alg), f.state.Load() == stateDone
	}
	if _, ok := snap.rates.ManyMin[alg]; ok && snap.kind == kindFile {
		return manyMinOf(snap.rates, alg), true
	}
	if snap.kind != kindMeasured {
		return manyMinOf(snap.rates, alg), false
	}
	f.mu.Lock()
	c := f.manyMins[alg]
	if c == nil {
		c = &cutoff{}
		f.manyMins[alg] = c
	}
	f.mu.Unlock()
	c.once.Do(func() {
		c.n = manyMinOf(snap.rates, alg)
		if n, err := measure(); err == nil {
			c.n = n
		}
	})
	return c.n, true
}

// defaultManyMin is the cut-off of an algorithm no source knows.
const defaultManyMin = 4

func manyMinOf(r *Rates, alg string) int {
	if n, ok := r.ManyMin[alg]; ok {
		return n
	}
	return defaultManyMin
}
