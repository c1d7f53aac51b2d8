package report

import (
	"bytes"
	"fmt"
	"image/color"
	"math"
	"slices"
	"strconv"
	"strings"

	"github.com/hashlanes/hashlanes/internal/workload"
	"gonum.org/v1/plot"
	"gonum.org/v1/plot/plotter"
	"gonum.org/v1/plot/plotutil"
	"gonum.org/v1/plot/text"
	"gonum.org/v1/plot/vg"
	"gonum.org/v1/plot/vg/draw"
	"gonum.org/v1/plot/vg/vgimg"
	"gonum.org/v1/plot/vg/vgsvg"
)

// A Chart is small multiples: one panel per family of algorithms, each
// with few enough series that every one has a colour and a marker of
// its own, on axes shared across the panels.
type Chart struct {
	Panels []*plot.Plot
	Cols   int
	// Series names each panel's series in legend order; a series has
	// the colour and marker of its place (plotutil.Color, Shape).
	Series [][]string
}

// add appends a panel and its series' names; a nil panel (a family
// without data) is left out.
func (c *Chart) add(p *plot.Plot, names []string) {
	if p != nil {
		c.Panels = append(c.Panels, p)
		c.Series = append(c.Series, names)
	}
}

// family is a panel: its title and its algorithms, in legend order.
type family struct {
	title string
	algs  []string
}

// throughputFamilies are the throughput chart's panels.
var throughputFamilies = []family{
	{"MD5, SHA-1 (collisions broken)", []string{"md5", "sha1"}},
	{"SHA-224, SHA-256", []string{"sha224", "sha256"}},
	{"SHA-384, SHA-512, SHA-512/t", []string{"sha384", "sha512", "sha512-224", "sha512-256"}},
	{"SHA-3", []string{"sha3-224", "sha3-256", "sha3-384", "sha3-512"}},
	{"BLAKE2, BLAKE3", []string{"blake2b", "blake2s", "blake3"}},
	{"Not cryptographic", []string{"xxh3", "crc32c"}},
}

// lanesFamilies are the lanes chart's panels: the algorithms that share
// kernels side by side.
var lanesFamilies = []family{
	{"MD5, SHA-1 (collisions broken)", []string{"md5", "sha1"}},
	{"SHA-224, SHA-256", []string{"sha224", "sha256"}},
	{"SHA-384, SHA-512, SHA-512/t", []string{"sha384", "sha512", "sha512-224", "sha512-256"}},
}

// point is one value of a series with the range its samples span, and
// the implementation it was measured on.
type point struct {
	x, y, lo, hi float64
	uncertain    bool
	impl         string
}

// ThroughputChart draws MB/s against message size, both on log scales,
// for every algorithm of the algos suite (its faster implementation at
// each size, as the advice picks), a panel per family; nil if the suite
// did not run. Error bars span the samples; an uncertain row is a grey
// ring apart from its line.
func ThroughputChart(rows []Row) (*Chart, error) {
	series := map[string][]point{}
	add := func(r Row) {
		p := point{x: float64(r.Size), y: r.MBps(), uncertain: r.Uncertain != "", impl: r.Impl}
		p.lo, p.hi = rateRange(r)
		series[r.Alg] = append(series[r.Alg], p)
	}
	var sizes []int64
	for _, r := range rows {
		if r.Suite == "algos" && !slices.Contains(sizes, r.Size) {
			sizes = append(sizes, r.Size)
		}
	}
	j := judgeOf(rows)
	for _, size := range sizes {
		picked := map[string]bool{}
		for _, r := range j.bestByAlg(rows, size, func(string) bool { return true }) {
			add(r) // the implementation the advice would name
			picked[r.Alg] = true
		}
		for _, r := range rows { // an algorithm with no certain row here: a ring
			if r.Suite == "algos" && r.Size == size && !picked[r.Alg] {
				add(r)
				picked[r.Alg] = true
			}
		}
	}
	if len(series) == 0 {
		return nil, nil
	}
	lo, hi := extent(series)
	return panels(throughputFamilies, series, func(p *plot.Plot) {
		p.X.Label.Text = "message size"
		p.Y.Label.Text = "MB/s, one core"
		p.X.Scale, p.Y.Scale = plot.LogScale{}, plot.LogScale{}
		p.X.Tick.Marker = sizeTicks(series)
		p.Y.Tick.Marker = rateTicks{}
		p.Y.Min, p.Y.Max = lo/1.5, hi*3
		p.Legend.Left, p.Legend.Top = true, true // small and fast: empty, as small messages are the slowest
	})
}

