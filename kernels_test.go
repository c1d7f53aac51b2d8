package hashlanes

import (
	"runtime"
	"slices"
	"testing"

	"github.com/hashlanes/hashlanes/internal/cpu"
	"github.com/hashlanes/hashlanes/internal/cpu/cputest"
	"github.com/hashlanes/hashlanes/internal/engine"
	"github.com/hashlanes/hashlanes/internal/kernel"
	"github.com/hashlanes/hashlanes/internal/kernel/md5"
	"github.com/hashlanes/hashlanes/internal/kernel/sha1"
	"github.com/hashlanes/hashlanes/internal/kernel/sha256"
	"github.com/hashlanes/hashlanes/internal/kernel/sha512"
	"github.com/hashlanes/hashlanes/internal/tuning"
)

// priorChoice returns the kernel a round runs, and the lanes it takes,
// for ready streams at level l by the rates of the prior named prior.
type priorChoice func(l cpu.Level, prior string, ready int) (string, int)

// priorServer is algorithm a's engine at level l, choosing by the rates
// of the prior named prior.
func priorServer[S any](a Algorithm, l cpu.Level, prior string) *engine.Server[S] {
	e := algorithmInfo[a].engine.(*engineAlgorithm[S])
	return engine.NewServer(e.spec, e.kernels(l), e.fam.get().Source(tuning.Mode{Kind: tuning.ModeTable, Prior: prior}))
}

func choiceBy[S any](a Algorithm) priorChoice {
	return func(l cpu.Level, prior string, ready int) (string, int) {
		c := priorServer[S](a, l, prior).Choice().Choices()[ready-1]
		return c.Name, c.Lanes
	}
}

var (
	md5Choice    = choiceBy[md5.State](MD5)
	sha1Choice   = choiceBy[sha1.State](SHA1)
	sha256Choice = choiceBy[sha256.State](SHA256)
	sha512Choice = choiceBy[sha512.State](SHA512)
)

// TestKernelChoice pins the choices the priors make (internal/tuning/
// priors): for each microarchitecture measured, at its highest tier, the
// kernel a round runs for each count of ready streams, and the lanes it
// takes. These are the crossover tables measured on those machines
// (docs/figures.md); a prior measured again that moves a crossover has
// to move its table here. The choice depends on the priors, not on this
// CPU, so every table is checked on any CPU with SHA-NI.
func TestKernelChoice(t *testing.T) {
	if runtime.GOARCH != "amd64" {
		t.Skip("the priors and the kernels they rate are amd64's")
	}
	cputest.RequireFeatures(t, cpu.SHA) // the SHA-1 and SHA-256 tables assume SHA-NI
	type span struct {
		upTo   int // the last ready count the kernel takes
		kernel string
		lanes  int // 0: as many as are ready
	}
	for _, c := range []struct {
		alg    string
		prior  string
		l      cpu.Level
		choice priorChoice
		table  []span
	}{
		{"md5", "zen4", cpu.AVX512, md5Choice,
			[]span{{1, "amd64", 0}, {2, "amd64x2", 0}, {16, "avx512ymmx16", 0}, {22, "avx512ymmx16", 16}, {32, "avx512ymmx32", 0}}},
		{"sha1", "zen4", cpu.AVX512, sha1Choice,
			[]span{{1, "shani", 0}, {2, "shanix2", 0}, {3, "shanix2", 2}, {4, "shanix4", 0}, {10, "shanix2+avx512ymmx8", 0}, {14, "shanix2+avx512ymmx8", 10}, {16, "avx512ymmx16", 0}, {32, "avx512ymmx16", 16}}},
		{"sha256", "zen4", cpu.AVX512, sha256Choice,
			[]span{{1, "shani", 0}, {2, "shanix2", 0}, {3, "shanix2", 2}, {4, "shanix4", 0}, {9, "shanix4", 4}, {10, "shanix2+avx512ymmx8", 0}, {32, "shanix2+avx512ymmx8", 10}}},
		{"sha512", "zen4", cpu.AVX512, sha512Choice,
			[]span{{2, "avx512", 0}, {4, "avx2x4", 0}, {8, "avx512ymmx8", 0}, {32, "avx512ymmx8", 8}}},
		{"md5", "zen3", cpu.AVX2, md5Choice,
			[]span{{1, "amd64", 0}, {2, "amd64x2", 0}, {16, "avx2x16", 0}, {32, "avx2x16", 16}}},
		{"sha1", "zen3", cpu.AVX2, sha1Choice,
			[]span{{1, "shani", 0}, {2, "shanix2", 0}, {4, "shanix4", 0}, {32, "shanix4", 4}}},
		{"sha256", "zen3", cpu.AVX2, sha256Choice,
			[]span{{1, "shani", 0}, {3, "shanix2", 2}, {4, "shanix4", 0}, {32, "shanix4", 4}}},
		{"sha512", "zen3", cpu.AVX2, sha512Choice,
			[]span{{1, "avx2", 0}, {4, "avx2x4", 0}, {32, "avx2x4", 4}}},
		{"md5", "goldencove", cpu.AVX512, md5Choice,
			[]span{{1, "amd64", 0}, {16, "avx512zmmx16", 0}, {27, "avx512zmmx16", 16}, {32, "avx512zmmx32", 0}}},
		{"sha1", "goldencove", cpu.AVX512, sha1Choice,
			[]span{{1, "shani", 0}, {2, "shanix2", 0}, {4, "shanix2", 2}, {16, "avx512zmmx16", 0}, {32, "avx512zmmx16", 16}}},
		{"sha256", "goldencove", cpu.AVX512, sha256Choice,
			[]span{{1, "shani", 0}, {2, "shanix2", 0}, {3, "shanix2", 2}, {4, "shanix4", 0}, {5, "shanix4", 4}, {10, "shanix2+avx512ymmx8", 0}, {13, "shanix2+avx512ymmx8", 10}, {16, "avx512zmmx16", 0}, {32, "avx512zmmx16", 16}}},
		{"sha512", "goldencove", cpu.AVX512, sha512Choice,
			[]span{{2, "avx512", 0}, {8, "avx512zmmx8", 0}, {32, "avx512zmmx8", 8}}},
	} {
		b := 1
		for _, s := range c.table {
			for ; b <= s.upTo; b++ {
				want := s.lanes
				if want == 0 {
					want = b
				}
				if singleKernels[s.kernel] {
					want = b // the single-stream kernel takes them one after another
				}
				if name, lanes := c.choice(c.l, c.prior, b); name != s.kernel || lanes != want {
					t.Errorf("%s on %s, %d ready: %s on %d lanes, want %s on %d", c.alg, c.prior, b, name, lanes, s.kernel, want)
				}
			}
		}
	}
}

