package report

import (
	"encoding/json"
	"html/template"
	"io"
	"sort"
	"strings"
	"sync"
)

// scenarioAlg is what the page's calculator knows of an algorithm and
// implementation: its time per message at each measured size.
type scenarioAlg struct {
	Name   string    `json:"name"`
	Alg    string    `json:"alg"`
	Impl   string    `json:"impl"`
	Broken bool      `json:"broken"`
	Sizes  []float64 `json:"sizes"`
	Ns     []float64 `json:"ns"`
}

// scenarioLanes is hashlanes' speed-up over the reference implementation
// of one algorithm by concurrent streams, for the calculator's
// many-streams case.
type scenarioLanes struct {
	Alg     string    `json:"alg"`
	Streams []float64 `json:"streams"`
	Speedup []float64 `json:"speedup"`
}

// scenario is the calculator's data; Default is the algorithm it starts
// with: SHA-256, the usual choice, on hashlanes where it runs.
type scenario struct {
	Algs    []scenarioAlg   `json:"algs"`
	Lanes   []scenarioLanes `json:"lanes"`
	Default int             `json:"default"`
}

// scenarioData is the calculator's data from the certain rows: an
// uncertain one would be interpolated as if it were a clean point.
func scenarioData(rows []Row) scenario {
	by := map[string]*scenarioAlg{}
	var names []string
	for _, r := range rows {
		if r.Suite != "algos" || r.Uncertain != "" {
			continue
		}
		name := named(r)
		s := by[name]
		if s == nil {
			s = &scenarioAlg{Name: name, Alg: r.Alg, Impl: r.Impl, Broken: Broken(r.Alg)}
			by[name] = s
			names = append(names, name)
		}
		s.Sizes = append(s.Sizes, float64(r.Size))
		s.Ns = append(s.Ns, r.NsPerOp())
	}
	sort.Strings(names)
	var sc scenario
	for _, n := range names {
		a := *by[n]
		sort.Sort(bySize(a))
		if a.Alg == "sha256" && (a.Impl == "hashlanes" || sc.Algs == nil || sc.Algs[sc.Default].Alg != "sha256") {
			sc.Default = len(sc.Algs)
		}
		sc.Algs = append(sc.Algs, a)
	}
	laneAlgs, pairs := lanePairs(rows)
	for _, alg := range laneAlgs {
		l := scenarioLanes{Alg: alg}
		for _, pr := range pairs[alg] {
			if pr.hl.Uncertain == "" && pr.ref.Uncertain == "" {
				l.Streams = append(l.Streams, float64(pr.hl.Streams))
				l.Speedup = append(l.Speedup, pr.hl.MBps()/pr.ref.MBps())
			}
		}
		if len(l.Streams) > 0 {
			sc.Lanes = append(sc.Lanes, l)
		}
	}
	return sc
}

// bySize sorts a scenarioAlg's points by size.
type bySize scenarioAlg

func (a bySize) Len() int           { return len(a.Sizes) }
func (a bySize) Less(i, j int) bool { return a.Sizes[i] < a.Sizes[j] }
func (a bySize) Swap(i, j int) {
	a.Sizes[i], a.Sizes[j] = a.Sizes[j], a.Sizes[i]
	a.Ns[i], a.Ns[j] = a.Ns[j], a.Ns[i]
}

// WriteHTML writes one self-contained page: charts (inline SVG), tables,
// the machine, a scenario calculator and the recommendations. It makes no
// request of its own.
func WriteHTML(w io.Writer, r Report) error {
	type figure struct {
		Caption string
		SVG     template.HTML
	}
	var charts []figure
	for _, c := range []struct {
		caption string
		draw    func([]Row) ([]byte, error)
	}{
		{"Throughput by message size, one core: each algorithm's faster implementation, bars spanning the samples.", svgOf(ThroughputChart)},
		{"Concurrent streams: hashlanes ÷ the reference implementation, by number of streams, bars spanning the samples' ratios.", svgOf(LanesChart)},
	} {
		svg, err := c.draw(r.Rows)
		if err != nil {
			return err
		}
		if svg != nil {
			charts = append(charts, figure{c.caption, template.HTML(stripXMLHeader(svg))})
		}
	}
	data, err := json.Marshal(scenarioData(r.Rows))
	if err != nil {
		return err
	}
	page := struct {
		Report
		Charts       []figure
		Tables       []table
		Advice       []Advice
		Notes        []string
		Scenario     template.JS
		NoisyPercent float64
		PairPercent  float64
		Payoff       float64
		PayoffTimes  int
		MinPercent   float64
		DriftPercent float64
	}{r, charts, r.tables(), Advise(r.Rows), notes(r), template.JS(data), 100 * NoisyAbove, 100 * minPairNoise, payoff, payoffChecks + 1,
		100 * minNoise, 100 * runDrift(r.Rows)}
	return reportTemplate().Execute(w, page)
}