// panels draws a chart of a panel per family, three to a row, each set up
// by setup (see panel).
func panels(fams []family, series map[string][]point, setup func(*plot.Plot)) (*Chart, error) {
	c := &Chart{Cols: 3}
	for _, f := range fams {
		p, names, err := panel(f, series, setup)
		if err != nil {
			return nil, err
		}
		c.add(p, names)
	}
	return c, nil
}

// rateRange is the MB/s of a row's slowest and fastest samples.
func rateRange(r Row) (lo, hi float64) {
	lo, hi = r.MBps(), r.MBps()
	for _, s := range r.Samples {
		if s > 0 {
			v := float64(r.Bytes) / s * 1e3
			lo, hi = min(lo, v), max(hi, v)
		}
	}
	return lo, hi
}

// extent is the lowest and highest value any series' range reaches.
func extent(series map[string][]point) (lo, hi float64) {
	first := true
	for _, pts := range series {
		for _, p := range pts {
			if first {
				lo, hi, first = p.lo, p.hi, false
			}
			lo, hi = min(lo, p.lo), max(hi, p.hi)
		}
	}
	return lo, hi
}

// panel draws family f's series on a plot that setup has given its
// axes: a line with markers and error bars per algorithm, in the
// family's order, and its uncertain points apart, and returns it with
// the series' names; nil if none of the family's algorithms has a
// series.
func panel(f family, series map[string][]point, setup func(*plot.Plot)) (*plot.Plot, []string, error) {
	p := plot.New()
	p.Title.Text = f.title
	p.Add(plotter.NewGrid())
	setup(p)
	legible(p)
	var odd plotter.XYs // uncertain points of every series
	var names []string
	for i, alg := range f.algs {
		pts := series[alg]
		if len(pts) == 0 {
			continue
		}
		slices.SortFunc(pts, func(a, b point) int {
			switch {
			case a.x < b.x:
				return -1
			case a.x > b.x:
				return 1
			}
			return 0
		})
		var xy plotter.XYs
		var errs plotter.YErrors
		for _, q := range pts {
			if q.uncertain {
				odd = append(odd, plotter.XY{X: q.x, Y: q.y})
				continue
			}
			xy = append(xy, plotter.XY{X: q.x, Y: q.y})
			errs = append(errs, struct{ Low, High float64 }{q.y - q.lo, q.hi - q.y})
		}
		if len(xy) == 0 {
			continue
		}
		l, s, err := plotter.NewLinePoints(xy)
		if err != nil {
			return nil, nil, err
		}
		l.Color, s.Color = plotutil.Color(i), plotutil.Color(i)
		s.Shape = plotutil.Shape(i)
		s.Radius = vg.Points(3)
		bars, err := plotter.NewYErrorBars(struct {
			plotter.XYer
			plotter.YErrorer
		}{xy, errs})
		if err != nil {
			return nil, nil, err
		}
		bars.Color = plotutil.Color(i)
		p.Add(l, s, bars)
		p.Legend.Add(alg+seriesImpl(pts), l, s)
		names = append(names, alg)
	}
	if len(names) == 0 && len(odd) == 0 {
		return nil, nil, nil
	}
	if len(odd) > 0 {
		s, err := plotter.NewScatter(odd)
		if err != nil {
			return nil, nil, err
		}
		s.Color = color.Gray{Y: 120}
		s.Shape = draw.RingGlyph{}
		s.Radius = vg.Points(4)
		p.Add(s)
		p.Legend.Add("uncertain (left out)", s)
		names = append(names, "uncertain")
	}
	return p, names, nil
}

