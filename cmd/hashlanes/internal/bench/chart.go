package bench

import (
	"bytes"
	"fmt"
	"image/color"
	"sort"

	"github.com/hashlanes/hashlanes/internal/workload"
	"gonum.org/v1/plot"
	"gonum.org/v1/plot/plotter"
	"gonum.org/v1/plot/plotutil"
	"gonum.org/v1/plot/vg"
)

// Chart sizes, in the units gonum/plot draws with.
const (
	chartWidth  = 9 * vg.Inch
	chartHeight = 5.5 * vg.Inch
)

// ThroughputChart draws MB/s against message size (log scale) for every
// algorithm and implementation of the algos suite, or nil if the suite
// did not run.
func ThroughputChart(rows []Row) (*plot.Plot, error) {
	series := map[string]plotter.XYs{}
	for _, r := range rows {
		if r.Suite != "algos" {
			continue
		}
		name := r.Alg
		if r.Impl == "hashlanes" {
			name += " (hashlanes)"
		}
		series[name] = append(series[name], plotter.XY{X: float64(r.Size), Y: r.MBps()})
	}
	if len(series) == 0 {
		return nil, nil
	}
	p := plot.New()
	p.Title.Text = "Throughput by message size (one core)"
	p.X.Label.Text = "message size (bytes)"
	p.Y.Label.Text = "MB/s (log scale)"
	p.Y.Scale = plot.LogScale{}
	p.Y.Tick.Marker = plot.LogTicks{Prec: -1}
	p.X.Scale = plot.LogScale{}
	p.X.Tick.Marker = sizeTicks{}
	p.Add(plotter.NewGrid())
	names := make([]string, 0, len(series))
	for n := range series {
		names = append(names, n)
	}
	sort.Strings(names)
	for i, n := range names {
		pts := series[n]
		sort.Slice(pts, func(a, b int) bool { return pts[a].X < pts[b].X })
		l, s, err := plotter.NewLinePoints(pts)
		if err != nil {
			return nil, err
		}
		l.Color, s.Color = plotutil.Color(i), plotutil.Color(i)
		l.Dashes = plotutil.Dashes(i / 7)
		s.Shape = plotutil.Shape(i % 7)
		p.Add(l, s)
		p.Legend.Add(n, l, s)
	}
	p.Legend.Top = true
	p.Legend.Left = true
	p.Legend.TextStyle.Font.Size = vg.Points(8)
	return p, nil
}

// sizeTicks marks powers of two in KiB/MiB.
type sizeTicks struct{}

func (sizeTicks) Ticks(min, max float64) []plot.Tick {
	var ts []plot.Tick
	for v := 64.0; v <= max*1.01; v *= 4 {
		if v >= min/1.01 {
			ts = append(ts, plot.Tick{Value: v, Label: workload.SizeName(int64(v))})
		}
	}
	return ts
}

// LanesChart draws, for each stream count, hashlanes' speed-up over the
// reference implementation, one bar per algorithm; nil if the lanes suite
// did not run.
func LanesChart(rows []Row) (*plot.Plot, error) {
	ref := map[string]float64{}
	for _, r := range rows {
		if r.Suite == "lanes" && r.Impl != "hashlanes" {
			ref[fmt.Sprint(r.Alg, "/", r.Streams)] = r.MBps()
		}
	}
	speedups := map[string]map[int]float64{}
	var algs []string
	for _, r := range rows {
		if r.Suite != "lanes" || r.Impl != "hashlanes" {
			continue
		}
		b := ref[fmt.Sprint(r.Alg, "/", r.Streams)]
		if b == 0 {
			continue
		}
		if speedups[r.Alg] == nil {
			speedups[r.Alg] = map[int]float64{}
			algs = append(algs, r.Alg)
		}
		speedups[r.Alg][r.Streams] = r.MBps() / b
	}
	if len(algs) == 0 {
		return nil, nil
	}
	p := plot.New()
	p.Title.Text = "Concurrent streams: hashlanes ÷ reference implementation"
	p.Y.Label.Text = "speed-up (×)"
	p.X.Label.Text = "concurrent streams"
	p.Add(plotter.NewGrid())
	w := vg.Points(14)
	for i, a := range algs {
		vals := make(plotter.Values, len(LaneCounts))
		for k, n := range LaneCounts {
			vals[k] = speedups[a][n]
		}
		bars, err := plotter.NewBarChart(vals, w)
		if err != nil {
			return nil, err
		}
		bars.Color = plotutil.Color(i)
		bars.LineStyle.Width = 0
		bars.Offset = w * vg.Length(float64(i)-float64(len(algs)-1)/2)
		p.Add(bars)
		p.Legend.Add(a, bars)
	}
	top := 1.0
	for _, m := range speedups {
		for _, v := range m {
			top = max(top, v)
		}
	}
	p.Y.Min, p.Y.Max = 0, top*1.1
	one := plotter.NewFunction(func(float64) float64 { return 1 })
	one.Color = color.Gray{Y: 90}
	one.Dashes = []vg.Length{vg.Points(4), vg.Points(3)}
	p.Add(one)
	labels := make([]string, len(LaneCounts))
	for k, n := range LaneCounts {
		labels[k] = fmt.Sprint(n)
	}
	p.NominalX(labels...)
	p.Legend.Top = true
	p.Legend.Left = true
	return p, nil
}

// Render draws a chart as "svg" or "png".
func Render(p *plot.Plot, format string) ([]byte, error) {
	wt, err := p.WriterTo(chartWidth, chartHeight, format)
	if err != nil {
		return nil, err
	}
	var b bytes.Buffer
	if _, err := wt.WriteTo(&b); err != nil {
		return nil, err
	}
	return b.Bytes(), nil
}
