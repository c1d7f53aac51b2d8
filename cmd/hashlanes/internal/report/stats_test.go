package report

import (
	"math"
	"testing"
)

func TestMedianSpread(t *testing.T) {
	for _, c := range []struct {
		xs             []float64
		median, spread float64
	}{
		{[]float64{3}, 3, 0},
		{[]float64{1, 3}, 2, 0.5},
		{[]float64{10, 9, 11, 10, 30}, 10, 2},
		{[]float64{4, 1, 3, 2}, 2.5, 0.6},
	} {
		xs := append([]float64(nil), c.xs...)
		if m, s := Median(c.xs), Spread(c.xs); math.Abs(m-c.median) > 1e-12 || math.Abs(s-c.spread) > 1e-12 {
			t.Errorf("%v: median %v spread %v, want %v %v", c.xs, m, s, c.median, c.spread)
		}
		for i := range xs {
			if xs[i] != c.xs[i] {
				t.Fatalf("Median reordered its input")
			}
		}
	}
	if !math.IsNaN(Median(nil)) || !math.IsNaN(Spread(nil)) {
		t.Error("no samples should give NaN")
	}
}
