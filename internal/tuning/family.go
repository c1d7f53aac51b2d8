package tuning

// A Family: one algorithm family's kernels (md5, sha1, sha256, sha512) as the
// process's engines share them: registered for hashlanes tune, started from a
// prior, measured or read from the wisdom file once, on first need.

import (
	"fmt"
	"runtime"
	"slices"
	"sync"
	"sync/atomic"
	"time"
)

// Family is the kernels of one family (md5, sha1, sha256, sha512), as the
// process's engines share them: their rates on this machine, measured at
// most once per process.
type Family struct {
	name      string
	probes    func() []Probe // made on first use: only a measurement needs them
	mode      Mode
	prior     int  // index of the prior in priorEntries, -1 for none
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

// Source returns the family's rates in mode m: the family's own for the
// process's mode, a fixed prior for table modes. The family takes its
// prior when the source is first read, not here: a server whose streams
// never have a choice to make never reads it (see Chooser.lonePick).
func (f *Family) Source(m Mode) Source {
	if m.Kind == ModeTable {
		p, exact := f.priorFor(m.Prior)
		return Source{fixed: newSnapshot(kindPrior, priorRates(p, f.name), priorOrigin(p, exact))}
	}
	return Source{fam: f}
}

// NewFamily returns the family name of the kernels probes makes (Probes), in
// mode m, starting from this CPU's prior. probes runs once, when the
// kernels are first measured or listed.
func NewFamily(name string, probes func() []Probe, m Mode) *Family {
	f := &Family{name: name, probes: sync.OnceValue(probes), mode: m, prior: -1, manyMins: map[string]*cutoff{}, load: LoadWisdom, clock: monotonic}
	if m.Kind == ModeTable {
		f.state.Store(stateDone)
	}
	return f
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

// begin takes the family's prior, on first use rather than at start: the
// priors are parsed then, and a program that never hashes on the engine
// does not pay for it.
func (f *Family) begin() {
	f.start.Do(func() {
		f.prior, f.exact = f.priorFor(f.mode.Prior)
		f.priorSnap = newSnapshot(kindPrior, priorRates(f.prior, f.name), priorOrigin(f.prior, f.exact))
		f.snap.Store(f.priorSnap)
	})
}

// Name is the family's name.
func (f *Family) Name() string { return f.name }

// Mode is the mode the family was made in.
func (f *Family) Mode() Mode { return f.mode }

// Probes returns the kernels the family measures.
func (f *Family) Probes() []Probe { return f.probes() }

func (f *Family) priorFor(name string) (int, bool) {
	if name != "" {
		i, _ := priorNamed(name)
		return i, true
	}
	return priorForCPU()
}

func priorOrigin(i int, exact bool) string {
	if i < 0 {
		return NoPrior()
	}
	if exact {
		return "prior " + priorEntries[i].name
	}
	return "prior " + priorEntries[i].name + " (nearest)"
}

// prepare moves the family from its prior to the wisdom file's rates or
// to a measurement, once; a caller that finds it under way goes on with
// the prior. It measures whatever work was done (Calibrate, tests).
func (f *Family) prepare() { f.settle(true) }

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
	r, err := Measure(f.probes(), o)
	cost := f.clock() - start
	if err != nil {
		return // the prior stays
	}
	f.snap.Store(newSnapshot(kindMeasured, f.priorSnap.rates.merged(r), fmt.Sprintf("measured in %.1f ms", float64(cost.Microseconds())/1e3)))
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
			f.snap.Store(newSnapshot(kindFile, f.priorSnap.rates.merged(r), "file "+path))
			f.state.Store(stateDone)
			return
		}
	}
	if f.mode.Kind == ModeFile {
		f.state.Store(stateDone)
	}
}

var registry struct {
	sync.Mutex
	families  []*Family
	providers []func() // see Provide
	// providing is held while the providers run, so that a Families
	// called meanwhile lists what they make.
	providing sync.Mutex
}

// Register adds f to the families hashlanes tune measures and BuildID
// names.
func Register(f *Family) *Family {
	registry.Lock()
	defer registry.Unlock()
	registry.families = append(registry.families, f)
	return f
}

// Provide gives Families a function that makes (and registers) families
// made on first use: Families runs each once before it lists them.
func Provide(provider func()) {
	registry.Lock()
	defer registry.Unlock()
	registry.providers = append(registry.providers, provider)
}

// Families lists the registered families, once every provider has run.
func Families() []*Family {
	registry.providing.Lock()
	registry.Lock()
	providers := registry.providers
	registry.providers = nil
	registry.Unlock()
	for _, provide := range providers {
		provide()
	}
	registry.providing.Unlock()
	registry.Lock()
	defer registry.Unlock()
	return slices.Clone(registry.families)
}

// Prior is the prior the family started from, and whether it is this
// CPU's own.
func (f *Family) Prior() (*Wisdom, bool) {
	f.begin()
	return prior(f.prior), f.exact
}

// NoPrior says that this architecture has no prior.
func NoPrior() string { return "no prior for " + runtime.GOARCH + " (rates measured on first use)" }
