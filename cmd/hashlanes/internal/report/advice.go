package report

import (
	"cmp"
	"fmt"
	"math"
	"slices"
	"strings"

	"github.com/hashlanes/hashlanes/internal/workload"
)

// Advice is the recommendations for one purpose a hash serves, each line
// with the figures it rests on.
type Advice struct {
	Purpose string
	Why     string // what the purpose needs of a hash
	Lines   []string
}

// collisionBroken are the algorithms whose collision resistance is
// broken, with what broke it: never advised against an adversary, and
// marked wherever they appear.
var collisionBroken = map[string]string{
	"md5":  "MD5 collisions take seconds on a laptop (Wang and Yu, 2005; chosen-prefix since 2007)",
	"sha1": "SHA-1 collisions have been made since 2017 (SHAttered; chosen-prefix since 2020)",
}

// Broken tells whether alg's collision resistance is broken.
func Broken(alg string) bool { _, ok := collisionBroken[alg]; return ok }

// brokenMark follows a broken algorithm's name in tables; its footnote
// says why.
const brokenMark = "†"

const brokenNote = "† collision resistance broken (MD5, SHA-1): never for integrity against an adversary."

// minNoise is a row's least uncertainty, whatever its spread: the same
// code measured in two processes one after another moves by more than
// its samples spread within one (up to 10% on the shared machines
// measured, mostly within 5%), and advice that follows those moves flips
// from one run to the next.
const minNoise = 0.05

// judge tells rows apart beyond their noise. drift is the run's own
// evidence of how far rows measured at different moments move (see
// runDrift): an unpaired row's noise is at least half of it, so two such
// rows are apart only where their gap exceeds the largest gap between
// rows that measure the same work. Rows measured side by side are told
// turn by turn, which the drift does not touch.
type judge struct{ drift float64 }

// judgeOf is the judge of a finished run's rows.
func judgeOf(rows []Row) judge { return judge{drift: runDrift(rows)} }

// sideBySide judges the comparisons made while the run is measured,
// between rows measured side by side: the drift is not known yet, and
// their ratios do not need it.
var sideBySide judge

// sameCost are algorithms that hash a message with one compression
// function on the same blocks: SHA-224 and SHA-256, and SHA-512 and its
// truncations. Their rows at one size and implementation measure the
// same work.
var sameCost = [][]string{{"sha224", "sha256"}, {"sha384", "sha512", "sha512-224", "sha512-256"}}

// runDrift is the largest relative gap between certain rows of the algos
// suite that measure the same work (sameCost, one size, one
// implementation): how far this run's machine moved between rows
// measured at different moments, whatever each row's samples say
// (docs/figures.md, "The benchmark report").
func runDrift(rows []Row) float64 {
	type key struct {
		group int
		impl  string
		size  int64
	}
	lo, hi := map[key]float64{}, map[key]float64{}
	for _, r := range rows {
		if r.Suite != "algos" || r.Uncertain != "" {
			continue
		}
		for g, algs := range sameCost {
			if !slices.Contains(algs, r.Alg) {
				continue
			}
			k := key{g, r.Impl, r.Size}
			if v, ok := lo[k]; !ok || r.MBps() < v {
				lo[k] = r.MBps()
			}
			hi[k] = max(hi[k], r.MBps())
		}
	}
	var d float64
	for k, l := range lo {
		d = max(d, hi[k]/l-1)
	}
	return d
}

// noise is a row's relative uncertainty: its samples' spread, at least
// minNoise and half the run's drift.
func (j judge) noise(r Row) float64 {
	s := Spread(r.Samples)
	if math.IsNaN(s) {
		s = 0
	}
	return max(s, minNoise, j.drift/2)
}

// minPairNoise is the least uncertainty of a ratio told sample by
// sample, of rows measured side by side (see Row.Pair): their turns share
// the machine's bursts of load, but the ratio itself still moves between
// runs, by 0.6-3.7% for most rows on a shared Zen 4 (docs/figures.md,
// "Side by side"). At 2% the floor advice named a different set of rows
// 2-5% slower in each of three runs; at 4% a claim is one a second run
// makes again, and a steady gap of 5% is still told.
const minPairNoise = 0.04

