package hashlanes

// The options of NewServer.

import "github.com/hashlanes/hashlanes/internal/tuning"

// Option configures a Server.
type Option func(*options)

type options struct {
	cpu    CPU
	tuning tuning.Mode
}

// WithCPU caps the kernels a Server may use at tier c (never above what the
// machine and HASHLANES_CPU allow). WithCPU(CPUGeneric) turns lanes and the
// SHA extensions off.
func WithCPU(c CPU) Option { return func(o *options) { o.cpu = min(o.cpu, c) } }

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
