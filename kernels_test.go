package hashlanes

import (
	"testing"

	"github.com/hashlanes/hashlanes/internal/cpu"
	"github.com/hashlanes/hashlanes/internal/cpu/cputest"
	"github.com/hashlanes/hashlanes/internal/kernel/sha1"
)

// TestKernelChoice pins the crossover tables written next to the kernels'
// rates (md5.go, sha1.go, sha256.go, sha512.go): for each microarchitecture
// measured, at its highest tier, the kernel a round runs for each count of
// ready streams, and the lanes it takes. A change of rates that moves a
// crossover has to move its table. The choice depends on the tables, not
// on this CPU, so every table is checked on any CPU with SHA-NI.
func TestKernelChoice(t *testing.T) {
	cputest.RequireFeatures(t, cpu.SHA) // the SHA-1 and SHA-256 tables assume SHA-NI
	type span struct {
		upTo   int // the last ready count the kernel takes
		kernel string
		lanes  int // 0: as many as are ready
	}
	type choice func(l cpu.Level, m cpu.Microarch, ready int) (string, int)
	md5Choice := func(l cpu.Level, m cpu.Microarch, b int) (string, int) { k := md5Kernels(l, m); return k.Choice(b) }
	sha1Choice := func(l cpu.Level, m cpu.Microarch, b int) (string, int) { k := sha1Kernels(l, m); return k.Choice(b) }
	sha256Choice := func(l cpu.Level, m cpu.Microarch, b int) (string, int) {
		k := sha256Kernels(sha256Spec256, l, m)
		return k.Choice(b)
	}
	sha512Choice := func(l cpu.Level, m cpu.Microarch, b int) (string, int) {
		k := sha512Kernels(sha512Spec512, l, m)
		return k.Choice(b)
	}
	for _, c := range []struct {
		alg    string
		m      cpu.Microarch
		l      cpu.Level
		choice choice
		table  []span
	}{
		{"md5", cpu.Zen4, cpu.AVX512, md5Choice,
			[]span{{1, "amd64", 0}, {16, "avx512x16", 0}, {24, "avx512x16", 16}, {32, "avx512x32", 0}}},
		{"sha1", cpu.Zen4, cpu.AVX512, sha1Choice,
			[]span{{1, "shani", 0}, {3, "shanix2", 2}, {10, "shanix2+avx512x8", 0}, {14, "shanix2+avx512x8", 10}, {16, "avx512x16", 0}, {32, "avx512x16", 16}}},
		{"sha256", cpu.Zen4, cpu.AVX512, sha256Choice,
			[]span{{1, "shani", 0}, {6, "shanix2", 2}, {10, "shanix2+avx512x8", 0}, {32, "shanix2+avx512x8", 10}}},
		{"sha512", cpu.Zen4, cpu.AVX512, sha512Choice,
			[]span{{1, "stdlib", 0}, {8, "avx512x8", 0}, {32, "avx512x8", 8}}},
		{"md5", cpu.Zen3, cpu.AVX2, md5Choice,
			[]span{{1, "amd64", 0}, {2, "amd64x2", 0}, {16, "avx2x16", 0}, {32, "avx2x16", 16}}},
		{"sha1", cpu.Zen3, cpu.AVX2, sha1Choice,
			[]span{{1, "shani", 0}, {2, "shanix2", 0}, {4, "shanix4", 0}, {32, "shanix4", 4}}},
		{"sha256", cpu.Zen3, cpu.AVX2, sha256Choice,
			[]span{{1, "shani", 0}, {3, "shanix2", 2}, {4, "shanix4", 0}, {32, "shanix4", 4}}},
		{"sha512", cpu.Zen3, cpu.AVX2, sha512Choice,
			[]span{{1, "stdlib", 0}, {4, "avx2x4", 0}, {32, "avx2x4", 4}}},
		{"md5", cpu.GoldenCove, cpu.AVX512, md5Choice,
			[]span{{1, "amd64", 0}, {2, "amd64x2", 0}, {16, "avx512x16", 0}, {29, "avx512x16", 16}, {32, "avx512x32", 0}}},
		{"sha1", cpu.GoldenCove, cpu.AVX512, sha1Choice,
			[]span{{1, "shani", 0}, {2, "shanix2", 0}, {4, "shanix2", 2}, {16, "zmmx16", 0}, {32, "zmmx16", 16}}},
		{"sha256", cpu.GoldenCove, cpu.AVX512, sha256Choice,
			[]span{{1, "shani", 0}, {2, "shanix2", 0}, {3, "shanix2", 2}, {4, "shanix4", 0}, {5, "shanix4", 4}, {10, "shanix2+avx512x8", 0}, {13, "shanix2+avx512x8", 10}, {16, "zmmx16", 0}, {32, "zmmx16", 16}}},
		{"sha512", cpu.GoldenCove, cpu.AVX512, sha512Choice,
			[]span{{1, "stdlib", 0}, {8, "zmmx8", 0}, {32, "zmmx8", 8}}},
	} {
		b := 1
		for _, s := range c.table {
			for ; b <= s.upTo; b++ {
				want := s.lanes
				if want == 0 {
					want = b
				}
				if name, lanes := c.choice(c.l, c.m, b); name != s.kernel || lanes != want {
					t.Errorf("%s on %v, %d ready: %s on %d lanes, want %s on %d", c.alg, c.m, b, name, lanes, s.kernel, want)
				}
			}
		}
	}
}

