package bench

import (
	"encoding/json"
	"fmt"
	"html/template"
	"io"
	"math"
	"sort"
	"strings"

	"github.com/hashlanes/hashlanes/internal/workload"
	"gonum.org/v1/plot"
)

// Recommendations derives advice from a run's rows: the fastest
// cryptographic hash for small and for large inputs, when lanes pay off,
// and what SumMany buys.
func Recommendations(rows []Row) []string {
	var out []string
	best := func(pick func(Row) bool) (Row, bool) {
		var b Row
		found := false
		for _, r := range rows {
			if r.Suite == "algos" && !isNonCrypto(r.Alg) && pick(r) && (!found || r.MBps() > b.MBps()) {
				b, found = r, true
			}
		}
		return b, found
	}
	if b, ok := best(func(r Row) bool { return r.Size <= 1<<10 }); ok {
		out = append(out, fmt.Sprintf("Small inputs (%s): the fastest cryptographic hash here is %s (%s), %.0f MB/s, %.0f ns per message.",
			workload.SizeName(b.Size), b.Alg, b.Impl, b.MBps(), b.NsPerOp()))
	}
	if b, ok := best(func(r Row) bool { return r.Size >= 1<<20 }); ok {
		out = append(out, fmt.Sprintf("Large inputs (%s): the fastest cryptographic hash here is %s (%s), %.0f MB/s on one core.",
			workload.SizeName(b.Size), b.Alg, b.Impl, b.MBps()))
	}
	ref := map[string]float64{}
	for _, r := range rows {
		if r.Suite == "lanes" && r.Impl != "hashlanes" {
			ref[fmt.Sprint(r.Alg, "/", r.Streams)] = r.MBps()
		}
	}
	payoff := map[string]int{}
	bestUp := map[string]float64{}
	var algs []string
	for _, r := range rows {
		if r.Suite != "lanes" || r.Impl != "hashlanes" {
			continue
		}
		if _, seen := bestUp[r.Alg]; !seen {
			algs = append(algs, r.Alg)
		}
		up := r.MBps() / ref[fmt.Sprint(r.Alg, "/", r.Streams)]
		bestUp[r.Alg] = math.Max(bestUp[r.Alg], up)
		if up >= 1.5 && (payoff[r.Alg] == 0 || r.Streams < payoff[r.Alg]) {
			payoff[r.Alg] = r.Streams
		}
	}
	for _, a := range algs {
		if n := payoff[a]; n > 0 {
			out = append(out, fmt.Sprintf("Lanes pay off for %s from %d concurrent streams (≥ 1.5× the reference), up to %.1f×.", a, n, bestUp[a]))
		} else {
			out = append(out, fmt.Sprintf("Lanes do not reach 1.5× for %s on this machine (best %.2f×): hash its streams one by one.", a, bestUp[a]))
		}
	}
	loop := map[string]float64{}
	for _, r := range rows {
		if r.Suite == "small" && r.Impl == "loop" {
			loop[r.Alg] = r.NsPerMsg()
		}
	}
	for _, r := range rows {
		if r.Suite == "small" && r.Impl == "summany" && loop[r.Alg] > 0 {
			out = append(out, fmt.Sprintf("Many small messages with %s: SumMany takes %.0f ns per message, %.1f× faster than a loop of one-shot calls.",
				r.Alg, r.NsPerMsg(), loop[r.Alg]/r.NsPerMsg()))
		}
	}
	return out
}

// scenarioAlg is what the page's calculator knows of an algorithm: its
// time per message at each measured size.
type scenarioAlg struct {
	Name  string    `json:"name"`
	Sizes []float64 `json:"sizes"`
	Ns    []float64 `json:"ns"`
}

func scenarioData(rows []Row) []scenarioAlg {
	by := map[string]*scenarioAlg{}
	var names []string
	for _, r := range rows {
		if r.Suite != "algos" {
			continue
		}
		name := r.Alg + " (" + r.Impl + ")"
		s := by[name]
		if s == nil {
			s = &scenarioAlg{Name: name}
			by[name] = s
			names = append(names, name)
		}
		s.Sizes = append(s.Sizes, float64(r.Size))
		s.Ns = append(s.Ns, r.NsPerOp())
	}
	sort.Strings(names)
	out := make([]scenarioAlg, 0, len(names))
	for _, n := range names {
		out = append(out, *by[n])
	}
	return out
}