// apart reports whether a moves more than b beyond their noise. Rows
// measured side by side are compared turn by turn: the median of a's
// rate over b's in each turn, less the ratios' spread (at least
// minPairNoise), above 1. Others: a's median, less its noise, above b's,
// plus its own.
func (j judge) apart(a, b Row) bool {
	if ratios := pairedRatios(a, b); ratios != nil {
		return Median(ratios)*(1-max(Spread(ratios), minPairNoise)) > 1
	}
	return a.MBps()*(1-j.noise(a)) > b.MBps()*(1+j.noise(b))
}

// speedup is r's rate over b's, and the least and most it may be within
// their noise: turn by turn for rows measured side by side (see apart).
func (j judge) speedup(r, b Row) (up, low, high float64) {
	if ratios := pairedRatios(r, b); ratios != nil {
		up = Median(ratios)
		n := max(Spread(ratios), minPairNoise)
		return up, up * (1 - n), up * (1 + n)
	}
	up = r.MBps() / b.MBps()
	return up, r.MBps() * (1 - j.noise(r)) / (b.MBps() * (1 + j.noise(b))), r.MBps() * (1 + j.noise(r)) / (b.MBps() * (1 - j.noise(b)))
}

// pairedRatios are a's rate over b's in each turn of rows measured side
// by side, or nil for rows that were not.
func pairedRatios(a, b Row) []float64 {
	if a.Pair == 0 || a.Pair != b.Pair || len(a.Samples) != len(b.Samples) || len(a.Samples) == 0 {
		return nil
	}
	ratios := make([]float64, len(a.Samples))
	for i := range ratios {
		// rate = bytes / time per operation
		ratios[i] = float64(a.Bytes) / a.Samples[i] / (float64(b.Bytes) / b.Samples[i])
	}
	return ratios
}

// figure is a row's rate as advice quotes it: "412 MB/s ±3%".
func figure(r Row) string {
	return fmt.Sprintf("%.0f MB/s ±%.0f%%", r.MBps(), 100*Spread(r.Samples))
}

// named is "sha256 (hashlanes)", with the broken mark where it applies.
func named(r Row) string { return algName(r.Alg) + " (" + r.Impl + ")" }

// lanePair is a row of the lanes suite through hashlanes and the
// reference implementation's row of the same algorithm and streams.
type lanePair struct{ hl, ref Row }

// lanePairs pairs the lanes suite's rows: by algorithm, in the order the
// algorithms first appear, each algorithm's pairs by stream count. A
// hashlanes row without its reference row is left out.
func lanePairs(rows []Row) (algs []string, by map[string][]lanePair) {
	type key struct {
		alg     string
		streams int
	}
	ref := map[key]Row{}
	for _, r := range rows {
		if r.Suite == "lanes" && r.Impl != "hashlanes" {
			ref[key{r.Alg, r.Streams}] = r
		}
	}
	by = map[string][]lanePair{}
	for _, r := range rows {
		b, ok := ref[key{r.Alg, r.Streams}]
		if r.Suite != "lanes" || r.Impl != "hashlanes" || !ok {
			continue
		}
		if by[r.Alg] == nil {
			algs = append(algs, r.Alg)
		}
		by[r.Alg] = append(by[r.Alg], lanePair{r, b})
	}
	for _, ps := range by {
		slices.SortFunc(ps, func(x, y lanePair) int { return cmp.Compare(x.hl.Streams, y.hl.Streams) })
	}
	return algs, by
}

// Advise groups the run's recommendations by purpose: integrity against
// an adversary, checksums and deduplication without one, cache keys of
// many small messages, and many concurrent streams. A recommendation is
// decided on medians and their spreads: rows whose difference is within
// their noise are named together as a tie, in alphabetical order, so
// that a rerun on the same machine gives the same advice; uncertain rows
// (see Row.Uncertain) are left out.
func Advise(rows []Row) []Advice {
	j := judgeOf(rows)
	var out []Advice
	if a := adviseIntegrity(j, rows); len(a.Lines) > 0 {
		out = append(out, a)
	}
	if a := adviseChecksums(j, rows); len(a.Lines) > 0 {
		out = append(out, a)
	}
	if a := adviseKeys(rows); len(a.Lines) > 0 {
		out = append(out, a)
	}
	if a := adviseStreams(j, rows); len(a.Lines) > 0 {
		out = append(out, a)
	}
	if a := adviseFloor(j, rows); len(a.Lines) > 0 {
		out = append(out, a)
	}
	return out
}

