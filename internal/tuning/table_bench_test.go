package tuning

import "testing"

// BenchmarkBuildTable is the cost of weighing every kernel for every
// ready count: a server's first choice pays it, in a fresh process too.
// Zen 4's prior for MD5 on AVX-512, the family with the most kernels.
func BenchmarkBuildTable(b *testing.B) {
	i, _ := priorNamed("zen4")
	r := priorRates(i, "md5")
	snap := newSnapshot(kindPrior, r, "zen4")
	multi := []Kernel{{Name: "amd64x2", Lanes: 2}, {Name: "avx2x16", Lanes: 16}, {Name: "avx512ymmx16", Lanes: 16},
		{Name: "avx512ymmx32", Lanes: 32}, {Name: "avx512zmmx16", Lanes: 16}, {Name: "avx512zmmx32", Lanes: 32}}
	c := NewChooser(Fixed(r, "zen4"), Kernel{Name: "amd64", Lanes: 1}, multi)
	for b.Loop() {
		c.build(snap, nil)
	}
}