// WriteHTML writes one self-contained page: charts (inline SVG), tables,
// the machine, a scenario calculator and the recommendations. It makes no
// request of its own.
func WriteHTML(w io.Writer, r Report) error {
	var charts []template.HTML
	for _, draw := range []func([]Row) ([]byte, error){svgOf(ThroughputChart), svgOf(LanesChart)} {
		svg, err := draw(r.Rows)
		if err != nil {
			return err
		}
		if svg != nil {
			charts = append(charts, template.HTML(stripXMLHeader(svg)))
		}
	}
	data, err := json.Marshal(scenarioData(r.Rows))
	if err != nil {
		return err
	}
	page := struct {
		Report
		Charts          []template.HTML
		Tables          []table
		Recommendations []string
		Noise           string
		Scenario        template.JS
	}{r, charts, r.tables(), Recommendations(r.Rows), noiseLine(r), template.JS(data)}
	return reportTemplate.Execute(w, page)
}

func svgOf(chart func([]Row) (*plot.Plot, error)) func([]Row) ([]byte, error) {
	return func(rows []Row) ([]byte, error) {
		p, err := chart(rows)
		if err != nil || p == nil {
			return nil, err
		}
		return Render(p, "svg")
	}
}

func stripXMLHeader(svg []byte) string {
	s := string(svg)
	if i := strings.Index(s, "<svg"); i > 0 {
		s = s[i:]
	}
	return s
}

var reportTemplate = template.Must(template.New("report").Parse(`<!DOCTYPE html>
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
<section id="recommendations">
<h2>Recommendations</h2>
<ul>{{range .Recommendations}}<li>{{.}}</li>{{end}}</ul>
<p class="note">{{.Noise}}</p>
</section>
<section id="charts">
<h2>Charts</h2>
{{range .Charts}}<div class="chart">{{.}}</div>
{{end}}</section>
<section id="calculator" class="calc">
<h2>Scenarios</h2>
<p class="note">Computed from this run's figures (time per message, interpolated between measured sizes; one core).</p>
<div><label>Algorithm</label><select id="alg"></select></div>
<div><label>Time to hash <input id="bytes" type="number" value="10" min="0" step="any"> GiB</label> <output id="t-bytes"></output></div>
<div><label>Cores needed for <input id="rate" type="number" value="10" min="0" step="any"> GB/s</label> <output id="t-rate"></output></div>
<div><label>Cost per request of <input id="payload" type="number" value="4096" min="1"> bytes</label> <output id="t-payload"></output></div>
</section>
<section id="tables">
<h2>Tables</h2>
{{range .Tables}}<h3>{{.Title}}</h3>
<table><tr>{{range .Header}}<th>{{.}}</th>{{end}}</tr>
{{range .Rows}}<tr>{{range .}}<td>{{.}}</td>{{end}}</tr>
{{end}}</table>
{{end}}</section>
<script>
const algs = {{.Scenario}};
const sel = document.getElementById("alg");
algs.forEach((a, i) => { const o = document.createElement("option"); o.value = i; o.textContent = a.name; sel.appendChild(o); });
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
  const a = algs[sel.value]; if (!a) return;
  const big = a.sizes[a.sizes.length-1], rate = big / nsFor(a, big); // bytes per ns
  const bytes = parseFloat(document.getElementById("bytes").value) * 2**30;
  document.getElementById("t-bytes").textContent = fmtTime(bytes / rate);
  const want = parseFloat(document.getElementById("rate").value);
  document.getElementById("t-rate").textContent = (want / rate).toFixed(2) + " cores (" + (rate * 1e3).toFixed(0) + " MB/s per core)";
  const p = parseFloat(document.getElementById("payload").value);
  document.getElementById("t-payload").textContent = fmtTime(nsFor(a, p)) + " per request";
}
document.querySelectorAll(".calc input, .calc select").forEach(e => e.addEventListener("input", update));
update();
</script>
</body>
</html>
`))
