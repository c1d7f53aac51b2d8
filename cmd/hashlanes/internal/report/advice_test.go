package report

import (
	"math"
	"reflect"
	"regexp"
	"slices"
	"strings"
	"testing"
)

// algo is an algos-suite row of MB/s rates, one sample each.
func algo(alg, impl string, size int64, mbps ...float64) Row {
	r := Row{Suite: "algos", Alg: alg, Impl: impl, Size: size, Bytes: size}
	for _, v := range mbps {
		r.Samples = append(r.Samples, float64(size)/v*1e3)
	}
	return r
}

// lane is a lanes-suite row of MB/s rates.
func lane(alg, impl string, streams int, mbps ...float64) Row {
	r := algo(alg, impl, 1<<20, mbps...)
	r.Suite, r.Streams, r.Bytes = "lanes", streams, int64(streams)<<20
	for i := range r.Samples {
		r.Samples[i] *= float64(streams)
	}
	return r
}

func lines(as []Advice, purpose string) []string {
	for _, a := range as {
		if a.Purpose == purpose {
			return a.Lines
		}
	}
	return nil
}

// TestAdviceIntegrity: MD5 and SHA-1, however fast, are never advised
// against an adversary, and said why; non-cryptographic hashes neither.
func TestAdviceIntegrity(t *testing.T) {
	rows := []Row{
		algo("md5", "stdlib", 128, 900, 905, 910), algo("sha1", "stdlib", 128, 1500, 1490, 1510),
		algo("sha256", "stdlib", 128, 400, 402, 398), algo("xxh3", "zeebo/xxh3", 128, 9000, 9000, 9000),
		algo("md5", "stdlib", 1<<20, 700, 700, 700), algo("sha1", "hashlanes", 1<<20, 2000, 2000, 2000),
		algo("sha256", "stdlib", 1<<20, 1700, 1700, 1700), algo("blake3", "blake3", 1<<20, 1000, 1000, 1000),
	}
	got := lines(Advise(rows), "Integrity against an adversary")
	if len(got) != 3 {
		t.Fatalf("%d lines: %q", len(got), got)
	}
	for _, l := range got[:2] {
		if strings.Contains(l, "md5") || strings.Contains(l, "sha1") || strings.Contains(l, "xxh3") {
			t.Errorf("advised against an adversary: %q", l)
		}
		if !strings.Contains(l, "MB/s ±") {
			t.Errorf("no figures: %q", l)
		}
	}
	if !strings.HasPrefix(got[0], "Small messages (128B): sha256 (stdlib) 400 MB/s") || !strings.Contains(got[1], "sha256 (stdlib) 1700 MB/s ±0%, ahead of blake3") {
		t.Errorf("%q", got)
	}
	if !strings.Contains(got[2], "Not MD5 or SHA-1") {
		t.Errorf("%q", got[2])
	}
	check := lines(Advise(rows), "Checksums and deduplication, no adversary")
	if len(check) != 2 || !strings.Contains(check[0], "xxh3") && !strings.Contains(check[0], "sha1†") || !strings.Contains(check[1], "Only where nobody else chooses the data") {
		t.Errorf("checksums: %q", check)
	}
}

// TestAdviceStable: two runs whose leaders trade places within their
// noise give the same advice, naming both.
func TestAdviceStable(t *testing.T) {
	run := func(sha, blake float64) []Advice {
		return Advise([]Row{
			algo("sha256", "hashlanes", 1<<20, sha, sha*1.04, sha*0.97),
			algo("blake3", "blake3", 1<<20, blake, blake*1.02, blake*0.98),
			algo("sha512", "stdlib", 1<<20, 800, 800, 800),
		})
	}
	// The figures differ from run to run; what is advised must not.
	figures := regexp.MustCompile(`\d+ MB/s ±\d+%`)
	strip := func(as []Advice) (out []string) {
		for _, a := range as {
			for _, l := range a.Lines {
				out = append(out, figures.ReplaceAllString(l, "N MB/s"))
			}
		}
		return out
	}
	a, b := run(1000, 980), run(975, 1010)
	if !slices.Equal(strip(a), strip(b)) {
		t.Fatalf("advice flipped on noise:\n%q\n%q", strip(a), strip(b))
	}
	got := lines(a, "Integrity against an adversary")[0]
	if !strings.Contains(got, "blake3 (blake3)") || !strings.Contains(got, "sha256 (hashlanes)") || !strings.Contains(got, "within noise of each other") {
		t.Errorf("%q", got)
	}
	if strings.Index(got, "blake3") > strings.Index(got, "sha256") {
		t.Errorf("ties not in alphabetical order: %q", got)
	}
}