// legible sets a panel's text in a sans-serif face, its legend at 10
// points, padded and on a white ground so that grid lines do not run
// through it.
func legible(p *plot.Plot) {
	for _, st := range []*text.Style{&p.Title.TextStyle, &p.X.Label.TextStyle, &p.Y.Label.TextStyle,
		&p.X.Tick.Label, &p.Y.Tick.Label, &p.Legend.TextStyle} {
		st.Font.Variant = "Sans"
	}
	p.Title.TextStyle.Font.Size = vg.Points(12)
	p.Legend.TextStyle.Font.Size = vg.Points(10)
	p.Legend.Padding = vg.Points(2)
	p.Legend.XOffs, p.Legend.YOffs = vg.Points(6), -vg.Points(6)
}

// seriesImpl says which implementation a series' points were measured on
// (the faster of an algorithm's at each size): " (hashlanes)", or where
// they differ " (stdlib; hashlanes at 8KiB, 1MiB)".
func seriesImpl(pts []point) string {
	counts := map[string]int{}
	for _, q := range pts {
		if !q.uncertain && q.impl != "" {
			counts[q.impl]++
		}
	}
	if len(counts) == 0 {
		return ""
	}
	most := ""
	for impl, n := range counts {
		if most == "" || n > counts[most] || n == counts[most] && impl < most {
			most = impl
		}
	}
	if len(counts) == 1 {
		return " (" + most + ")"
	}
	var others []string
	for _, q := range pts {
		if !q.uncertain && q.impl != most {
			others = append(others, q.impl+" at "+workload.SizeName(int64(q.x)))
		}
	}
	return " (" + most + "; " + strings.Join(others, ", ") + ")"
}

// sizeTicks marks the sizes the series were measured at, labelling each
// (every other one where more than seven would run together).
func sizeTicks(series map[string][]point) plot.Ticker {
	var xs []float64
	for _, pts := range series {
		for _, q := range pts {
			if !slices.Contains(xs, q.x) {
				xs = append(xs, q.x)
			}
		}
	}
	slices.Sort(xs)
	var ts plot.ConstantTicks
	for i, x := range xs {
		t := plot.Tick{Value: x}
		if len(xs) <= 7 || i%2 == 0 {
			t.Label = workload.SizeName(int64(x))
		}
		ts = append(ts, t)
	}
	return ts
}

// rateTicks label a log axis of rates at 1, 2 and 5 of each power of ten
// (100, 200, 500, 1000, 2000, ...), with unlabelled ticks between, so
// that a value can be read off within a factor of about 1.5.
type rateTicks struct{}

func (rateTicks) Ticks(min, max float64) []plot.Tick {
	var ts []plot.Tick
	for decade := math.Pow(10, math.Floor(math.Log10(min))); decade <= max; decade *= 10 {
		for m := 1; m <= 9; m++ {
			v := float64(m) * decade
			if v < min || v > max {
				continue
			}
			t := plot.Tick{Value: v}
			if m == 1 || m == 2 || m == 5 {
				t.Label = strconv.FormatFloat(v, 'f', -1, 64)
			}
			ts = append(ts, t)
		}
	}
	return ts
}

// streamTicks marks the lanes suite's stream counts.
type streamTicks struct{}

func (streamTicks) Ticks(min, max float64) []plot.Tick {
	var ts []plot.Tick
	for _, n := range LaneCounts {
		if v := float64(n); v >= min/1.01 && v <= max*1.01 {
			ts = append(ts, plot.Tick{Value: v, Label: fmt.Sprint(n)})
		}
	}
	return ts
}

// ratioTicks label a linear axis of ratios at a round step (1, 2 or 5
// times a power of ten) that gives at least five labels, with unlabelled
// ticks halfway.
type ratioTicks struct{}

