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
	md5Family    = lazyFamily("md5", md5.BlockSize, md5.Singles, md5.Multis)
	sha1Family   = lazyFamily("sha1", sha1.BlockSize, sha1.Singles, sha1.Multis)
	sha256Family = lazyFamily("sha256", sha256.BlockSize, sha256.Singles, sha256.Multis)
	sha512Family = lazyFamily("sha512", sha512.BlockSize, sha512.Singles, sha512.Multis)
)

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

type engineAlgorithm[S any] struct {
	spec    *kernel.Spec[S]
	fam     func() *tuning.Family
	singles []kernel.Single[S]
	multis  []kernel.Multi[S]
	batches []kernel.Batch // set up for spec's algorithm
}

func (e engineAlgorithm[S]) family() *tuning.Family { return e.fam() }

// kernels lists the kernels that run at level l.
func (e engineAlgorithm[S]) kernels(l cpu.Level) engine.Kernels[S] {
	return kernelsAt(e.singles, e.multis, e.batches, l)
}

// lazyFamily returns the kernel family name, made and registered with the
// tuning on first use, in the process's mode (HASHLANES_TUNING), measuring
// the kernels HASHLANES_CPU allows.
func lazyFamily[S any](name string, blockSize int, singles func() []kernel.Single[S], multis func() []kernel.Multi[S]) func() *tuning.Family {
	return sync.OnceValue(func() *tuning.Family {
		probes := func() []tuning.Probe { return tuning.Probes(blockSize, singles(), multis(), cpu.Active) }
		return tuning.Register(tuning.NewFamily(name, probes, tuning.EnvMode))
	})
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
	return g.Source(m)
}