// TestAdviceDrift: rows that measure the same work (SHA-224 and SHA-256
// through one implementation) but read 31% apart show how far the
// machine moved between rows: an unpaired gap smaller than that is a tie,
// though each row's samples agree within 1%. The same rows without the
// witness are told apart, and a gap beyond the drift still is (SHA3-256
// is not among the leaders).
func TestAdviceDrift(t *testing.T) {
	sha256Row := algo("sha256", "hashlanes", 128, 809, 805, 812)
	blake := algo("blake2b", "x/crypto", 128, 630, 628, 633)
	witness := algo("sha224", "hashlanes", 128, 619, 617, 622)
	small := func(rows ...Row) string {
		return lines(Advise(rows), "Integrity against an adversary")[0]
	}
	if got := small(sha256Row, blake); !strings.Contains(got, "ahead of blake2b") {
		t.Errorf("without the witness: %q", got)
	}
	if got := small(sha256Row, blake, witness); !strings.Contains(got, "within noise of each other") || !strings.Contains(got, "blake2b") {
		t.Errorf("with the witness: %q", got)
	}
	slow := algo("sha3-256", "stdlib", 128, 400, 401, 399)
	if got := small(sha256Row, slow, witness); strings.Contains(got, "sha3-256") {
		t.Errorf("a gap beyond the drift: %q", got)
	}
	if d := runDrift([]Row{sha256Row, witness, algo("sha224", "stdlib", 128, 500)}); math.Abs(d-(809.0/619-1)) > 0.01 {
		t.Errorf("drift %.3f, want %.3f (one implementation's rows only)", d, 809.0/619-1)
	}
	if ns := notes(Report{Rows: []Row{sha256Row, blake, witness}}); !slices.ContainsFunc(ns, func(n string) bool { return strings.HasPrefix(n, "Drift: ") && strings.Contains(n, "31% apart") }) {
		t.Errorf("no drift note: %q", ns)
	}
}