func (ratioTicks) Ticks(min, max float64) []plot.Tick {
	step := 1.0
	for _, s := range []float64{0.5, 1, 2, 5, 10, 20, 50} {
		if step = s; (max-min)/s <= 10 {
			break
		}
	}
	var ts []plot.Tick
	for v := math.Ceil(min/step*2) * step / 2; v <= max; v += step / 2 {
		t := plot.Tick{Value: v}
		if math.Abs(v/step-math.Round(v/step)) < 1e-9 {
			t.Label = strconv.FormatFloat(v, 'f', -1, 64)
		}
		ts = append(ts, t)
	}
	return ts
}

// LanesChart draws hashlanes' speed-up over the reference implementation
// against the number of concurrent streams, a line per algorithm and a
// panel per family of kernels; nil if the lanes suite did not run. Error
// bars span the ratios of the two rows' slowest and fastest samples.
func LanesChart(rows []Row) (*Chart, error) {
	algs, by := lanePairs(rows)
	series := map[string][]point{}
	for _, alg := range algs {
		for _, pr := range by[alg] {
			r, b := pr.hl, pr.ref
			if b.MBps() == 0 {
				continue
			}
			lo, hi := rateRange(r)
			blo, bhi := rateRange(b)
			series[alg] = append(series[alg], point{x: float64(r.Streams), y: r.MBps() / b.MBps(), lo: lo / bhi, hi: hi / blo,
				uncertain: r.Uncertain != "" || b.Uncertain != ""})
		}
	}
	if len(series) == 0 {
		return nil, nil
	}
	_, top := extent(series)
	return panels(lanesFamilies, series, func(p *plot.Plot) {
		p.X.Label.Text = "concurrent streams"
		p.Y.Label.Text = "hashlanes ÷ reference"
		p.X.Scale = plot.LogScale{}
		p.X.Tick.Marker = streamTicks{}
		p.Y.Tick.Marker = ratioTicks{}
		p.Y.Min, p.Y.Max = 0, top*1.1
		one := plotter.NewFunction(func(float64) float64 { return 1 })
		one.Color = color.Gray{Y: 90}
		one.Dashes = []vg.Length{vg.Points(4), vg.Points(3)}
		p.Add(one)
		p.Legend.Left, p.Legend.Top = true, true // small counts: low ratios
	})
}

// panelWidth and panelHeight are a panel's size, in the units gonum/plot
// draws with.
const (
	panelWidth  = 4 * vg.Inch
	panelHeight = 3 * vg.Inch
)

// Render draws a chart as "svg" or "png": its panels in rows of c.Cols,
// aligned so that their axes line up.
func Render(c *Chart, format string) ([]byte, error) {
	var panels []*plot.Plot
	for _, p := range c.Panels {
		if p != nil {
			panels = append(panels, p)
		}
	}
	cols := min(c.Cols, len(panels))
	rows := (len(panels) + cols - 1) / cols
	grid := make([][]*plot.Plot, rows)
	for i := range grid {
		grid[i] = make([]*plot.Plot, cols)
	}
	for i, p := range panels {
		grid[i/cols][i%cols] = p
	}
	w, h := panelWidth*vg.Length(cols), panelHeight*vg.Length(rows)
	var canvas vg.CanvasWriterTo
	switch format {
	case "svg":
		canvas = vgsvg.New(w, h)
	case "png":
		canvas = vgimg.PngCanvas{Canvas: vgimg.New(w, h)}
	default:
		return nil, fmt.Errorf("unknown chart format %q", format)
	}
	tiles := draw.Tiles{Rows: rows, Cols: cols, PadX: vg.Millimeter * 6, PadY: vg.Millimeter * 6,
		PadTop: vg.Millimeter * 2, PadBottom: vg.Millimeter * 2, PadLeft: vg.Millimeter * 2, PadRight: vg.Millimeter * 2}
	dc := draw.New(canvas)
	cs := plot.Align(grid, tiles, dc)
	for j := range grid {
		for i, p := range grid[j] {
			if p != nil {
				p.Draw(cs[j][i])
			}
		}
	}
	var b bytes.Buffer
	if _, err := canvas.WriteTo(&b); err != nil {
		return nil, err
	}
	return b.Bytes(), nil
}
