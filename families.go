package hashlanes

// The kernel families of the algorithms on the engine, as the tuning
// knows them: registered for hashlanes tune with their SumMany cut-offs,
// and the sources of their rates, the process's or a server's own mode.

import (
	"fmt"
	"sync"

	"github.com/hashlanes/hashlanes/internal/cpu"
	"github.com/hashlanes/hashlanes/internal/engine"
	"github.com/hashlanes/hashlanes/internal/kernel"
	"github.com/hashlanes/hashlanes/internal/kernel/md5"
	"github.com/hashlanes/hashlanes/internal/kernel/sha1"
	"github.com/hashlanes/hashlanes/internal/kernel/sha256"
	"github.com/hashlanes/hashlanes/internal/kernel/sha512"
	"github.com/hashlanes/hashlanes/internal/tuning"
)

// The kernel families of the algorithms on the engine, as the tuning
// measures them: SHA-224 shares SHA-256's kernels, SHA-384 and SHA-512/t
// SHA-512's. Each is made on first use: a program pays for the families
// of the algorithms it hashes, not for all at its start (docs/engine.md,
// "Start-up"). tuning.Families makes them all, with their algorithms'
// SumMany cut-offs, for hashlanes tune.
var (
	md5Family = &lazyFamily{name: "md5", probes: func() []tuning.Probe {
		return tuning.Probes(md5.BlockSize, md5.Singles(), md5.Multis(), cpu.Active)
	}, made: &md5Made}
	sha1Family = &lazyFamily{name: "sha1", probes: func() []tuning.Probe {
		return tuning.Probes(sha1.BlockSize, sha1.Singles(), sha1.Multis(), cpu.Active)
	}, made: &sha1Made}
	sha256Family = &lazyFamily{name: "sha256", probes: func() []tuning.Probe {
		return tuning.Probes(sha256.BlockSize, sha256.Singles(), sha256.Multis(), cpu.Active)
	}, made: &sha256Made}
	sha512Family = &lazyFamily{name: "sha512", probes: func() []tuning.Probe {
		return tuning.Probes(sha512.BlockSize, sha512.Singles(), sha512.Multis(), cpu.Active)
	}, made: &sha512Made}
)

// The families' state once made (lazyFamily.made), zero at start.
var md5Made, sha1Made, sha256Made, sha512Made familyMade

// hashlanes tune's families: tuning.Families makes every one, with the
// SumMany cut-off of each algorithm on it.
func init() {
	tuning.Provide(func() {
		for _, a := range Algorithms() {
			if f := familyFor(a); f != nil {
				f.AddCutoff(a.String(), func(o tuning.Options) (int, error) {
					s := DefaultServer(a)
					if s.choice == nil {
						return 0, fmt.Errorf("%v is not on the engine in this build", a)
					}
					return s.measureSumManyCutoff(o)
				})
			}
		}
	})
}

// onEngine is how an algorithm runs on the engine, its entry in
// algorithmInfo: its Spec (from its kernel package), its kernel family and
// its kernels. An engineAlgorithm of any state type.
type onEngine interface {
	family() *tuning.Family
	// server wires algorithm a to its engine at CPU level l, its kernels
	// chosen by the rates src gives for its family.
	server(a Algorithm, l cpu.Level, src func(*tuning.Family) tuning.Source) *Server
}

// engineAlgorithm holds functions, not lists, so that the table is static
// data: a process lists the kernels of the algorithms it serves, when it
// first serves them, and its start runs no code for any (docs/engine.md,
// "Start-up").
type engineAlgorithm[S any] struct {
	spec    *kernel.Spec[S]
	fam     *lazyFamily
	singles func() []kernel.Single[S]
	multis  func() []kernel.Multi[S]
	batches func(*kernel.Spec[S]) []kernel.Batch // set up for spec's algorithm
}

