package main

import (
	"strings"
	"testing"
)

const kernelLines = `goos: linux
BenchmarkKernel/alg=sha256/impl=shani/lanes=1/busy=1 	5803	20662 ns/op	1600.00 MB/s
BenchmarkKernel/alg=sha256/impl=shanix2/lanes=2/busy=1/layout=aligned 	5720	20679 ns/op	1500.00 MB/s
BenchmarkKernel/alg=sha256/impl=shanix2/lanes=2/busy=2/layout=aligned 	5766	20879 ns/op	3100.00 MB/s
BenchmarkKernel/alg=sha256/impl=shanix2/lanes=2/busy=2/layout=aligned 	5766	20879 ns/op	3000.00 MB/s
BenchmarkKernel/alg=sha256/impl=shanix2/lanes=2/busy=2/layout=aligned 	5766	20879 ns/op	2000.00 MB/s
BenchmarkKernel/alg=sha256/impl=shanix4/lanes=4/busy=2/layout=aligned 	2851	39618 ns/op	1650.00 MB/s
BenchmarkKernel/alg=sha256/impl=shanix4/lanes=4/busy=3/layout=aligned 	3027	39583 ns/op	2480.00 MB/s
BenchmarkKernel/alg=sha256/impl=shanix4/lanes=4/busy=4/layout=aligned 	3014	39558 ns/op	3300.00 MB/s
BenchmarkKernel/alg=sha256/impl=generic/lanes=1/busy=1 	100	20662 ns/op	160.00 MB/s
BenchmarkKernel/alg=sha256/impl=generic/lanes=32/busy=2/layout=aligned 	10	39558 ns/op	150.00 MB/s
BenchmarkKernel/alg=sha256/impl=generic/lanes=32/busy=32/layout=aligned 	10	39558 ns/op	150.00 MB/s
`

const streamLines = `BenchmarkVersusStdlib/alg=sha256/streams=2/size=1MiB 	5	2078010 ns/op	2821 hashlanes-MB/s	1.80 hashlanes/stdlib	1572 stdlib-MB/s
BenchmarkVersusStdlib/alg=sha256/streams=2/size=1MiB 	5	2078010 ns/op	2821 hashlanes-MB/s	1.90 hashlanes/stdlib	1572 stdlib-MB/s
BenchmarkVersusStdlib/alg=sha256/streams=64/size=1MiB 	5	2078010 ns/op	2821 hashlanes-MB/s	1.95 hashlanes/stdlib	1572 stdlib-MB/s
`

func TestTable(t *testing.T) {
	kernels, err := readKernels(strings.NewReader(kernelLines), "kernels")
	if err != nil {
		t.Fatal(err)
	}
	ratios, err := readRatios(strings.NewReader(streamLines), "streams")
	if err != nil {
		t.Fatal(err)
	}
	var out strings.Builder
	writeTable(&out, kernels, ratios)
	if strings.Contains(out.String(), `"generic": {`) {
		t.Errorf("fill shares for the pure-Go lanes, which never run:\n%s", out.String())
	}
	for _, row := range []string{
		"| b | generic (1) | shani (1) | shanix2 (2) | shanix4 (4) | generic (32) | engine ÷ stdlib |",
		// One stream: the single-stream kernel, against one busy lane of two.
		"| 1 | 160 | 1600 * | 1500 |  |  |  |",
		// Medians: 3000 of 2000, 3000, 3100; 1.85 of two pairs' ratios.
		"| 2 | 160 | 1600 | 3000 * | 1650 | 150 | 1.850× (2) |",
		"| 3 | 160 | 1600 | 3000 * | 2480 |  |  |",
		// A kernel narrower than the ready count runs full.
		"| 8 | 160 | 1600 | 3000 | 3300 * |  |  |",
		"| 64 |  |  |  |  |  | 1.950× (1) |",
		// Every lane busy: the rate table's entries.
		// The pure-Go lanes, named as the pure-Go single stream, are left out.
		`    {"generic": 160, "shani": 1600, "shanix2": 3000, "shanix4": 3300},`,
		// Shares of the full rate, 3000 and 3300 MB/s.
		`    "shanix2": {1: 0.500},`,
		`    "shanix4": {2: 0.500, 3: 0.752},`,
	} {
		if !strings.Contains(out.String(), row+"\n") {
			t.Errorf("no row %q in\n%s", row, out.String())
		}
	}
}

func TestBadName(t *testing.T) {
	_, err := readKernels(strings.NewReader("BenchmarkKernel/alg=md5/impl=x/lanes=two/busy=1 	1	1 ns/op	1.00 MB/s\n"), "kernels")
	if err == nil {
		t.Error("a lane count that is not a number was accepted")
	}
}
