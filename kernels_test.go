package hashlanes

import (
	"testing"

	"github.com/hashlanes/hashlanes/internal/cpu"
	"github.com/hashlanes/hashlanes/internal/cpu/cputest"
)

// TestKernelChoice pins the crossover tables written next to the kernels'
// rates (md5.go, sha1.go, sha256.go, sha512.go): the kernel a round runs
// at the AVX-512 tier for each count of ready streams, and the lanes it
// takes. A change of rates that moves a crossover has to move its table.
func TestKernelChoice(t *testing.T) {
	cputest.RequireFeatures(t, cpu.SHA) // the SHA-1 and SHA-256 tables assume SHA-NI
	l := cpu.AVX512
	type span struct {
		upTo   int // the last ready count the kernel takes
		kernel string
		lanes  int // 0: as many as are ready
	}
	for _, c := range []struct {
		alg    string
		choice func(ready int) (string, int)
		table  []span
	}{
		{"md5", func(b int) (string, int) { k := md5Kernels(l); return k.Choice(b) },
			[]span{{1, "amd64", 0}, {16, "avx512x16", 0}, {24, "avx512x16", 16}, {32, "avx512x32", 0}}},
		{"sha1", func(b int) (string, int) { k := sha1Kernels(l); return k.Choice(b) },
			[]span{{1, "shani", 0}, {3, "shanix2", 2}, {10, "shanix2+avx512x8", 0}, {14, "shanix2+avx512x8", 10}, {16, "avx512x16", 0}, {32, "avx512x16", 16}}},
		{"sha256", func(b int) (string, int) { k := sha256Kernels(sha256Spec256, l); return k.Choice(b) },
			[]span{{1, "shani", 0}, {6, "shanix2", 2}, {10, "shanix2+avx512x8", 0}, {32, "shanix2+avx512x8", 10}}},
		{"sha512", func(b int) (string, int) { k := sha512Kernels(sha512Spec512, l); return k.Choice(b) },
			[]span{{1, "stdlib", 0}, {8, "avx512x8", 0}, {32, "avx512x8", 8}}},
	} {
		b := 1
		for _, s := range c.table {
			for ; b <= s.upTo; b++ {
				want := s.lanes
				if want == 0 {
					want = b
				}
				if name, lanes := c.choice(b); name != s.kernel || lanes != want {
					t.Errorf("%s, %d ready: %s on %d lanes, want %s on %d", c.alg, b, name, lanes, s.kernel, want)
				}
			}
		}
	}
}
