package tuning

import (
	"fmt"
	"strings"
	"sync"
	"sync/atomic"

	"github.com/hashlanes/hashlanes/internal/procenv"
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
	v := procenv.Get("HASHLANES_TUNING")
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

// current is the snapshot of the rates now, taking the family's prior
// first if nothing has yet (see Family.begin).
func (s Source) current() *snapshot {
	if s.fixed != nil {
		return s.fixed
	}
	if snap := s.fam.snap.Load(); snap != nil {
		return snap
	}
	s.fam.begin()
	return s.fam.snap.Load()
}

// begun reports whether the source has rates in hand: fixed ones, or a
// family that has taken its prior.
func (s Source) begun() bool { return s.fixed != nil || s.fam.snap.Load() != nil }

// LoneIsSingle reports whether one stream's kernel is known to be the
// single-stream one without weighing any kernel: so it is until the
// source has begun, as every prior chooses it for one stream (loneMargin;
// TestKernelChoice), and a Chooser's Pick(1) answers it then (lonePick).
// A server asks this before it has made its Chooser.
func (s Source) LoneIsSingle() bool { return !s.begun() }

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
	s.fam.begin()
	return s.fam.priorSnap
}

// Generation changes whenever the source's rates do.
func (s Source) Generation() uint64 { return s.current().gen }

// Rates returns the rates the source gives now.
func (s Source) Rates() *Rates { return s.current().rates }

const (
	statePending = iota
	stateRunning
	stateDone
)

// calibrateAfter is how much work, in bytes, the engines of a family in
// auto mode do on the prior's choice before they measure the kernels: the
// measurement costs about as much as a few MiB of hashing, so a process
// that hashes a little and exits never pays it, and one that hashes much
// pays it as a small share (docs/engine.md, "The floor: a lone stream
// waits for nothing").
const calibrateAfter = 256 << 20

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
// messages never pays for the measurement. In auto mode it does not read
// the wisdom file either: the engine's first round on the lanes does
// (see due), and the caller asks again when the rates change. A process
// that sums a few messages at a time never reads it; their cut-off is the
// prior's for this CPU, and a batch it sends to the lanes reads the file.
// The read cost a fresh process's first SumMany of a few messages many
// times the messages' own time (docs/figures.md, "A fresh process's
// first use").
func (s Source) ManyMin(alg string, measure func() (int, error)) (int, bool) {
	if s.fixed != nil {
		return manyMinOf(s.current().rates, alg), true
	}
	f := s.fam
	if f.mode.Kind == ModeAuto {
		f.begin()
	} else {
		f.settle(false) // the file, at most, unless the work is done
	}
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
