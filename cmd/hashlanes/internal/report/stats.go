// Package bench measures hash functions the way hashlanes bench reports
// them: suites of rows, each timed several times after a warm-up, summed
// up by median and spread, and written as tables, Go benchmark lines,
// JSON, Markdown, charts and an HTML report.
package report

import (
	"math"
	"slices"
)

// Median returns the middle of xs (the mean of the two middle values for
// an even count); NaN for none.
func Median(xs []float64) float64 {
	if len(xs) == 0 {
		return math.NaN()
	}
	s := slices.Clone(xs)
	slices.Sort(s)
	n := len(s)
	if n%2 == 1 {
		return s[n/2]
	}
	return (s[n/2-1] + s[n/2]) / 2
}

// Spread returns how far the samples stray from their median, as a
// fraction of it: the largest distance of any sample. 0.05 reads "± 5 %".
func Spread(xs []float64) float64 {
	m := Median(xs)
	if len(xs) == 0 || m == 0 {
		return math.NaN()
	}
	d := 0.0
	for _, x := range xs {
		d = max(d, math.Abs(x-m))
	}
	return d / m
}

// NoisyAbove is the spread beyond which a row is marked noisy: its median
// should not be trusted to better than that.
const NoisyAbove = 0.10
