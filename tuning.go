package hashlanes

import (
	"fmt"
	"strings"

	"github.com/hashlanes/hashlanes/internal/tuning"
)

// TuningEnvError reports a HASHLANES_TUNING value that could not be
// honoured; nil when there is none.
func TuningEnvError() error { return tuning.EnvErr }

// Tuning describes where the default servers' kernel rates come from:
// the mode (HASHLANES_TUNING), the prior for this CPU, and the wisdom file
// (used, absent, or ignored and why).
func Tuning() string {
	var s string
	switch prior, exact := md5Family.get().Prior(); {
	case prior == nil:
		s = fmt.Sprintf("mode %s; %s", tuning.EnvMode, tuning.NoPrior())
	case exact:
		s = fmt.Sprintf("mode %s; prior %s", tuning.EnvMode, prior.Name)
	default:
		s = fmt.Sprintf("mode %s; prior %s (nearest)", tuning.EnvMode, prior.Name)
	}
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
