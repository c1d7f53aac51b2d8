package hashlanes

import (
	"fmt"
	"strings"
	"sync"

	"github.com/hashlanes/hashlanes/internal/cpu"
	"github.com/hashlanes/hashlanes/internal/kernel"
	"github.com/hashlanes/hashlanes/internal/tuning"
)

// newFamily registers a kernel family with the tuning, in the process's
// mode (HASHLANES_TUNING), measuring the kernels HASHLANES_CPU allows.
func newFamily[S any](name string, blockSize int, singles []kernel.Single[S], multis []kernel.Multi[S]) *tuning.Family {
	return tuning.Register(tuning.NewFamily(name, tuning.Probes(blockSize, singles, multis, cpu.Active), tuning.EnvMode))
}

// familyFor is the kernel family of an algorithm on the engine, nil for
// the others.
func familyFor(a Algorithm) *tuning.Family {
	if e := a.mustInfo().engine; e != nil {
		return e.family()
	}
	return nil
}

// The SumMany cut-off of each algorithm on the engine, for hashlanes tune.
func init() {
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
}

// otherModes holds the families of servers whose WithTuning differs from
// the process's mode: measured apart, at most once each.
var otherModes struct {
	sync.Mutex
	m map[*tuning.Family]map[tuning.Mode]*tuning.Family
}

// familyOf is the source of f's rates in mode m.
func familyOf(f *tuning.Family, m tuning.Mode) tuning.Source {
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
		g = tuning.NewFamily(f.Name(), f.Probes(), m)
		otherModes.m[f][m] = g
	}
	return g.Source(m)
}

// WithTuning sets where a Server's kernel rates come from, as the
// environment variable HASHLANES_TUNING does for the default servers:
//
//   - "auto" (the default): the wisdom file `hashlanes tune` wrote for
//     this CPU and build if there is one, else a measurement of a few
//     milliseconds the first time the server has a choice to make (two
//     streams ready at once, or a batch of messages); until then the
//     prior, the rates of the nearest known CPU;
//   - "measure": the measurement, whatever the wisdom file says;
//   - "file": the wisdom file, else the prior;
//   - "table": the prior alone, never measured or refined;
//     "table:NAME" the prior of that name ("zen3", "zen4", "goldencove").
//
// Except in table modes, the rounds the server runs are timed and refine
// the rates as it goes. NewServer panics on a mode it does not know;
// [ParseTuning] checks one.
func WithTuning(mode string) Option {
	return func(o *options) { o.tuning = mustMode(mode) }
}

// ParseTuning reports whether mode is one WithTuning and HASHLANES_TUNING
// accept.
func ParseTuning(mode string) error {
	_, err := tuning.ParseMode(mode)
	return err
}

func mustMode(s string) tuning.Mode {
	m, err := tuning.ParseMode(s)
	if err != nil {
		panic(err)
	}
	return m
}

// TuningEnvError reports a HASHLANES_TUNING value that could not be
// honoured; nil when there is none.
func TuningEnvError() error { return tuning.EnvErr }

// Tuning describes where the default servers' kernel rates come from:
// the mode (HASHLANES_TUNING), the prior for this CPU, and the wisdom file
// (used, absent, or ignored and why).
func Tuning() string {
	prior, exact := md5Family.Prior()
	p := prior.Name
	if !exact {
		p += " (nearest)"
	}
	s := fmt.Sprintf("mode %s; prior %s", tuning.EnvMode, p)
	if tuning.EnvMode.Kind == tuning.ModeTable || tuning.EnvMode.Kind == tuning.ModeMeasure {
		return s
	}
	switch _, path, err := tuning.LoadWisdom(); {
	case err == nil:
		s += "; wisdom file " + path
	case err == tuning.ErrNoWisdom:
		s += "; no wisdom file (" + path + ")"
	default:
		s += fmt.Sprintf("; wisdom file %s ignored: %v", path, err)
	}
	return s
}

// TuningInfo says where a Server's kernel rates come from and what they
// choose.
type TuningInfo struct {
	// Origin is where the rates come from: "measured in 1.2 ms", "file
	// PATH", "prior zen4 (nearest)"; for a server on its reference
	// implementation, that package.
	Origin string
	// Choices is the kernel a round runs with 1, 2, ... 32 streams
	// ready: Choices[b-1] for b.
	Choices []KernelChoice
}

// KernelChoice is the kernel a round runs with Streams streams ready, the
// lanes it takes (the others wait for the next round; a single-stream
// kernel takes them one after another) and the MB/s expected of it.
type KernelChoice struct {
	Streams int
	Kernel  string
	Lanes   int
	MBps    float64
}

// Tuning returns where the server's rates come from and what they choose.
func (s *Server) Tuning() TuningInfo {
	if s.choice == nil {
		return TuningInfo{Origin: s.kernel()}
	}
	info := TuningInfo{Origin: s.choice.Origin()}
	for _, c := range s.choice.Choices() {
		info.Choices = append(info.Choices, KernelChoice{Streams: c.Ready, Kernel: c.Name, Lanes: c.Lanes, MBps: c.Rate})
	}
	return info
}

// Calibrate makes now the measurement the server's tuning would make the
// first time it has a choice (a few milliseconds, once per process and
// kernel family), so that a program sensitive to latency pays it at start.
// It does nothing where there is nothing to measure.
func (s *Server) Calibrate() {
	if s.choice != nil {
		s.choice.Prepare(2)
		s.sumManyCutoff()
	}
}

// String writes the choices as ranges of stream counts:
// "1 shani; 2-4 shanix2; 5-32 avx512zmmx16".
func (t TuningInfo) String() string {
	var b strings.Builder
	for i := 0; i < len(t.Choices); {
		j := i
		for j+1 < len(t.Choices) && t.Choices[j+1].Kernel == t.Choices[i].Kernel {
			j++
		}
		if b.Len() > 0 {
			b.WriteString("; ")
		}
		if i == j {
			fmt.Fprintf(&b, "%d %s", t.Choices[i].Streams, t.Choices[i].Kernel)
		} else {
			fmt.Fprintf(&b, "%d-%d %s", t.Choices[i].Streams, t.Choices[j].Streams, t.Choices[i].Kernel)
		}
		i = j + 1
	}
	return b.String()
}