// singleKernels names the single-stream kernels of the tables above.
var singleKernels = map[string]bool{"amd64": true, "shani": true, "avx2": true, "avx512": true}

// TestLonePickWithoutTable checks the choice for one stream made before
// any table is built (what a process's first write asks) against the
// table's, for every prior, tier and kernel family, with and without the
// hybrid kernels.
func TestLonePickWithoutTable(t *testing.T) {
	if runtime.GOARCH != "amd64" {
		t.Skip("the priors and the kernels they rate are amd64's")
	}
	cputest.RequireFeatures(t, cpu.SHA)
	choosers := func(prior string, l cpu.Level) map[string]*tuning.Chooser {
		return map[string]*tuning.Chooser{
			"md5":    priorServer[md5.State](MD5, l, prior).Choice(),
			"sha1":   priorServer[sha1.State](SHA1, l, prior).Choice(),
			"sha256": priorServer[sha256.State](SHA256, l, prior).Choice(),
			"sha512": priorServer[sha512.State](SHA512, l, prior).Choice(),
		}
	}
	for _, prior := range tuning.PriorNames() {
		for _, l := range []cpu.Level{cpu.Generic, cpu.AVX2, cpu.AVX512} {
			for fam, c := range choosers(prior, l) {
				var before [2][2]int
				for h := range 2 {
					before[h][0], before[h][1] = c.Pick(1, h == 1)
				}
				c.Rate(2) // builds the table
				for h := range 2 {
					if k, lanes := c.Pick(1, h == 1); k != before[h][0] || lanes != before[h][1] {
						t.Errorf("%s on %s at %v, hybrid %v: %d on %d lanes before the table, %d on %d from it",
							fam, prior, l, h == 1, before[h][0], before[h][1], k, lanes)
					}
				}
			}
		}
	}
}

// TestKernelsLeftOutNeverRun checks that a kernel without a rate in the
// prior is never run on it: Golden Cove's rates leave out SHA-1's hybrid
// of SHA-NI streams and YMM lanes on purpose (internal/tuning's leftOut).
func TestKernelsLeftOutNeverRun(t *testing.T) {
	if runtime.GOARCH != "amd64" {
		t.Skip("the priors and the kernels they rate are amd64's")
	}
	cputest.RequireFeatures(t, cpu.SHA)
	for b := 1; b <= tuning.MaxReady; b++ {
		if name, _ := sha1Choice(cpu.AVX512, "goldencove", b); name == "shanix2+avx512ymmx8" {
			t.Errorf("%s chosen for %d streams on Golden Cove, whose prior leaves it out", name, b)
		}
	}
	if name, _ := sha1Choice(cpu.AVX2, "zen3", 2); name != "shanix2" {
		t.Errorf("SHA-1 on Zen 3 runs %s for 2 streams, want shanix2", name)
	}
}

