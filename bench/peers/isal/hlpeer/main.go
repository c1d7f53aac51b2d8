// Command hlpeer runs hashlanes on the shapes of isa-l_crypto's side
// (isal_peer.c), on one core, and prints the same line: the median MB/s
// of its timed repetitions and the hex digest of message 0.
//
//	hlpeer md5|sha1|sha256|sha512 perf|streams [N]
//
// perf is SumMany of N (32) messages of 4 KiB; streams is N (16) hashers
// of 1 MiB each, written in 32 KiB pieces by a goroutine apiece. The
// messages' bytes are isal_peer's. HASHLANES_CPU=avx2 caps the tier.
package main

import (
	"encoding/hex"
	"fmt"
	"hash"
	"os"
	"runtime"
	"slices"
	"strconv"
	"time"

	"github.com/hashlanes/hashlanes"
	"github.com/hashlanes/hashlanes/internal/workload"
)

const (
	reps  = 7
	minMs = 200
)

// fill writes message k's bytes, as isal_peer.c does.
func fill(b []byte, k int) {
	for i := range b {
		b[i] = byte(uint32(i+4099*k) * 2654435761 >> 24)
	}
}

func main() {
	if len(os.Args) < 3 {
		fmt.Fprintln(os.Stderr, "usage: hlpeer md5|sha1|sha256|sha512 perf|streams [N]")
		os.Exit(2)
	}
	a, err := hashlanes.ParseAlgorithm(os.Args[1])
	if err != nil {
		fmt.Fprintln(os.Stderr, "hlpeer:", err)
		os.Exit(2)
	}
	perf := os.Args[2] == "perf"
	if !perf && os.Args[2] != "streams" {
		fmt.Fprintln(os.Stderr, "hlpeer: unknown workload", os.Args[2])
		os.Exit(2)
	}
	n, size := 16, 1<<20
	if perf {
		n, size = 32, 4096
	}
	if len(os.Args) > 3 {
		if n, err = strconv.Atoi(os.Args[3]); err != nil || n < 1 {
			fmt.Fprintln(os.Stderr, "hlpeer: bad N", os.Args[3])
			os.Exit(2)
		}
	}
	runtime.GOMAXPROCS(1) // one core, as isa-l_crypto's manager runs
	msgs := make([][]byte, n)
	for i := range msgs {
		msgs[i] = make([]byte, size)
		fill(msgs[i], i)
	}
	var first []byte // message 0's digest, for the script to compare with isa-l_crypto's
	var run func()
	if perf {
		dst := make([]byte, 0, n*a.Size())
		run = func() { dst = hashlanes.SumMany(a, dst[:0], msgs) }
		run()
		first = slices.Clone(dst[:a.Size()])
	} else {
		run = func() { workload.Streams(msgs, func() hash.Hash { return hashlanes.New(a) }, nil) }
		first = hashlanes.Sum(a, msgs[0])
	}
	var mbps []float64
	for rep := -1; rep < reps; rep++ { // rep -1 warms up
		iters := 0
		start := time.Now()
		for time.Since(start) < minMs*time.Millisecond {
			run()
			iters++
		}
		if rep >= 0 {
			mbps = append(mbps, float64(iters*n*size)/time.Since(start).Seconds()/1e6)
		}
	}
	slices.Sort(mbps)
	fmt.Printf("%.0f %s\n", mbps[reps/2], hex.EncodeToString(first))
}
