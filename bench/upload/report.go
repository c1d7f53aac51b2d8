package main

import (
	"fmt"
	"io"
	"math"
	"slices"
)

// result is one run's window: the server's CPU per byte that arrived, the
// bytes' rate, and what the sockets and the lanes did meanwhile.
type result struct {
	config
	requests   uint64
	cpuPerGB   float64 // server CPU seconds per GB (ns per byte)
	mbps       float64
	writeBytes float64 // mean bytes per Write into the hashers
	laneFill   float64 // hashlanes: share of the multi-lane kernels' lanes in use; -1 without
	singleFrac float64 // hashlanes: share of the blocks hashed on the single-stream kernel; -1 without
	goroutines int
	roundKB    float64 // hashlanes: a multi-lane round's capacity in KiB, mean
	awaits     float64 // hashlanes: lone combiners' waits for writers, per MB; -1 without
	joined     float64 // the share of them after which a writer had queued
}

func newResult(c config, a, b serverStats, requests uint64) result {
	bytes := float64(b.Bytes - a.Bytes)
	r := result{
		config:     c,
		requests:   requests,
		cpuPerGB:   float64(b.CPU-a.CPU) / bytes,
		mbps:       bytes / (b.Time - a.Time).Seconds() / 1e6,
		writeBytes: bytes / float64(b.Writes-a.Writes),
		laneFill:   -1,
		singleFrac: -1,
		awaits:     -1,
		goroutines: b.Goroutines,
	}
	if b.Lanes != nil {
		var blocks, capacity, single, awaits, joined, calls uint64
		for k, lb := range b.Lanes {
			la := a.Lanes[k]
			blocks += lb.MultiBlocks - la.MultiBlocks
			capacity += lb.MultiCapacity - la.MultiCapacity
			single += lb.SingleBlocks - la.SingleBlocks
			awaits += lb.Awaits - la.Awaits
			calls += lb.MultiCalls - la.MultiCalls
			joined += lb.AwaitsJoined - la.AwaitsJoined
		}
		r.awaits = float64(awaits) / bytes * 1e6
		if calls > 0 {
			r.roundKB = float64(capacity) / float64(calls) * 64 / 1024 // blocks of 64 bytes, MD5's and SHA-256's
		}
		if awaits > 0 {
			r.joined = float64(joined) / float64(awaits)
		}
		if capacity > 0 {
			r.laneFill = float64(blocks) / float64(capacity)
		}
		if blocks+single > 0 {
			r.singleFrac = float64(single) / float64(blocks+single)
		}
	}
	return r
}

// line is the run as a Go benchmark line: requests completed in the
// window as the iteration count.
func (r result) line() string {
	s := fmt.Sprintf("Benchmark%s \t%d\t%.4f cpu-s/GB\t%.1f MB/s\t%.0f B/write", r.name(), max(r.requests, 1), r.cpuPerGB, r.mbps, r.writeBytes)
	if r.laneFill >= 0 {
		s += fmt.Sprintf("\t%.1f lane-%%", 100*r.laneFill)
	}
	if r.singleFrac >= 0 {
		s += fmt.Sprintf("\t%.1f single-%%", 100*r.singleFrac)
	}
	if r.awaits >= 0 {
		s += fmt.Sprintf("\t%.1f KiB/round\t%.3f awaits/MB\t%.1f joined-%%", r.roundKB, r.awaits, 100*r.joined)
	}
	return s
}

func median(x []float64) float64 {
	if len(x) == 0 {
		return math.NaN()
	}
	x = slices.Clone(x)
	slices.Sort(x)
	if n := len(x); n%2 == 1 {
		return x[n/2]
	} else {
		return (x[n/2-1] + x[n/2]) / 2
	}
}

// writeTable prints, per digest, size and concurrency, the medians of the
// server's CPU per GB, the hashing cost over the baseline, and the
// standard library's cost over hashlanes': the median of the ratios of
// runs made side by side (run k of each implementation), with their range.
func writeTable(w io.Writer, o *options, rs []result) {
	type key struct {
		digest, size string
		conc         int
		impl         string
	}
	runs := map[key][]result{}
	for _, r := range rs {
		k := key{r.digest, r.size.name, r.conc, r.impl}
		runs[k] = append(runs[k], r)
	}
	cpu := func(k key) []float64 {
		var x []float64
		for _, r := range runs[k] {
			x = append(x, r.cpuPerGB)
		}
		return x
	}
	fmt.Fprintf(w, "Server CPU per GB uploaded (s/GB), medians of %d runs; cost = CPU minus the no-hash server's; cpu: %s\n\n", o.count, cpuName())
	fmt.Fprintln(w, "| digest | size | uploads at once | no hash | stdlib | hashlanes | stdlib cost | hashlanes cost | cost ratio (range) | server CPU ratio | MB/s stdlib → hashlanes | B/write | lanes in use |")
	fmt.Fprintln(w, "|---|---|---|---|---|---|---|---|---|---|---|---|---|")
	for _, d := range o.digests {
		for _, sz := range o.sizes {
			for _, conc := range o.concs {
				base := cpu(key{"none", sz.name, conc, "none"})
				std := cpu(key{d, sz.name, conc, "stdlib"})
				hl := cpu(key{d, sz.name, conc, "hashlanes"})
				if len(std) == 0 && len(hl) == 0 {
					continue
				}
				var ratios, whole []float64
				for i := range min(len(base), len(std), len(hl)) {
					if c := hl[i] - base[i]; c > 0 {
						ratios = append(ratios, (std[i]-base[i])/c)
					}
				}
				// The whole server's CPU, run k of each: no baseline in it,
				// so it holds where the no-hash server's own CPU swings.
				for i := range min(len(std), len(hl)) {
					whole = append(whole, std[i]/hl[i])
				}
				mb, ms, mh := median(base), median(std), median(hl)
				cell := "n/a"
				if len(ratios) > 0 {
					cell = fmt.Sprintf("**%.2f×** (%.2f–%.2f)", median(ratios), slices.Min(ratios), slices.Max(ratios))
				}
				var mbS, mbH, wb, fill []float64
				for _, r := range runs[key{d, sz.name, conc, "stdlib"}] {
					mbS = append(mbS, r.mbps)
				}
				for _, r := range runs[key{d, sz.name, conc, "hashlanes"}] {
					mbH = append(mbH, r.mbps)
					wb = append(wb, r.writeBytes)
					if r.laneFill >= 0 {
						fill = append(fill, r.laneFill*100*(1-r.singleFrac))
					}
				}
				wholeCell := "n/a"
				if len(whole) > 0 {
					wholeCell = fmt.Sprintf("%.3f×", median(whole))
				}
				fillCell := "—"
				if len(fill) > 0 {
					fillCell = fmt.Sprintf("%.0f%%", median(fill))
				}
				fmt.Fprintf(w, "| %s | %s | %d | %s | %s | %s | %s | %s | %s | %s | %.0f → %.0f | %.0f | %s |\n",
					d, sz.name, conc, f3(mb), f3(ms), f3(mh), f3(ms-mb), f3(mh-mb), cell, wholeCell,
					median(mbS), median(mbH), median(wb), fillCell)
			}
		}
	}
	fmt.Fprintln(w, "\nserver CPU ratio: the standard library's server CPU per GB over hashlanes', the whole process, run k of each, the median.")
	fmt.Fprintln(w, "\nlanes in use: the blocks hashed in multi-lane rounds, as a share of those rounds' capacity, times the share of blocks that went through such rounds at all.")
}

func f3(x float64) string {
	if math.IsNaN(x) {
		return "—"
	}
	return fmt.Sprintf("%.3f", x)
}