// TestAdviceStreams: the stream count from which lanes are worth it is
// the first beyond the noise; one within the noise of the threshold is
// named as such; with an uncertain count and none that pays, there is no
// verdict; MD5 and SHA-1 are marked broken.
func TestAdviceStreams(t *testing.T) {
	rows := []Row{
		lane("sha256", "stdlib", 2, 1000, 1000, 1000), lane("sha256", "hashlanes", 2, 1200, 1200, 1200),
		lane("sha256", "stdlib", 4, 1000, 1000, 1000), lane("sha256", "hashlanes", 4, 1520, 1600, 1450),
		lane("sha256", "stdlib", 16, 1000, 1000, 1000), lane("sha256", "hashlanes", 16, 2000, 2000, 2000),
		lane("md5", "stdlib", 16, 600, 600, 600), lane("md5", "hashlanes", 16, 7000, 7000, 7000),
		lane("sha512", "stdlib", 16, 600, 600, 600), lane("sha512", "hashlanes", 16, 700, 700, 700),
		// SHA-1 measured below the payoff where it is certain; the count
		// that could pay was uncertain: no verdict either way.
		lane("sha1", "stdlib", 2, 1000, 1000, 1000), lane("sha1", "hashlanes", 2, 1060, 1060, 1060),
		lane("sha1", "stdlib", 16, 1000, 1000, 1000), odd(lane("sha1", "hashlanes", 16, 3700, 3000, 4400)),
		// Every uncertain count below the first that pays may move it.
		odd(lane("sha384", "stdlib", 1, 1000, 1000, 1000)), lane("sha384", "hashlanes", 1, 1000, 1000, 1000),
		lane("sha384", "stdlib", 2, 1000, 1000, 1000), odd(lane("sha384", "hashlanes", 2, 1400, 1000, 1800)),
		lane("sha384", "stdlib", 8, 1000, 1000, 1000), lane("sha384", "hashlanes", 8, 4400, 4400, 4400),
		lane("sha384", "stdlib", 16, 1000, 1000, 1000), odd(lane("sha384", "hashlanes", 16, 4400, 3000, 5800)),
	}
	got := lines(Advise(rows), "Many concurrent streams")
	want := []string{
		"sha256: 1.20× at 2, 1.52× at 4, 2.00× at 16 streams; worth it from 16 streams (at 4 within noise of 1.5×).",
		"md5†: 11.67× at 16 streams; worth it from 16 streams.",
		"sha512: 1.17× at 16 streams; below 1.5× here (best 1.17×): hash its streams one by one.",
		"sha1†: 1.06× at 2, uncertain at 16 streams; not settled here (best 1.06× where measured, uncertain at 1 of 2 counts): rerun on a quieter machine or with --full.",
		"sha384: uncertain at 1, uncertain at 2, 4.40× at 8, uncertain at 16 streams; worth it from 8 streams (1, 2 uncertain).",
	}
	if !slices.Equal(got, want) {
		t.Errorf("got\n%q\nwant\n%q", got, want)
	}
}

// TestAdviceLeavesUncertainOut: an uncertain row is not advised, nor fed
// to the calculator.
func TestAdviceLeavesUncertainOut(t *testing.T) {
	odd := algo("blake3", "blake3", 1<<20, 9000, 9000, 9000)
	odd.Uncertain = "a dip"
	rows := []Row{odd, algo("sha256", "stdlib", 1<<20, 1700, 1700, 1700)}
	if got := lines(Advise(rows), "Integrity against an adversary")[0]; strings.Contains(got, "blake3") {
		t.Errorf("%q", got)
	}
	for _, a := range scenarioData(rows).Algs {
		if a.Alg == "blake3" {
			t.Error("the calculator takes the uncertain row")
		}
	}
}

// TestScenarioDefault: the calculator starts on SHA-256, hashlanes' where
// it runs, and knows each lane algorithm's speed-ups.
func TestScenarioDefault(t *testing.T) {
	sc := scenarioData(append(sample().Rows, algo("sha256", "hashlanes", 1<<20, 1800, 1800, 1800), algo("blake2b", "x/crypto", 1<<20, 900)))
	if a := sc.Algs[sc.Default]; a.Name != "sha256 (hashlanes)" {
		t.Errorf("default %q", a.Name)
	}
	if len(sc.Lanes) != 1 || sc.Lanes[0].Alg != "md5" || sc.Lanes[0].Streams[0] != 16 || sc.Lanes[0].Speedup[0] < 10 {
		t.Errorf("lanes %+v", sc.Lanes)
	}
	for _, a := range sc.Algs {
		if a.Broken != (a.Alg == "md5") {
			t.Errorf("%s broken %v", a.Name, a.Broken)
		}
	}
}

// TestDips: a row under half of both neighbours is a dip; the ends, a
// gentle slope and another implementation's rows are not.
func TestDips(t *testing.T) {
	rows := []Row{
		algo("blake3", "blake3", 128, 300), algo("blake3", "blake3", 8<<10, 70.6, 70.5, 70.7), algo("blake3", "blake3", 1<<20, 660),
		algo("md5", "stdlib", 128, 100), algo("md5", "stdlib", 8<<10, 600), algo("md5", "stdlib", 1<<20, 610),
		algo("sha1", "stdlib", 128, 1000), algo("sha1", "stdlib", 8<<10, 600), algo("sha1", "stdlib", 1<<20, 1100), // 0.6: no dip
		algo("sha1", "hashlanes", 8<<10, 10),
	}
	if got := Dips(rows); !slices.Equal(got, []int{1}) {
		t.Errorf("dips %v, want [1]", got)
	}
}