// The algorithms on the engine, their rows in algorithmInfo.
var (
	md5Engine        = engineAlgorithm[md5.State]{&md5.Spec, md5Family, md5.Singles, md5.Multis, md5.Batches}
	sha1Engine       = engineAlgorithm[sha1.State]{&sha1.Spec, sha1Family, sha1.Singles, sha1.Multis, sha1.Batches}
	sha224Engine     = engineAlgorithm[sha256.State]{&sha256.Spec224, sha256Family, sha256.Singles, sha256.Multis, sha256.Batches}
	sha256Engine     = engineAlgorithm[sha256.State]{&sha256.Spec256, sha256Family, sha256.Singles, sha256.Multis, sha256.Batches}
	sha384Engine     = engineAlgorithm[sha512.State]{&sha512.Spec384, sha512Family, sha512.Singles, sha512.Multis, sha512.Batches}
	sha512Engine     = engineAlgorithm[sha512.State]{&sha512.Spec512, sha512Family, sha512.Singles, sha512.Multis, sha512.Batches}
	sha512_224Engine = engineAlgorithm[sha512.State]{&sha512.Spec512_224, sha512Family, sha512.Singles, sha512.Multis, sha512.Batches}
	sha512_256Engine = engineAlgorithm[sha512.State]{&sha512.Spec512_256, sha512Family, sha512.Singles, sha512.Multis, sha512.Batches}
)

func (e *engineAlgorithm[S]) family() *tuning.Family { return e.fam.get() }

// kernels lists the kernels that run at level l.
func (e *engineAlgorithm[S]) kernels(l cpu.Level) engine.Kernels[S] {
	return kernelsAt(e.singles(), e.multis(), e.batches(e.spec), l)
}

// lazyFamily is the kernel family name, made and registered with the
// tuning on first use (get), in the process's mode (HASHLANES_TUNING),
// measuring the kernels probes lists at the level HASHLANES_CPU allows.
type lazyFamily struct {
	name   string
	probes func() []tuning.Probe
	// made is written on first use, apart from the rest, which the binary
	// holds as initialised data: zero, it lies with the zero data, where
	// the first write finds a page the process has written already. A
	// first write to the initialised data's page is a copy-on-write fault
	// and a TLB shootdown to the process's other threads (docs/engine.md,
	// "Start-up").
	made *familyMade
}

// familyMade is a lazyFamily once made.
type familyMade struct {
	once sync.Once
	fam  *tuning.Family
}

func (l *lazyFamily) get() *tuning.Family {
	m := l.made
	m.once.Do(func() { m.fam = tuning.Register(tuning.NewFamily(l.name, l.probes, tuning.EnvMode)) })
	return m.fam
}

// familyFor is the kernel family of an algorithm on the engine, nil for
// the others.
func familyFor(a Algorithm) *tuning.Family {
	if e := a.mustInfo().engine; e != nil {
		return e.family()
	}
	return nil
}

// otherModes holds the families of servers whose WithTuning differs from
// the process's mode: measured apart, at most once each.
var otherModes struct {
	sync.Mutex
	m map[*tuning.Family]map[tuning.Mode]*tuning.Family
}

// ratesIn is the source of f's rates in mode m: f's own, or a family
// of the same kernels measured apart for a server of another mode.
func ratesIn(f *tuning.Family, m tuning.Mode) tuning.Source {
	if m == f.Mode() || m.Kind == tuning.ModeTable {
		return f.Source(m)
	}
	return otherModeFamily(f, m).Source(m)
}

// otherModeFamily is the family of f's kernels in mode m, made once. Apart
// from ratesIn, whose frame is on the first use's stack (see
// makeDefaultServer).
func otherModeFamily(f *tuning.Family, m tuning.Mode) *tuning.Family {
	otherModes.Lock()
	defer otherModes.Unlock()
	if otherModes.m == nil {
		otherModes.m = map[*tuning.Family]map[tuning.Mode]*tuning.Family{}
	}
	if otherModes.m[f] == nil {
		otherModes.m[f] = map[tuning.Mode]*tuning.Family{}
	}
	g := otherModes.m[f][m]
	if g == nil {
		g = tuning.NewFamily(f.Name(), f.Probes, m)
		otherModes.m[f][m] = g
	}
	return g
}