// floorPurpose heads the advice that holds hashlanes to its promise.
const floorPurpose = "Against the standard library, one message at a time"

// adviseFloor compares, size by size, hashlanes' rows of the algos suite
// (one hasher reused per message, or one stream) with the standard
// library's doing the same, and names every one where the standard
// library is faster beyond both rows' noise: hashlanes promises never
// to be slower, and a report that left such a row unsaid would mislead.
func adviseFloor(j judge, rows []Row) Advice {
	a := Advice{Purpose: floorPurpose,
		Why: "The same calls on both, one message or stream at a time: hashlanes promises to be no slower; a row named here breaks the promise beyond the noise."}
	pairs := floorPairs(rows)
	for _, p := range pairs {
		s, r := rows[p[0]], rows[p[1]]
		if j.apart(s, r) {
			a.Lines = append(a.Lines, fmt.Sprintf("Slower: %s at %s, %s against the standard library's %s (%.0f%% less).",
				algName(r.Alg), workload.SizeName(r.Size), figure(r), figure(s), 100*(1-r.MBps()/s.MBps())))
		}
	}
	if len(a.Lines) == 0 && len(pairs) > 0 {
		a.Lines = append(a.Lines, fmt.Sprintf("No row slower beyond the noise: hashlanes is within it or faster in all %d comparisons.", len(pairs)))
	}
	return a
}

// floorPairs are the comparisons of the floor advice: each certain row of
// the algos suite through hashlanes, with the certain standard library's
// row of its algorithm and size, as indices into rows [stdlib, hashlanes].
func floorPairs(rows []Row) [][2]int {
	type key struct {
		alg  string
		size int64
	}
	std := map[key]int{}
	for i, r := range rows {
		if r.Suite == "algos" && r.Impl == "stdlib" && r.Uncertain == "" {
			std[key{r.Alg, r.Size}] = i
		}
	}
	var pairs [][2]int
	for i, r := range rows {
		s, ok := std[key{r.Alg, r.Size}]
		if r.Suite == "algos" && r.Impl == "hashlanes" && r.Uncertain == "" && ok {
			pairs = append(pairs, [2]int{s, i})
		}
	}
	return pairs
}

// bestByAlg is, for each algorithm that fit accepts, its fastest certain
// row of the algos suite at size: the implementation a user would pick,
// hashlanes' unless another is faster beyond the noise (one stream runs
// the same code either way, and the pick must not flip with the noise).
func (j judge) bestByAlg(rows []Row, size int64, fit func(alg string) bool) []Row {
	best := map[string]Row{}
	for _, r := range rows {
		if r.Suite != "algos" || r.Size != size || r.Uncertain != "" || !fit(r.Alg) {
			continue
		}
		b, ok := best[r.Alg]
		switch {
		case !ok, r.Impl == "hashlanes" && !j.apart(b, r), b.Impl != "hashlanes" && r.MBps() > b.MBps(), j.apart(r, b):
			best[r.Alg] = r
		}
	}
	out := make([]Row, 0, len(best))
	for _, r := range best {
		out = append(out, r)
	}
	slices.SortFunc(out, func(a, b Row) int { return cmp.Compare(b.MBps(), a.MBps()) })
	return out
}

// leaders is the fastest of ranked (fastest first) and every row within
// noise of it, in alphabetical order.
func (j judge) leaders(ranked []Row) []Row {
	var tied []Row
	for _, r := range ranked {
		if !j.apart(ranked[0], r) {
			tied = append(tied, r)
		}
	}
	slices.SortFunc(tied, func(a, b Row) int { return strings.Compare(a.Alg, b.Alg) })
	return tied
}