// TestSettle: the outlier rule on scripted measurements. A noisy row is
// measured again up to twice, keeping the attempt that agrees best, and
// stays uncertain if none agree; a dip is measured again once and is
// certain if it recovers, uncertain if not.
func TestSettle(t *testing.T) {
	noisy := algo("sha256", "stdlib", 1<<20, 1000, 1500, 1010)
	calm := algo("sha256", "stdlib", 1<<20, 1000, 1010, 990)
	rows := []Row{
		noisy,                                                                                                         // 0: calm on its second try
		algo("md5", "stdlib", 1<<20, 100, 300),                                                                        // 1: never calm
		algo("blake3", "blake3", 128, 300), algo("blake3", "blake3", 8<<10, 70), algo("blake3", "blake3", 1<<20, 660), // 3: recovers
		algo("sha512", "stdlib", 128, 300), algo("sha512", "stdlib", 8<<10, 70), algo("sha512", "stdlib", 1<<20, 660), // 6: stays
	}
	tries := map[int]int{}
	settle(rows, func(i, end int) ([]Row, bool) {
		if end != i+1 {
			t.Fatalf("rows %d..%d measured again together; none were measured side by side", i, end-1)
		}
		tries[i]++
		switch {
		case i == 0 && tries[i] == 1:
			return []Row{algo("sha256", "stdlib", 1<<20, 1000, 1300, 1000)}, true // better, still noisy
		case i == 0:
			return []Row{calm}, true
		case i == 1:
			return []Row{algo("md5", "stdlib", 1<<20, 100, 400)}, true // worse: the first stays
		case i == 3:
			return []Row{algo("blake3", "blake3", 8<<10, 640, 650, 645)}, true
		case i == 6:
			return []Row{algo("sha512", "stdlib", 8<<10, 71, 70, 70)}, true
		}
		t.Fatalf("row %d measured again", i)
		return nil, false
	})
	if !reflect.DeepEqual(tries, map[int]int{0: 2, 1: 2, 3: 1, 6: 1}) {
		t.Errorf("measured again: %v", tries)
	}
	if rows[0].Uncertain != "" || rows[0].Remeasured != 2 || Spread(rows[0].Samples) > NoisyAbove {
		t.Errorf("row 0: %+v", rows[0])
	}
	if rows[1].Uncertain == "" || rows[1].Remeasured != 2 || rows[1].Samples[1] != algo("md5", "stdlib", 1<<20, 100, 300).Samples[1] {
		t.Errorf("row 1: %+v", rows[1])
	}
	if rows[3].Uncertain != "" || rows[3].Remeasured != 1 {
		t.Errorf("row 3: %+v", rows[3])
	}
	if !strings.Contains(rows[6].Uncertain, "under half") {
		t.Errorf("row 6: %+v", rows[6])
	}
	for _, i := range []int{2, 4, 5, 7} {
		if rows[i].Uncertain != "" || rows[i].Remeasured != 0 {
			t.Errorf("row %d: %+v", i, rows[i])
		}
	}
}