// TestUnmeasuredKernelsLeftOut checks that a kernel without a rate on the
// tuning microarchitecture is never run there: Zen 4's rates leave out the
// four-stream SHA-NI kernels and the ZMM lanes, which were not measured on
// it.
func TestUnmeasuredKernelsLeftOut(t *testing.T) {
	cputest.RequireFeatures(t, cpu.SHA)
	k := sha256Kernels(sha256Spec256, cpu.AVX2, cpu.Zen4)
	for _, m := range k.Multi {
		if m.Name == "shanix4" {
			t.Errorf("shanix4 offered on Zen 4, where it has no measured rate")
		}
	}
	for _, m := range sha512Kernels(sha512Spec512, cpu.AVX512, cpu.Zen4).Multi {
		if m.Name == "zmmx8" {
			t.Errorf("zmmx8 offered on Zen 4, where it has no measured rate")
		}
	}
	if k := sha1Kernels(cpu.AVX2, cpu.Zen3); len(k.Multi) == 0 || k.Multi[0].Name != "shanix2" {
		t.Errorf("SHA-1 on Zen 3 offers %v, want shanix2 first", k.Multi)
	}
}

// TestBatchChoice checks that a batch kernel in 512-bit forms runs only
// where its block kernel was measured: Golden Cove, not Zen 4.
func TestBatchChoice(t *testing.T) {
	cputest.Require(t, cpu.AVX512)
	if len(sha1.Batches()) == 0 {
		t.Skip("no batch kernels in this build (purego)")
	}
	for m, want := range map[cpu.Microarch]string{cpu.Zen4: "avx512x16", cpu.GoldenCove: "zmmx16"} {
		k := sha256Kernels(sha256Spec256, cpu.AVX512, m)
		if len(k.Batch) != 1 || k.Batch[0].Name != want {
			t.Errorf("SHA-256 batch kernels on %v: %v, want only %s", m, k.Batch, want)
		}
	}
	for m, want := range map[cpu.Microarch]string{cpu.Zen4: "avx512x16", cpu.GoldenCove: "zmmx16"} {
		k := sha1Kernels(cpu.AVX512, m)
		if len(k.Batch) != 1 || k.Batch[0].Name != want {
			t.Errorf("SHA-1 batch kernels on %v: %v, want only %s", m, k.Batch, want)
		}
	}
	for m, want := range map[cpu.Microarch]string{cpu.Zen4: "avx512x8", cpu.GoldenCove: "zmmx8"} {
		k := sha512Kernels(sha512Spec384, cpu.AVX512, m)
		if len(k.Batch) != 1 || k.Batch[0].Name != want {
			t.Errorf("SHA-384 batch kernels on %v: %v, want only %s", m, k.Batch, want)
		}
	}
}