// fastest says which of ranked lead at a size, with their figures.
func (j judge) fastest(what string, size int64, ranked []Row) string {
	lead := j.leaders(ranked)
	var parts []string
	for _, r := range lead {
		parts = append(parts, named(r)+" "+figure(r))
	}
	line := fmt.Sprintf("%s (%s): ", what, workload.SizeName(size))
	if len(lead) == 1 {
		line += parts[0]
		if len(ranked) > 1 {
			var next []string // the runners-up, tied among themselves
			for _, r := range j.leaders(ranked[1:]) {
				next = append(next, named(r)+" "+figure(r))
			}
			line += ", ahead of " + strings.Join(next, ", ") + " beyond the noise"
		}
		return line + "."
	}
	return line + strings.Join(parts, ", ") + ": within noise of each other."
}

// sizesOf is the algos suite's sizes: the largest up to 1 KiB (small
// messages) and the largest of 1 MiB or more (large ones), 0 where none.
func sizesOf(rows []Row) (small, large int64) {
	for _, r := range rows {
		if r.Suite != "algos" {
			continue
		}
		if r.Size <= 1<<10 {
			small = max(small, r.Size)
		}
		if r.Size >= 1<<20 {
			large = max(large, r.Size)
		}
	}
	return small, large
}

func adviseIntegrity(j judge, rows []Row) Advice {
	a := Advice{Purpose: "Integrity against an adversary",
		Why: "Signatures, downloads, content addresses, anything an attacker may have chosen: a hash whose collisions nobody can make (SHA-2, SHA-3, BLAKE2, BLAKE3)."}
	fit := func(alg string) bool { return !Broken(alg) && !isNonCrypto(alg) }
	small, large := sizesOf(rows)
	for _, s := range []struct {
		what string
		size int64
	}{{"Small messages", small}, {"Large messages", large}} {
		if s.size == 0 {
			continue
		}
		if ranked := j.bestByAlg(rows, s.size, fit); len(ranked) > 0 {
			a.Lines = append(a.Lines, j.fastest(s.what, s.size, ranked))
		}
	}
	if len(a.Lines) > 0 {
		a.Lines = append(a.Lines, "Not MD5 or SHA-1, however fast: "+collisionBroken["md5"]+", "+collisionBroken["sha1"]+".")
	}
	return a
}

func adviseChecksums(j judge, rows []Row) Advice {
	a := Advice{Purpose: "Checksums and deduplication, no adversary",
		Why: "Detecting accidental corruption, or deduplicating data only you write: any hash that spreads its input well, cryptographic or not."}
	_, large := sizesOf(rows)
	if large == 0 {
		return a
	}
	ranked := j.bestByAlg(rows, large, func(string) bool { return true })
	if len(ranked) == 0 {
		return a
	}
	a.Lines = append(a.Lines, j.fastest("Fastest here", large, ranked))
	var caveats []string
	for _, r := range j.leaders(ranked) {
		switch {
		case isNonCrypto(r.Alg):
			caveats = append(caveats, r.Alg+" is not cryptographic: anyone can make its collisions")
		case Broken(r.Alg):
			caveats = append(caveats, collisionBroken[r.Alg])
		}
	}
	if len(caveats) > 0 {
		a.Lines = append(a.Lines, "Only where nobody else chooses the data: "+strings.Join(caveats, "; ")+". Deduplicating data others upload needs the integrity choice above.")
	}
	return a
}

func adviseKeys(rows []Row) Advice {
	a := Advice{Purpose: "Cache keys of many small messages",
		Why: "Keys derived from many short strings at once (URL paths here): SumMany hashes them in lanes."}
	loop := map[string]Row{}
	for _, r := range rows {
		if r.Suite == "small" && r.Impl == "loop" && r.Uncertain == "" {
			loop[r.Alg] = r
		}
	}
	var many []Row
	for _, r := range rows {
		if r.Suite == "small" && r.Impl == "summany" && r.Uncertain == "" {
			if _, ok := loop[r.Alg]; ok {
				many = append(many, r)
			}
		}
	}
	slices.SortFunc(many, func(x, y Row) int { return cmp.Compare(x.NsPerMsg(), y.NsPerMsg()) })
	for _, r := range many {
		l := loop[r.Alg]
		line := fmt.Sprintf("%s: SumMany %.1f ns a message ±%.0f%%, %.1f× a loop of one-shot sums (%.1f ns)",
			algName(r.Alg), r.NsPerMsg(), 100*Spread(r.Samples), l.NsPerMsg()/r.NsPerMsg(), l.NsPerMsg())
		if Broken(r.Alg) {
			line += "; keys of your own data only"
		}
		a.Lines = append(a.Lines, line+".")
	}
	if len(many) > 0 {
		a.Lines = append(a.Lines, "Keys of input that others choose (request paths, user names) need a hash without known collisions: SHA-256 or SHA-512 above.")
	}
	return a
}