// TestSettleSideBySide: a noisy row measured side by side is measured
// again with its partner, side by side, and both keep the attempt and
// their Pair, so that their ratio stays one of turns taken together; the
// same for a dip.
func TestSettleSideBySide(t *testing.T) {
	pair := func(p int, r Row) Row { r.Pair = p; return r }
	rows := []Row{
		pair(1, algo("sha384", "stdlib", 128, 300, 300, 300)),
		pair(1, algo("sha384", "hashlanes", 128, 200, 310, 300)), // noisy
		pair(2, algo("sha384", "stdlib", 8<<10, 700, 700, 700)),
		pair(2, algo("sha384", "hashlanes", 8<<10, 100, 100, 100)), // a dip
		pair(3, algo("sha384", "stdlib", 1<<20, 710, 710, 710)),
		pair(3, algo("sha384", "hashlanes", 1<<20, 700, 700, 700)),
	}
	var groups [][2]int
	settle(rows, func(start, end int) ([]Row, bool) {
		groups = append(groups, [2]int{start, end})
		size := rows[start].Size
		return []Row{
			pair(rows[start].Pair, algo("sha384", "stdlib", size, 290, 290, 290)),
			pair(rows[start].Pair, algo("sha384", "hashlanes", size, 295, 295, 295)),
		}, true
	})
	if !reflect.DeepEqual(groups, [][2]int{{0, 2}, {2, 4}}) {
		t.Fatalf("measured again: %v, want rows 0-1, then 2-3", groups)
	}
	for i, r := range rows[:4] {
		if r.Pair != i/2+1 || r.Remeasured != 1 || r.Uncertain != "" || r.MBps() < 289 || r.MBps() > 296 {
			t.Errorf("row %d: %+v", i, r)
		}
	}
	for i, r := range rows[4:] {
		if r.Remeasured != 0 {
			t.Errorf("row %d measured again: %+v", i+4, r)
		}
	}
}

// TestAdviceImplementation: of an algorithm's implementations, hashlanes'
// is named unless another is faster beyond the noise.
func TestAdviceImplementation(t *testing.T) {
	for _, tc := range []struct {
		stdlib, hashlanes float64
		want              string
	}{{1000, 990, "sha256 (hashlanes)"}, {990, 1000, "sha256 (hashlanes)"}, {1300, 1000, "sha256 (stdlib)"}, {1000, 1300, "sha256 (hashlanes)"}} {
		for _, order := range [][2]string{{"stdlib", "hashlanes"}, {"hashlanes", "stdlib"}} {
			rate := map[string]float64{"stdlib": tc.stdlib, "hashlanes": tc.hashlanes}
			rows := []Row{algo("sha256", order[0], 1<<20, rate[order[0]]), algo("sha256", order[1], 1<<20, rate[order[1]])}
			if got := lines(Advise(rows), "Integrity against an adversary")[0]; !strings.Contains(got, tc.want) {
				t.Errorf("%v, %v first: %q, want %s", tc, order[0], got, tc.want)
			}
		}
	}
}

// TestAdviceFloor: a size where the standard library is faster beyond the
// noise is named, with both figures; one within the noise is not, and
// without any the advice says how many rows it compared.
func TestAdviceFloor(t *testing.T) {
	rows := []Row{
		algo("sha512", "stdlib", 128, 300, 300, 300),
		algo("sha512", "hashlanes", 128, 200, 200, 200),
		algo("md5", "stdlib", 128, 500, 500, 500),
		algo("md5", "hashlanes", 128, 490, 490, 490),
	}
	got := lines(Advise(rows), floorPurpose)
	if len(got) != 1 || !strings.Contains(got[0], "sha512 at 128B") || !strings.Contains(got[0], "33% less") {
		t.Errorf("slower rows: %q", got)
	}
	got = lines(Advise(rows[2:]), floorPurpose)
	if len(got) != 1 || !strings.Contains(got[0], "all 1 comparisons") {
		t.Errorf("no slower row: %q", got)
	}
}

