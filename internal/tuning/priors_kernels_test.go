//go:build amd64 && !purego

package tuning

import (
	"slices"
	"testing"

	"github.com/hashlanes/hashlanes/internal/cpu"
	"github.com/hashlanes/hashlanes/internal/kernel"
	"github.com/hashlanes/hashlanes/internal/kernel/md5"
	"github.com/hashlanes/hashlanes/internal/kernel/sha1"
	"github.com/hashlanes/hashlanes/internal/kernel/sha256"
	"github.com/hashlanes/hashlanes/internal/kernel/sha512"
)

// kernelNames lists the kernels of a family that the engine runs at tier
// l on a CPU with the extensions in has: the best single-stream kernel
// and every multi-lane one but the reference.
func kernelNames[S any](singles []kernel.Single[S], multis []kernel.Multi[S], l cpu.Level, has func(cpu.Feature) bool) []string {
	runs := func(level cpu.Level, needs cpu.Feature) bool {
		return level <= l && (needs == 0 || l > cpu.Generic && has(needs))
	}
	var names []string
	for _, s := range singles {
		if runs(s.Level, s.Needs) {
			names = append(names[:0], s.Name) // the last one allowed
		}
	}
	for _, m := range multis {
		if !m.Reference && runs(m.Level, m.Needs) {
			names = append(names, m.Name)
		}
	}
	return names
}

// leftOut lists the kernels a prior leaves out on purpose, so that the
// engine never runs them on its CPU.
var leftOut = map[string]bool{
	// Faster alone than avx512zmmx16 at 4-7 streams, slower in the engine,
	// whose rounds its fast lanes cut short (docs/figures.md, "512-bit
	// transposes, and the SHA-1 hybrid left out").
	"goldencove/sha1/shanix2+avx512ymmx8": true,
}

// TestPriorsRateEveryKernel checks that each prior has a rate for every
// kernel the engine runs on the CPU the prior describes, but those it
// leaves out on purpose. A kernel without one never runs in a process that
// has not measured its kernels (every process that hashes less than the
// calibration's threshold): a prior written before the kernel existed
// hides it there, as Zen 4's hid shanix4, amd64x2 and the ZMM kernels.
func TestPriorsRateEveryKernel(t *testing.T) {
	for _, p := range priors() {
		l := cpu.AVX2
		if slices.Contains(p.CPU.Features, "avx512f") {
			l = cpu.AVX512
		}
		has := func(f cpu.Feature) bool { return f == cpu.SHA && slices.Contains(p.CPU.Features, "sha") }
		for fam, names := range map[string][]string{
			"md5":    kernelNames(md5.Singles(), md5.Multis(), l, has),
			"sha1":   kernelNames(sha1.Singles(), sha1.Multis(), l, has),
			"sha256": kernelNames(sha256.Singles(), sha256.Multis(), l, has),
			"sha512": kernelNames(sha512.Singles(), sha512.Multis(), l, has),
		} {
			for _, name := range names {
				r := p.Families[fam]
				rated := r != nil && r.Kernels[name] > 0
				switch key := p.Name + "/" + fam + "/" + name; {
				case leftOut[key] && rated:
					t.Errorf("prior %s now rates %s kernel %s: take it off leftOut", p.Name, fam, name)
				case !leftOut[key] && !rated:
					t.Errorf("prior %s has no rate for %s kernel %s", p.Name, fam, name)
				}
			}
		}
	}
}