// payoff is the speed-up the lanes must bring for the advice to call
// them worth it; payoffBand, how near it a measured speed-up must be for
// the pair to be measured again (see settle).
const (
	payoff     = 1.5
	payoffBand = 0.25
)

// laneSpeedup is speedup for a lanes pair, with the speed-ups measured
// again later in the run (Row.Checks): the median of all, the least and
// most any of them may be within the paired noise, and all of them.
func (j judge) laneSpeedup(r, b Row) (up, low, high float64, all []float64) {
	up, low, high = j.speedup(r, b)
	all = append([]float64{up}, r.Checks...)
	for _, c := range r.Checks {
		low, high = min(low, c*(1-minPairNoise)), max(high, c*(1+minPairNoise))
	}
	return Median(all), low, high, all
}

func adviseStreams(j judge, rows []Row) Advice {
	a := Advice{Purpose: "Many concurrent streams",
		Why: fmt.Sprintf("Uploads, files or connections hashed at the same time on one core: hashlanes runs them in lanes. Worth it from the stream count whose speed-up over the reference implementation is %.1f× or more beyond the noise; a count whose speed-up came near that was measured %d times, at different moments, and is worth it only if every measurement says so.", payoff, payoffChecks+1)}
	algs, by := lanePairs(rows)
	for _, alg := range algs {
		var figs []string
		from, unsure, uncertain, best := 0, 0, 0, 0.0
		var odd []string // the uncertain counts below the first that pays
		for _, pr := range by[alg] {
			r, b := pr.hl, pr.ref
			if r.Uncertain != "" || b.Uncertain != "" {
				figs = append(figs, fmt.Sprintf("uncertain at %d", r.Streams))
				uncertain++
				if from == 0 {
					odd = append(odd, fmt.Sprint(r.Streams))
				}
				continue
			}
			up, low, high, all := j.laneSpeedup(r, b)
			best = max(best, up)
			fig := fmt.Sprintf("%.2f× at %d", up, r.Streams)
			if len(all) > 1 {
				fig += fmt.Sprintf(" (%.2f–%.2f× in %d measurements)", slices.Min(all), slices.Max(all), len(all))
			}
			figs = append(figs, fig)
			switch {
			case low >= payoff && from == 0:
				from = r.Streams
			case high >= payoff && low < payoff && from == 0 && unsure == 0:
				unsure = r.Streams
			}
		}
		line := fmt.Sprintf("%s: %s streams", algName(alg), strings.Join(figs, ", "))
		var also []string // what may move the count on a quieter run
		if unsure > 0 {
			also = append(also, fmt.Sprintf("at %d within noise of %.1f×", unsure, payoff))
		}
		if len(odd) > 0 {
			also = append(also, strings.Join(odd, ", ")+" uncertain")
		}
		switch {
		case from > 0 && len(also) > 0:
			line += fmt.Sprintf("; worth it from %d streams (%s)", from, strings.Join(also, ", "))
		case from > 0:
			line += fmt.Sprintf("; worth it from %d streams", from)
		case unsure > 0:
			line += fmt.Sprintf("; within noise of %.1f× from %d streams, best %.2f×", payoff, unsure, best)
		case uncertain > 0:
			// An uncertain count may be the one that pays: no verdict.
			line += fmt.Sprintf("; not settled here (best %.2f× where measured, uncertain at %d of %d counts): rerun on a quieter machine or with --full",
				best, uncertain, len(by[alg]))
		default:
			line += fmt.Sprintf("; below %.1f× here (best %.2f×): hash its streams one by one", payoff, best)
		}
		a.Lines = append(a.Lines, line+".")
	}
	return a
}