// TestSettleConfirmsFloorClaims: a row that reads slower than the
// standard library beyond the noise is measured again with its partner,
// side by side, and the advice names it only if the second measurement
// finds the gap too; rows within the noise are not measured again.
func TestSettleConfirmsFloorClaims(t *testing.T) {
	pair := func(p int, r Row) Row { r.Pair = p; return r }
	rows := []Row{
		pair(1, algo("sha384", "stdlib", 128, 318, 318, 318)),
		pair(1, algo("sha384", "hashlanes", 128, 300, 300, 300)), // 6% less: a noise burst
		pair(2, algo("sha512", "stdlib", 128, 300, 300, 300)),
		pair(2, algo("sha512", "hashlanes", 128, 250, 250, 250)), // 17% less: a real gap
		pair(3, algo("md5", "stdlib", 128, 500, 500, 500)),
		pair(3, algo("md5", "hashlanes", 128, 495, 495, 495)), // within the noise
	}
	again := map[int]Row{
		0: pair(1, algo("sha384", "stdlib", 128, 318, 318, 318)),
		1: pair(1, algo("sha384", "hashlanes", 128, 315, 315, 315)),
		2: pair(2, algo("sha512", "stdlib", 128, 300, 300, 300)),
		3: pair(2, algo("sha512", "hashlanes", 128, 252, 252, 252)),
	}
	var groups [][2]int
	settle(rows, func(start, end int) ([]Row, bool) {
		groups = append(groups, [2]int{start, end})
		var rs []Row
		for i := start; i < end; i++ {
			rs = append(rs, again[i])
		}
		return rs, true
	})
	if !reflect.DeepEqual(groups, [][2]int{{0, 2}, {2, 4}}) {
		t.Fatalf("measured again: %v, want rows 0-1 and 2-3", groups)
	}
	got := lines(Advise(rows), floorPurpose)
	if len(got) != 1 || !strings.Contains(got[0], "sha512 at 128B") {
		t.Errorf("claims after a second measurement: %q, want sha512's alone", got)
	}
}

// TestStrays: a reference row of the lanes suite far from the same
// implementation's rows at the other stream counts is measured again and
// stays uncertain if it still strays, so no speed-up is claimed over it;
// hashlanes' rows, which do grow with the streams, are never strays.
func TestStrays(t *testing.T) {
	rows := []Row{
		lane("sha512", "stdlib", 1, 517, 480, 530), lane("sha512", "hashlanes", 1, 672, 672, 672),
		lane("sha512", "stdlib", 4, 674, 674, 674), lane("sha512", "hashlanes", 4, 1200, 1200, 1200),
		lane("sha512", "stdlib", 16, 677, 677, 677), lane("sha512", "hashlanes", 16, 2000, 2000, 2000),
		lane("sha512", "stdlib", 64, 675, 675, 675), lane("sha512", "hashlanes", 64, 2100, 2100, 2100),
	}
	if got := Strays(rows); !slices.Equal(got, []int{0}) {
		t.Fatalf("strays %v, want [0]", got)
	}
	tries := 0
	settle(rows, func(i, end int) ([]Row, bool) {
		tries++
		if i != 0 || end != 1 {
			t.Fatalf("rows %d..%d measured again", i, end-1)
		}
		return []Row{lane("sha512", "stdlib", 1, 520, 520, 520)}, true
	})
	if tries != 1 || !strings.Contains(rows[0].Uncertain, "off the same implementation") {
		t.Errorf("after %d tries, row 0: %+v", tries, rows[0])
	}
	for _, l := range lines(Advise(rows), "Many concurrent streams") {
		if strings.Contains(l, "× at 1,") || strings.Contains(l, "× at 1 ") || !strings.Contains(l, "uncertain at 1") {
			t.Errorf("a speed-up over the stray row: %q", l)
		}
	}
}