func svgOf(chart func([]Row) (*Chart, error)) func([]Row) ([]byte, error) {
	return func(rows []Row) ([]byte, error) {
		c, err := chart(rows)
		if err != nil || c == nil {
			return nil, err
		}
		return Render(c, "svg")
	}
}

func stripXMLHeader(svg []byte) string {
	s := string(svg)
	if i := strings.Index(s, "<svg"); i > 0 {
		s = s[i:]
	}
	return s
}

// reportTemplate is the page, parsed when a report is written: parsing it
// was hundreds of allocations at the start of every run of the command,
// a checksum of one file included.
var reportTemplate = sync.OnceValue(func() *template.Template { return template.Must(template.New("report").Parse(reportPage)) })

const reportPage = `<!DOCTYPE html>
<html lang="en">
<head>
<meta charset="utf-8">
<title>hashlanes bench — {{.Machine.CPU}}</title>
<style>
body { font: 15px/1.45 system-ui, sans-serif; margin: 2em auto; max-width: 1100px; padding: 0 1em; color: #222; }
h1 { font-size: 1.6em; } h2 { margin-top: 2em; border-bottom: 1px solid #ddd; }
table { border-collapse: collapse; margin: 1em 0; font-variant-numeric: tabular-nums; }
th, td { padding: 3px 10px; border-bottom: 1px solid #eee; text-align: right; }
th { background: #f4f4f4; } td:first-child, th:first-child { text-align: left; }
.chart svg { width: 100%; height: auto; }
.calc label { display: inline-block; min-width: 16em; } .calc input, .calc select { margin: 0.2em; }
.calc output { font-weight: bold; }
.note { color: #666; }
</style>
</head>
<body>
<h1>hashlanes bench</h1>
<section id="machine">
<h2>Machine</h2>
<table>
<tr><th>CPU</th><td>{{.Machine.CPU}}</td></tr>
<tr><th>Features</th><td>{{range $i, $f := .Machine.Features}}{{if $i}}, {{end}}{{$f}}{{end}}</td></tr>
<tr><th>hashlanes tier</th><td>{{.Machine.Tier}}</td></tr>
{{if .Machine.Tuning}}<tr><th>kernel rates</th><td>{{.Machine.Tuning}}</td></tr>
{{end}}<tr><th>Go, GOOS/GOARCH, GOMAXPROCS</th><td>{{.Machine.Go}}, {{.Machine.GOOS}}/{{.Machine.GOARCH}}, {{.Machine.Procs}}</td></tr>
<tr><th>Run</th><td>{{.Started}}{{if .Quick}} (--quick){{end}}</td></tr>
</table>
<table>
<tr><th>algorithm</th><th>kernel hashlanes runs</th></tr>
{{range $a, $k := .Machine.Kernels}}<tr><td>{{$a}}</td><td>{{$k}}</td></tr>
{{end}}</table>
{{if .Machine.Crossover}}<table id="crossover">
<tr><th>algorithm</th><th>kernel a round runs, by streams ready (the crossover table, measured here)</th></tr>
{{range $a, $c := .Machine.Crossover}}<tr><td>{{$a}}</td><td>{{$c}}</td></tr>
{{end}}</table>
{{end}}</section>
<section id="reading">
<h2>How to read this page</h2>
<ul>
<li><b>MB/s</b> is 10<sup>6</sup> bytes a second on one core (GOMAXPROCS=1 for every suite but the files'), the <b>median</b> of {{if .Reps}}{{.Reps}}{{else}}several{{end}} timed repetitions{{if .MinTime}} of at least {{.MinTime}} each{{end}}, after a warm-up; <b>±N%</b> is how far the farthest repetition strays from that median.</li>
<li>Rows that the recommendations compare (an algorithm's reference implementation and hashlanes at one size, or at one stream count) are measured <b>side by side</b>, their repetitions taking turns, and compared turn by turn: a gap is named only when it stands beyond the turns' spread (at least {{.PairPercent}}%, what such a ratio moves between two runs on a shared machine); anything less is called within noise. A row named slower than the standard library was measured twice, and both measurements found the gap: the figures shown are the second's. A stream count whose speed-up came near the {{.Payoff}}× that the streams advice asks for was measured {{.PayoffTimes}} times, at different moments, and is called worth it only if every measurement says so; the advice quotes their range.</li>
<li>Rows of different algorithms, measured at different moments, are compared by their medians: one is named ahead only beyond both rows' spread (at least {{printf "%.0f" .MinPercent}}% each) and beyond the largest gap this run found between rows that do the same work (SHA-224 and SHA-256, SHA-512 and its truncations, through one implementation at one size): {{printf "%.0f" .DriftPercent}}% here.</li>
<li><b>noisy</b>: repetitions more than ±{{.NoisyPercent}}% apart; such a row is measured again up to twice. <b>uncertain</b>: still noisy, a rate under half the sizes beside it, or a reference rate far from the same implementation's at the other stream counts, after measuring again; it is listed in the tables and left out of the charts, the recommendations and the scenarios.</li>
<li><b>Implementations</b>: <i>stdlib</i> is Go's crypto/… package; <i>hashlanes</i> is this library through New (one hasher reused per message) or, in the lanes suite, one hasher per stream written by its own goroutine; <i>x/crypto</i>, <i>blake3</i>, <i>zeebo/xxh3</i> and <i>hash/crc32</i> are those libraries; <i>loop</i> and <i>summany</i> (small messages) are a loop of one-shot sums and one SumMany call; <i>python-hashlib</i> is Python's hashlib in a loop.</li>
<li><b>Ways of hashing a file</b> (files suite): <i>readall</i> reads the whole file into memory, then hashes it; <i>iocopy</i> is io.Copy from the file into the hasher; <i>bufio</i> is io.Copy through a bufio.Reader; <i>pooled</i> is io.CopyBuffer with a 64 KiB buffer from a sync.Pool; <i>hashlanes</i> is hashlanes.SumFile.</li>
<li>† marks a hash whose collision resistance is broken (MD5, SHA-1).</li>
</ul>
</section>
<section id="recommendations">
<h2>Recommendations, by what the hash is for</h2>
{{range .Advice}}<h3>{{.Purpose}}</h3>
<p class="note">{{.Why}}</p>
<ul>{{range .Lines}}<li>{{.}}</li>{{end}}</ul>
{{end}}{{range .Notes}}<p class="note">{{.}}</p>
{{end}}</section>
<section id="charts">
<h2>Charts</h2>
{{range .Charts}}<figure class="chart">{{.SVG}}<figcaption class="note">{{.Caption}}</figcaption></figure>
{{end}}</section>
<section id="calculator" class="calc">
<h2>Scenarios</h2>
<p class="note">Computed from this run's figures (time per message, interpolated between measured sizes; one core), uncertain rows left out. † marks a hash whose collision resistance is broken.</p>
<div><label>Algorithm</label><select id="alg"></select></div>
<div><label>Time to hash <input id="bytes" type="number" value="10" min="0" step="any"> GiB</label> <output id="t-bytes"></output></div>
<div><label>Cores needed for <input id="rate" type="number" value="10" min="0" step="any"> GB/s</label> <output id="t-rate"></output></div>
<div><label>Cost per request of <input id="payload" type="number" value="4096" min="1"> bytes</label> <output id="t-payload"></output></div>
<h3>Many streams at once</h3>
<p class="note">N uploads at a time, each of S bytes, R GB/s in all: cores the reference implementation needs, and hashlanes with its lanes (its speed-up at N streams, interpolated between the stream counts measured).</p>
<div><label>Algorithm</label><select id="lalg"></select></div>
<div><label>Uploads at a time <input id="streams" type="number" value="64" min="1"></label></div>
<div><label>Size of each <input id="ssize" type="number" value="4" min="0" step="any"> MiB</label></div>
<div><label>In all <input id="srate" type="number" value="10" min="0" step="any"> GB/s</label> <output id="t-streams"></output></div>
</section>
<section id="tables">
<h2>Tables</h2>
{{range .Tables}}<h3>{{.Title}}</h3>
<table><tr>{{range .Header}}<th>{{.}}</th>{{end}}</tr>
{{range .Rows}}<tr>{{range .}}<td>{{.}}</td>{{end}}</tr>
{{end}}</table>
{{end}}</section>
<script>
const scenario = {{.Scenario}};
const algs = scenario.algs || [], lanes = scenario.lanes || [];
const sel = document.getElementById("alg"), lsel = document.getElementById("lalg");
algs.forEach((a, i) => { const o = document.createElement("option"); o.value = i; o.textContent = a.name; sel.appendChild(o); });
sel.value = scenario.default;
lanes.forEach((l, i) => { const o = document.createElement("option"); o.value = i; o.textContent = l.alg + (algs.some(a => a.alg == l.alg && a.broken) ? "†" : ""); lsel.appendChild(o); });
const l256 = lanes.findIndex(l => l.alg == "sha256"); if (l256 >= 0) lsel.value = l256;
// speedupAt interpolates a speed-up at n streams (log-linear between the
// counts measured; the nearest beyond them).
function speedupAt(l, n) {
  const k = l.streams.length;
  if (n <= l.streams[0]) return l.speedup[0];
  if (n >= l.streams[k-1]) return l.speedup[k-1];
  for (let i = 1; i < k; i++) if (n <= l.streams[i]) {
    const f = Math.log(n / l.streams[i-1]) / Math.log(l.streams[i] / l.streams[i-1]);
    return l.speedup[i-1] + f * (l.speedup[i] - l.speedup[i-1]);
  }
}
// nsFor interpolates time per message at size s (log-log between measured
// sizes; proportional to size beyond the ends).
function nsFor(a, s) {
  const n = a.sizes.length;
  if (s <= a.sizes[0]) return a.ns[0] * s / a.sizes[0];
  if (s >= a.sizes[n-1]) return a.ns[n-1] * s / a.sizes[n-1];
  for (let i = 1; i < n; i++) if (s <= a.sizes[i]) {
    const f = Math.log(s / a.sizes[i-1]) / Math.log(a.sizes[i] / a.sizes[i-1]);
    return Math.exp(Math.log(a.ns[i-1]) + f * Math.log(a.ns[i] / a.ns[i-1]));
  }
}
function fmtTime(ns) {
  if (ns < 1e3) return ns.toFixed(1) + " ns";
  if (ns < 1e6) return (ns / 1e3).toFixed(2) + " µs";
  if (ns < 1e9) return (ns / 1e6).toFixed(2) + " ms";
  return (ns / 1e9).toFixed(2) + " s";
}
function update() {
  const a = algs[sel.value];
  if (a) {
    const big = a.sizes[a.sizes.length-1], rate = big / nsFor(a, big); // bytes per ns
    const bytes = parseFloat(document.getElementById("bytes").value) * 2**30;
    document.getElementById("t-bytes").textContent = fmtTime(bytes / rate);
    const want = parseFloat(document.getElementById("rate").value);
    document.getElementById("t-rate").textContent = (want / rate).toFixed(2) + " cores (" + (rate * 1e3).toFixed(0) + " MB/s per core)";
    const p = parseFloat(document.getElementById("payload").value);
    document.getElementById("t-payload").textContent = fmtTime(nsFor(a, p)) + " per request";
  }
  const l = lanes[lsel.value], out = document.getElementById("t-streams");
  const r = l && algs.find(x => x.alg == l.alg && x.impl != "hashlanes");
  if (!r) { out.textContent = "not measured in this run"; return; }
  const n = parseFloat(document.getElementById("streams").value), s = parseFloat(document.getElementById("ssize").value) * 2**20;
  const refRate = s / nsFor(r, s), up = speedupAt(l, n); // bytes per ns, one core
  const total = parseFloat(document.getElementById("srate").value);
  out.textContent = (total / refRate).toFixed(2) + " cores with " + r.name + ", " + (total / (refRate * up)).toFixed(2) + " with hashlanes (" + up.toFixed(2) + "× at " + n + " streams)";
}
document.querySelectorAll(".calc input, .calc select").forEach(e => e.addEventListener("input", update));
update();
</script>
</body>
</html>
`