// TestBatchChoice checks which batch kernels SumMany runs by the priors:
// one of each width, the form (256- or 512-bit) whose block kernel moves
// more (the 512-bit ones on Golden Cove, not on Zen 4), and the narrow
// ones that take a batch's last few messages.
func TestBatchChoice(t *testing.T) {
	cputest.Require(t, cpu.AVX512)
	cputest.RequireFeatures(t, cpu.SHA)
	if len(sha1.Batches(&sha1.Spec)) == 0 {
		t.Skip("no batch kernels in this build (purego)")
	}
	check := func(what string, b []kernel.Batch, want ...string) {
		t.Helper()
		var got []string
		for _, k := range b {
			got = append(got, k.Name)
		}
		if !slices.Equal(got, want) {
			t.Errorf("%s: %v, want %v", what, got, want)
		}
	}
	for prior, wide := range map[string]string{"zen4": "avx512ymmx16", "goldencove": "avx512zmmx16"} {
		// Four SHA-NI streams take a batch's last few messages (up to
		// four) in a third of the time of sixteen lanes mostly empty
		// (docs/figures.md, "SumMany of URL paths on SHA-NI").
		check("SHA-256 on "+prior, priorServer[sha256.State](SHA256, cpu.AVX512, prior).Batches(), "shanix4", wide)
		check("SHA-1 on "+prior, priorServer[sha1.State](SHA1, cpu.AVX512, prior).Batches(), "shanix4", wide)
	}
	check("SHA-256 on zen3 (AVX2)", priorServer[sha256.State](SHA256, cpu.AVX2, "zen3").Batches(), "shanix4")
	check("SHA-1 on zen3 (AVX2)", priorServer[sha1.State](SHA1, cpu.AVX2, "zen3").Batches(), "shanix4")
	for prior, want := range map[string][]string{"zen4": {"avx512ymmx16", "avx512ymmx32"}, "goldencove": {"avx512zmmx16", "avx512zmmx32"}} {
		check("MD5 on "+prior, priorServer[md5.State](MD5, cpu.AVX512, prior).Batches(), want...)
	}
	// SHA-512's four AVX2 lanes take a batch's last few messages (up to
	// four), in less time than the eight-lane kernel half empty (docs/
	// figures.md, "isa-l_crypto, side by side").
	for prior, want := range map[string][]string{"zen4": {"avx2x4", "avx512ymmx8"}, "goldencove": {"avx2x4", "avx512zmmx8"}} {
		check("SHA-384 on "+prior, priorServer[sha512.State](SHA384, cpu.AVX512, prior).Batches(), want...)
	}
}

// TestAlgorithmSizesAreTheSpecs checks the algorithm table's sizes, written
// there as constants so that the table is static data (engineDef), against
// the kernel specs the engine hashes with.
func TestAlgorithmSizesAreTheSpecs(t *testing.T) {
	type sizes struct{ size, block int }
	specs := map[Algorithm]sizes{
		MD5:        {md5.Spec.Size, md5.Spec.BlockSize},
		SHA1:       {sha1.Spec.Size, sha1.Spec.BlockSize},
		SHA224:     {sha256.Spec224.Size, sha256.Spec224.BlockSize},
		SHA256:     {sha256.Spec256.Size, sha256.Spec256.BlockSize},
		SHA384:     {sha512.Spec384.Size, sha512.Spec384.BlockSize},
		SHA512:     {sha512.Spec512.Size, sha512.Spec512.BlockSize},
		SHA512_224: {sha512.Spec512_224.Size, sha512.Spec512_224.BlockSize},
		SHA512_256: {sha512.Spec512_256.Size, sha512.Spec512_256.BlockSize},
	}
	for _, a := range Algorithms() {
		want, onEngine := specs[a]
		if onEngine != (algorithmInfo[a].engine != nil) {
			t.Errorf("%v: on the engine %v, with a spec here %v", a, algorithmInfo[a].engine != nil, onEngine)
			continue
		}
		if !onEngine {
			continue
		}
		if got := (sizes{a.Size(), a.BlockSize()}); got != want {
			t.Errorf("%v: table sizes %v, the spec's %v", a, got, want)
		}
	}
}