// TestAdviceSideBySide: rows measured side by side are compared turn by
// turn, so a steady 5% gap is told apart where two rows measured one
// after another would be a tie; a gap within the turns' spread is not.
func TestAdviceSideBySide(t *testing.T) {
	std := algo("sha256", "stdlib", 1<<20, 788, 790, 786, 789, 787)
	hl := algo("sha256", "hashlanes", 1<<20, 751, 752, 748, 750, 751)
	if got := lines(Advise([]Row{std, hl}), floorPurpose); len(got) != 1 || !strings.Contains(got[0], "all 1 comparisons") {
		t.Errorf("measured apart, a 5%% gap is within the noise: %q", got)
	}
	std.Pair, hl.Pair = 7, 7
	got := lines(Advise([]Row{std, hl}), floorPurpose)
	if len(got) != 1 || !strings.Contains(got[0], "Slower: sha256 at 1MiB") {
		t.Errorf("side by side, the same gap: %q", got)
	}
	if got := lines(Advise([]Row{std, hl}), "Integrity against an adversary")[0]; !strings.Contains(got, "sha256 (stdlib)") {
		t.Errorf("the faster implementation: %q", got)
	}
	// A steady gap of 2.5%, told turn by turn: within what the ratio moves
	// from one run to the next, so no claim that a second run would not make.
	hl3 := algo("sha256", "hashlanes", 1<<20, 768, 770, 767, 769, 768)
	hl3.Pair = 7
	if got := lines(Advise([]Row{std, hl3}), floorPurpose); !strings.Contains(got[0], "all 1 comparisons") {
		t.Errorf("a 2.5%% gap side by side: %q", got)
	}
	// Turns that disagree: one ratio 1.15, one 0.95.
	hl2 := algo("sha256", "hashlanes", 1<<20, 685, 829, 750, 751, 752)
	hl2.Pair = 7
	if got := lines(Advise([]Row{std, hl2}), floorPurpose); !strings.Contains(got[0], "all 1 comparisons") {
		t.Errorf("turns that disagree: %q", got)
	}
}

// TestSettleChecksNearPayoff: a lanes pair whose speed-up is near the
// payoff is measured twice more, side by side, and the streams advice
// calls a count worth it only if every measurement does: a run whose
// first measurement of two streams read 1.80× while a later one read
// 1.30× names two streams as within noise, not worth it. A pair far from
// the payoff is measured once.
func TestSettleChecksNearPayoff(t *testing.T) {
	pair := func(p int, r Row) Row { r.Pair = p; return r }
	rows := []Row{
		pair(1, lane("md5", "stdlib", 2, 800, 800, 800)),
		pair(1, lane("md5", "hashlanes", 2, 1440, 1440, 1440)), // 1.80×
		pair(2, lane("md5", "stdlib", 16, 800, 800, 800)),
		pair(2, lane("md5", "hashlanes", 16, 8000, 8000, 8000)), // 10×: far from it
	}
	again := map[int][]float64{1: {1040, 1400}} // hashlanes' MB/s in the later measurements
	var groups [][2]int
	settle(rows, func(start, end int) ([]Row, bool) {
		groups = append(groups, [2]int{start, end})
		n := len(groups) - 1
		return []Row{
			pair(rows[start].Pair, lane("md5", "stdlib", rows[start].Streams, 800, 800, 800)),
			pair(rows[start].Pair, lane("md5", "hashlanes", rows[start].Streams, again[start+1][n], again[start+1][n], again[start+1][n])),
		}, true
	})
	if !reflect.DeepEqual(groups, [][2]int{{0, 2}, {0, 2}}) {
		t.Fatalf("measured again: %v, want rows 0-1 twice", groups)
	}
	if want := []float64{1.3, 1.75}; len(rows[1].Checks) != 2 || math.Abs(rows[1].Checks[0]-want[0]) > 1e-9 || math.Abs(rows[1].Checks[1]-want[1]) > 1e-9 {
		t.Errorf("checks %v, want %v", rows[1].Checks, want)
	}
	if rows[1].MBps() != 1440 || rows[3].Checks != nil {
		t.Errorf("rows changed: %+v, %+v", rows[1], rows[3])
	}
	got := lines(Advise(rows), "Many concurrent streams")
	want := []string{"md5†: 1.75× at 2 (1.30–1.80× in 3 measurements), 10.00× at 16 streams; worth it from 16 streams (at 2 within noise of 1.5×)."}
	if !slices.Equal(got, want) {
		t.Errorf("got\n%q\nwant\n%q", got, want)
	}
}

// odd marks a row uncertain, as the outlier rules would.
func odd(r Row) Row {
	r.Uncertain = "samples ±20%"
	return r
}
