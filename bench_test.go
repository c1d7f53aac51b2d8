package hashlanes

import (
	"crypto/sha256"
	"fmt"
	"hash"
	"io"
	"math/rand/v2"
	"runtime"
	"slices"
	"sync"
	"testing"
	"time"

	"lukechampine.com/blake3"

	"github.com/hashlanes/hashlanes/internal/cpu"
	"github.com/hashlanes/hashlanes/internal/cpu/cputest"
	"github.com/hashlanes/hashlanes/internal/reference"
	"github.com/hashlanes/hashlanes/internal/tuning"
	"github.com/hashlanes/hashlanes/internal/workload"
)

// benchImpl is a way a stream is hashed in the benchmarks: new returns the
// constructor of its hashers and, for the engine, the Server behind them.
type benchImpl struct {
	name  string
	level cpu.Level
	new   func() (func() hash.Hash, *Server)
}

// benchImpls are the standard library as the baseline, the engine as
// New gives it on this machine ("hashlanes": the highest tier the CPU
// and HASHLANES_CPU allow, so that the scripts measure hashlanes whatever
// the CPU), and the engine capped at each tier.
func benchImpls(a Algorithm) []benchImpl {
	impls := []benchImpl{
		{"stdlib", cpu.Generic, func() (func() hash.Hash, *Server) { return reference.ID(a).New, nil }},
		{"hashlanes", cpu.Generic, func() (func() hash.Hash, *Server) {
			s := NewServer(a)
			return s.NewHash, s
		}},
	}
	for _, c := range []CPU{CPUGeneric, CPUAVX2, CPUAVX512} {
		impls = append(impls, benchImpl{c.String(), cpu.Level(c), func() (func() hash.Hash, *Server) {
			s := NewServer(a, WithCPU(c))
			return s.NewHash, s
		}})
	}
	return impls
}

// reportLaneFill adds the share of the multi-lane kernels' time that went
// to lanes in use, and the multi-lane kernel calls per iteration, when s
// ran any: with a noisy machine's throughput swinging between runs, they
// tell an engine change from the noise. Calls count the rounds: a round
// ends where its shortest lane runs out, so lanes out of step with one
// another show as more calls for the same bytes.
func reportLaneFill(b *testing.B, s *Server) {
	if s == nil {
		return
	}
	if st := s.Stats(); st.MultiCapacity > 0 {
		b.ReportMetric(float64(st.MultiBlocks)/float64(st.MultiCapacity), "lanefill")
		b.ReportMetric(float64(st.MultiCalls)/float64(b.N), "calls/op")
	}
}

// BenchmarkStreams is the workload: N goroutines, each hashing its
// own message of SIZE bytes written in 32 KiB pieces through a fresh
// hasher. Run with -cpu 1 (GOMAXPROCS=1) unless measuring scaling.
func BenchmarkStreams(b *testing.B) {
	r := rand.New(rand.NewPCG(1, 2))
	for _, a := range []Algorithm{MD5, SHA1, SHA256, SHA512} {
		for _, impl := range benchImpls(a) {
			for _, n := range []int{1, 2, 3, 4, 6, 8, 16, 32, 64} {
				sizes := []int{32 << 10, 1 << 20}
				if n == 32 {
					// Longer streams, so that their common start and end weigh
					// less in the two-core runs.
					sizes = append(sizes, 4<<20)
				}
				for _, size := range sizes {
					name := fmt.Sprintf("alg=%v/impl=%s/streams=%d/size=%s", a, impl.name, n, workload.SizeName(int64(size)))
					b.Run(name, func(b *testing.B) {
						cputest.Require(b, impl.level)
						newHash, srv := impl.new()
						msgs := make([][]byte, n)
						for i := range msgs {
							msgs[i] = randomBytes(r, size) // separate allocations, as separate requests would have
						}
						b.SetBytes(int64(n * size))
						b.ReportAllocs()
						for b.Loop() {
							workload.Streams(msgs, newHash, nil)
						}
						reportLaneFill(b, srv)
					})
				}
			}
		}
	}
}

// pairSide is one side of benchPairs: run is timed, setup (if any) is
// not.
type pairSide struct {
	name       string
	setup, run func()
}

// benchPairs runs x and y alternately, b.N times each, the order swapped
// every pair, and reports each one's MB/s over all its runs and the median
// over the pairs of y's speed against x's. On a shared machine whose speed
// drifts over seconds, the two runs of a pair, milliseconds apart, see the
// same machine: a ratio of separate processes' medians moved ±5% where
// nothing had changed, the median of pairs under 1%
// (bench/results/2026-11-22/streams-procs-instep.txt). Each run hashes
// bytes; ns/op is the time of a pair.
func benchPairs(b *testing.B, bytes int, x, y pairSide) {
	var ratios []float64
	var xTime, yTime time.Duration
	timed := func(s pairSide) time.Duration {
		if s.setup != nil {
			b.StopTimer()
			s.setup()
			b.StartTimer()
		}
		start := time.Now()
		s.run()
		return time.Since(start)
	}
	for b.Loop() {
		var tx, ty time.Duration
		if len(ratios)%2 == 0 {
			tx = timed(x)
			ty = timed(y)
		} else {
			ty = timed(y)
			tx = timed(x)
		}
		xTime += tx
		yTime += ty
		ratios = append(ratios, float64(tx)/float64(ty))
	}
	slices.Sort(ratios)
	median := ratios[len(ratios)/2]
	if len(ratios)%2 == 0 {
		median = (ratios[len(ratios)/2-1] + median) / 2
	}
	total := float64(bytes) * float64(b.N) / 1e6
	b.ReportMetric(total/xTime.Seconds(), x.name+"-MB/s")
	b.ReportMetric(total/yTime.Seconds(), y.name+"-MB/s")
	b.ReportMetric(median, y.name+"/"+x.name)
}

// TestBenchPairs checks what benchPairs reports on two sides of known
// speeds: one taking 2 ms a run after 5 ms of setup, which must stay out
// of its time, the other 1 ms. Each run polls the clock until its time
// is up and adds up the time it took itself, so the speeds reported can
// be held to the runs' own total, however a loaded machine (the race
// detector, other packages' tests on both cores) stretches the runs: a
// setup leaking into the time would cost the slow side 5 ms a run.
func TestBenchPairs(t *testing.T) {
	if testing.Short() {
		t.Skip("seconds of waiting")
	}
	const bytes = 1 << 20
	var slowTime, fastTime time.Duration
	var runs int
	wait := func(d time.Duration, total *time.Duration) func() {
		return func() {
			start := time.Now()
			for time.Since(start) < d {
			}
			*total += time.Since(start)
		}
	}
	r := testing.Benchmark(func(b *testing.B) {
		slowTime, fastTime = 0, 0
		benchPairs(b, bytes,
			pairSide{name: "slow", setup: func() { time.Sleep(5 * time.Millisecond) }, run: wait(2*time.Millisecond, &slowTime)},
			pairSide{name: "fast", run: wait(time.Millisecond, &fastTime)})
		runs = b.N
	})
	if r.N < 2 || runs != r.N {
		t.Fatalf("%d pairs, %d runs of each side", r.N, runs)
	}
	// The median pair's ratio of times, polled on the clock: about 2
	// unless the machine stretched most pairs' runs.
	if got := r.Extra["fast/slow"]; got < 1.5 || got > 2.5 {
		t.Errorf("fast/slow = %.3f, want about 2", got)
	}
	// Each side's speed over all its runs: at most what the runs' own
	// time gives, and less only by what timing one call adds.
	for _, side := range []struct {
		name  string
		total time.Duration
	}{{"slow", slowTime}, {"fast", fastTime}} {
		want := float64(bytes) * float64(runs) / 1e6 / side.total.Seconds()
		if got := r.Extra[side.name+"-MB/s"]; got > want*1.0001 || got < want*0.95 {
			t.Errorf("%s side %.1f MB/s, want %.1f from its runs' own time", side.name, got, want)
		}
	}
}

// BenchmarkVersusStdlib is the stream workload of the issues' targets, N
// streams of 1 MiB, through the standard library and through hashlanes
// alternately, iteration by iteration (benchPairs): the ratio is
// hashlanes' speed over the standard library's. Run with -cpu 1 for the
// one-core targets. The counts below 16 are the engine's crossovers, where
// each round's kernel is picked from the ready streams (scripts/crossover).
// The key tuning= is where the engine's rates come from: measured on this
// machine (the default without a wisdom file), or the prior alone
// (HASHLANES_TUNING=table: this CPU's, or the nearest one's).
func BenchmarkVersusStdlib(b *testing.B) {
	r := rand.New(rand.NewPCG(3, 4))
	for _, a := range []Algorithm{MD5, SHA1, SHA256, SHA512} {
		for _, n := range []int{1, 2, 3, 4, 6, 8, 16, 32, 64} {
			for _, mode := range []string{"measure", "table"} {
				b.Run(fmt.Sprintf("alg=%v/streams=%d/size=1MiB/tuning=%s", a, n, mode), func(b *testing.B) {
					msgs := make([][]byte, n)
					for i := range msgs {
						msgs[i] = randomBytes(r, 1<<20)
					}
					s := NewServer(a, WithTuning(mode))
					s.Calibrate() // its cost is BenchmarkCalibrate's
					b.ReportAllocs()
					benchPairs(b, n<<20,
						pairSide{name: "stdlib", run: func() { workload.Streams(msgs, reference.ID(a).New, nil) }},
						pairSide{name: "hashlanes", run: func() { workload.Streams(msgs, s.NewHash, nil) }})
				})
			}
		}
	}
}

// BenchmarkVersusTable is the stream workload through the engine with its
// rates measured on this machine against the same engine on a prior's
// rates alone, alternately (benchPairs): the ratio is the self-tuned
// engine's speed over the table's. table=prior is the prior this CPU
// takes (its own, or the nearest); table=NAME a named one.
func BenchmarkVersusTable(b *testing.B) {
	r := rand.New(rand.NewPCG(3, 4))
	tables := []string{"prior"}
	tables = append(tables, tuning.PriorNames()...)
	for _, a := range []Algorithm{MD5, SHA1, SHA256, SHA512} {
		for _, n := range []int{1, 2, 3, 4, 6, 8, 16, 32, 64} {
			for _, table := range tables {
				b.Run(fmt.Sprintf("alg=%v/streams=%d/size=1MiB/table=%s", a, n, table), func(b *testing.B) {
					msgs := make([][]byte, n)
					for i := range msgs {
						msgs[i] = randomBytes(r, 1<<20)
					}
					mode := "table"
					if table != "prior" {
						mode += ":" + table
					}
					tabled, tuned := NewServer(a, WithTuning(mode)), NewServer(a, WithTuning("measure"))
					tuned.Calibrate()
					b.ReportAllocs()
					benchPairs(b, n<<20,
						pairSide{name: "table", run: func() { workload.Streams(msgs, tabled.NewHash, nil) }},
						pairSide{name: "tuned", run: func() { workload.Streams(msgs, tuned.NewHash, nil) }})
				})
			}
		}
	}
}

// BenchmarkCalibrate is what the engine's measurement on first use costs:
// each kernel family's kernels (what the first round with two streams
// ready pays) and each algorithm's SumMany cut-off (the first batch that
// could go either way), in wall time and in this process's CPU time.
func BenchmarkCalibrate(b *testing.B) {
	for _, f := range []*tuning.Family{md5Family.get(), sha1Family.get(), sha256Family.get(), sha512Family.get()} {
		b.Run("family="+f.Name(), func(b *testing.B) {
			cpu0 := processCPU()
			for b.Loop() {
				if _, err := tuning.Measure(f.Probes(), tuning.QuickMeasure); err != nil {
					b.Fatal(err)
				}
			}
			b.ReportMetric(float64((processCPU()-cpu0).Microseconds())/1e3/float64(b.N), "cpu-ms/op")
		})
	}
	for _, a := range []Algorithm{MD5, SHA1, SHA256, SHA512} {
		b.Run("summany="+a.String(), func(b *testing.B) {
			s := DefaultServer(a)
			if s.choice == nil {
				b.Skip("not on the engine in this build")
			}
			cpu0 := processCPU()
			for b.Loop() {
				if _, err := s.measureSumManyCutoff(tuning.QuickMeasure); err != nil {
					b.Fatal(err)
				}
			}
			b.ReportMetric(float64((processCPU()-cpu0).Microseconds())/1e3/float64(b.N), "cpu-ms/op")
		})
	}
}

// BenchmarkLoneFirst is a lone stream's first 1 MiB, in 32 KiB writes, on
// a server whose measurement is still pending (a fresh kernel family, so
// that nothing has measured it) against one whose measurement is done,
// alternately: a lone stream has no choice to make and must not pay for
// the measurement, or wait for it.
func BenchmarkLoneFirst(b *testing.B) {
	msg := randomBytes(rand.New(rand.NewPCG(7, 8)), 1<<20)
	for _, a := range []Algorithm{MD5, SHA1, SHA256, SHA512} {
		b.Run("alg="+a.String(), func(b *testing.B) {
			done := NewServer(a, WithTuning("measure"))
			if done.choice == nil {
				b.Skip("not on the engine in this build")
			}
			done.Calibrate()
			var pending *Server
			lone := func(s **Server) func() {
				return func() { workload.Streams([][]byte{msg}, (*s).NewHash, nil) }
			}
			benchPairs(b, 1<<20,
				pairSide{name: "pending", setup: func() {
					measure := tuning.Mode{Kind: tuning.ModeMeasure}
					f := familyFor(a)
					fresh := tuning.NewFamily(f.Name(), f.Probes, measure)
					pending = newServer(a, cpu.Active, func(*tuning.Family) tuning.Source { return fresh.Source(measure) })
					if !pending.choice().Pending() {
						b.Fatal("a fresh family has measured")
					}
				}, run: lone(&pending)},
				pairSide{name: "done", run: lone(&done)})
			if !pending.choice().Pending() {
				b.Fatal("a lone stream measured the kernels")
			}
		})
	}
}

// BenchmarkScaling is the stream workload of the two-core targets, 32
// streams of 1 MiB through hashlanes, at GOMAXPROCS=1 and 2 alternately,
// iteration by iteration (benchPairs): the ratio is the speed at two Ps
// over the speed at one. It sets GOMAXPROCS itself, whatever -cpu says,
// and so needs a machine of two CPUs or more; the standard library runs
// too, as the yardstick of what two cores give.
func BenchmarkScaling(b *testing.B) {
	if runtime.NumCPU() < 2 {
		b.Skip("one CPU")
	}
	r := rand.New(rand.NewPCG(5, 6))
	for _, a := range []Algorithm{MD5, SHA1, SHA256, SHA512} {
		msgs := make([][]byte, 32)
		for i := range msgs {
			msgs[i] = randomBytes(r, 1<<20)
		}
		for _, impl := range []string{"stdlib", "hashlanes"} {
			b.Run(fmt.Sprintf("alg=%v/impl=%s/streams=32/size=1MiB", a, impl), func(b *testing.B) {
				newHash := reference.ID(a).New
				if impl == "hashlanes" {
					newHash = NewServer(a).NewHash
				}
				defer runtime.GOMAXPROCS(runtime.GOMAXPROCS(0))
				run := func() { workload.Streams(msgs, newHash, nil) }
				at := func(procs int) func() { return func() { runtime.GOMAXPROCS(procs) } }
				benchPairs(b, 32<<20, pairSide{"1P", at(1), run}, pairSide{"2P", at(2), run})
			})
		}
	}
}

// stdSums hashes msg calls times with the standard library's one-shot
// function (oneShot: a switch of direct calls to md5.Sum, sha256.Sum256,
// ...), each digest appended to dst[:0], or with dst nil to a new slice,
// as a function returning one must.
func stdSums(a Algorithm, msg []byte, calls int, dst []byte) {
	var b byte
	for range calls {
		var out []byte
		if dst == nil {
			out = oneShot(a, nil, msg)
		} else {
			out = oneShot(a, dst[:0], msg)
		}
		b += out[0]
	}
	sink += b
}

var sink byte

// BenchmarkSum measures one-shot Sum and AppendSum against the standard
// library's one-shot function (md5.Sum, sha256.Sum256, ...), alternately
// (benchPairs), 256 calls a side: the ratios are hashlanes' speed over
// the standard library's; Sum against the standard library's digest
// copied to a new slice (the result a function returning a slice must
// allocate), AppendSum against the digest appended to the same room.
func BenchmarkSum(b *testing.B) {
	for _, a := range []Algorithm{MD5, SHA1, SHA224, SHA256, SHA384, SHA512, SHA512_224, SHA512_256} {
		for _, size := range []int{0, 64, 128, 1 << 10, 64 << 10} {
			msg := randomBytes(rand.New(rand.NewPCG(9, uint64(size))), size)
			const calls = 256
			dst := make([]byte, 0, a.Size())
			b.Run(fmt.Sprintf("alg=%v/size=%s/impl=sum", a, workload.SizeName(int64(size))), func(b *testing.B) {
				b.ReportAllocs()
				stdlib := pairSide{name: "stdlib", run: func() { stdSums(a, msg, calls, nil) }}
				benchPairs(b, calls*size, stdlib, pairSide{name: "hashlanes", run: func() {
					for range calls {
						Sum(a, msg)
					}
				}})
			})
			b.Run(fmt.Sprintf("alg=%v/size=%s/impl=append", a, workload.SizeName(int64(size))), func(b *testing.B) {
				b.ReportAllocs()
				stdlib := pairSide{name: "stdlib", run: func() { stdSums(a, msg, calls, dst) }}
				benchPairs(b, calls*size, stdlib, pairSide{name: "hashlanes", run: func() {
					for range calls {
						AppendSum(a, dst[:0], msg)
					}
				}})
			})
		}
	}
}

// BenchmarkReused is one hasher Reset and reused for message after
// message, the shape of a program that hashes records, against the
// standard library's hasher used the same way, paired (benchPairs): each
// message is too short for lanes, so the hasher must cost what the
// standard library's costs.
func BenchmarkReused(b *testing.B) { benchPerMessage(b, 14, []int{64, 128, 1 << 10}, true) }

// BenchmarkNewPerMessage is a new hasher for each message, the shape of
// a program that hashes one input after another with New, Write and Sum:
// against the standard library's New used the same way, paired
// (benchPairs). From 1 KiB a write is long enough for the lanes, so each
// new hasher's first write is a probe for company (docs/engine.md,
// "Probes back off").
func BenchmarkNewPerMessage(b *testing.B) {
	benchPerMessage(b, 15, []int{128, 1 << 10, 8 << 10}, false)
}

// benchPerMessage hashes 256 messages of each size a run, one hasher Reset
// for each if reuse, else a new one, on the standard library and on
// hashlanes, paired.
func benchPerMessage(b *testing.B, seed uint64, sizes []int, reuse bool) {
	for _, a := range []Algorithm{MD5, SHA1, SHA256, SHA512} {
		for _, size := range sizes {
			msg := randomBytes(rand.New(rand.NewPCG(seed, uint64(size))), size)
			const calls = 256
			side := func(newHash func() hash.Hash) func() {
				sum := make([]byte, 0, a.Size())
				h := newHash()
				return func() {
					for i := range calls {
						msg[0] = byte(i)
						if reuse {
							h.Reset()
						} else {
							h = newHash()
						}
						h.Write(msg)
						sum = h.Sum(sum[:0])
					}
					sink += sum[0]
				}
			}
			b.Run(fmt.Sprintf("alg=%v/size=%s", a, workload.SizeName(int64(size))), func(b *testing.B) {
				b.ReportAllocs()
				benchPairs(b, calls*size,
					pairSide{name: "stdlib", run: side(reference.ID(a).New)},
					pairSide{name: "hashlanes", run: side(func() hash.Hash { return New(a) })})
			})
		}
	}
}

// BenchmarkLoneUploads is an upload server's hashing when uploads come one
// at a time: for each body a new MD5 hasher (the ETag), with md5+sha256 a
// SHA-256 one too (the payload hash), the body written to both in the
// pieces the server's socket reads returned (bench/upload's B/write: 8 KiB
// for a 16 KiB body over loopback, io.Copy's 32 KiB for larger ones), and
// the digests; against the standard library's hashers, paired
// (benchPairs), 16 uploads a side. Run with -cpu 1,2: a lone stream must
// not pay for the engine at either.
func BenchmarkLoneUploads(b *testing.B) {
	for _, size := range []int{16 << 10, 1 << 20} {
		piece := 32 << 10
		if size <= 16<<10 {
			piece = 8 << 10
		}
		body := randomBytes(rand.New(rand.NewPCG(11, uint64(size))), size)
		for _, digests := range []string{"md5", "md5+sha256"} {
			uploads := func(newHash func(Algorithm) hash.Hash) func() {
				return func() {
					var sum [sha256.Size]byte
					for range 16 {
						etag := newHash(MD5)
						var w io.Writer = etag
						var payload hash.Hash
						if digests == "md5+sha256" {
							payload = newHash(SHA256)
							w = io.MultiWriter(etag, payload)
						}
						workload.WriteIn(w, body, piece)
						sink += etag.Sum(sum[:0])[0]
						if payload != nil {
							sink += payload.Sum(sum[:0])[0]
						}
					}
				}
			}
			b.Run(fmt.Sprintf("digests=%s/size=%s", digests, workload.SizeName(int64(size))), func(b *testing.B) {
				benchPairs(b, 16*size,
					pairSide{name: "stdlib", run: uploads(func(a Algorithm) hash.Hash { return reference.ID(a).New() })},
					pairSide{name: "hashlanes", run: uploads(New)})
			})
		}
	}
}

// BenchmarkSmallWrites is streams of 1 MiB written in small pieces, as a
// program that hashes what a bufio.Writer flushes or a socket read
// returns does, against the standard library's hashers, paired
// (benchPairs): one stream, and one a P in goroutines of their own
// (streams=P), each of them alone as far as it knows. Run with -cpu 1,2:
// a stream alone must cost what the standard library costs, however
// small its writes and however many cores hash beside it.
func BenchmarkSmallWrites(b *testing.B) {
	msg := randomBytes(rand.New(rand.NewPCG(12, 13)), 1<<20)
	for _, a := range []Algorithm{MD5, SHA1, SHA256, SHA512} {
		for _, piece := range []int{1 << 10, 4 << 10, 8 << 10} {
			for _, streams := range slices.Compact([]int{1, runtime.GOMAXPROCS(0)}) {
				msgs := slices.Repeat([][]byte{msg}, streams)
				run := func(newHash func() hash.Hash) func() {
					return func() { workload.StreamsIn(msgs, piece, newHash, nil) }
				}
				name := fmt.Sprintf("alg=%v/write=%s/streams=%d", a, workload.SizeName(int64(piece)), streams)
				b.Run(name, func(b *testing.B) {
					benchPairs(b, streams*len(msg),
						pairSide{name: "stdlib", run: run(reference.ID(a).New)},
						pairSide{name: "hashlanes", run: run(func() hash.Hash { return New(a) })})
				})
			}
		}
	}
}

// BenchmarkBLAKE3OneShot is Sum(BLAKE3) against lukechampine.com/blake3's
// Sum256, paired, at the sizes of one chunk and around it.
func BenchmarkBLAKE3OneShot(b *testing.B) {
	for _, size := range []int{64, 1 << 10, 4 << 10, 9 << 10, 64 << 10} {
		msg := randomBytes(rand.New(rand.NewPCG(9, uint64(size))), size)
		calls := max(1, 256*1024/max(size, 1024))
		b.Run(fmt.Sprintf("size=%s", workload.SizeName(int64(size))), func(b *testing.B) {
			b.ReportAllocs()
			ref := pairSide{name: "lukechampine", run: func() {
				for range calls {
					blake3.Sum256(msg)
				}
			}}
			benchPairs(b, calls*size, ref, pairSide{name: "hashlanes", run: func() {
				for range calls {
					Sum(BLAKE3, msg)
				}
			}})
		})
	}
}

// BenchmarkStaggered is the stream workload as an upload server's writers
// present it, without the network: 64 streams of 4 MiB in 32 KiB writes,
// their first write of a random whole number of blocks, so that they
// reach the lanes out of step, as uploads that started at different
// times do (start=staggered), against the same streams in step
// (start=aligned); each alternately through the standard library and
// hashlanes (benchPairs). A round ends when its first lane runs out, so
// streams out of step make shorter rounds. start=staggered-copied copies
// each piece into the writer's own 32 KiB buffer before writing it, as a
// server reads a socket into one: the lanes then hash buffers that other
// writers' copies pass by.
func BenchmarkStaggered(b *testing.B) {
	const streams, size = 64, 4 << 20
	r := rand.New(rand.NewPCG(5, 6))
	msgs := make([][]byte, streams)
	for i := range msgs {
		msgs[i] = randomBytes(r, size)
	}
	for _, a := range []Algorithm{MD5, SHA256} {
		for _, start := range []string{"aligned", "staggered", "staggered-copied"} {
			b.Run(fmt.Sprintf("alg=%v/streams=%d/size=4MiB/start=%s", a, streams, start), func(b *testing.B) {
				firsts := make([]int, streams)
				if start != "aligned" {
					for i := range firsts {
						firsts[i] = a.BlockSize() * (1 + r.IntN(workload.WriteSize/a.BlockSize()))
					}
				}
				run := func(newHash func() hash.Hash) {
					var wg sync.WaitGroup
					for i, m := range msgs {
						wg.Go(func() {
							h := newHash()
							var w io.Writer = h
							if start == "staggered-copied" {
								w = copyingWriter{h, make([]byte, workload.WriteSize)}
							}
							w.Write(m[:firsts[i]])
							workload.WriteIn(w, m[firsts[i]:], workload.WriteSize)
							h.Sum(nil)
						})
					}
					wg.Wait()
				}
				s := DefaultServer(a)
				s.Calibrate()
				benchPairs(b, streams*size,
					pairSide{name: "stdlib", run: func() { run(reference.ID(a).New) }},
					pairSide{name: "hashlanes", run: func() { run(s.NewHash) }})
			})
		}
	}
}

// copyingWriter copies each piece into its own buffer before writing it
// to w, as a server reads a socket into one.
type copyingWriter struct {
	w   io.Writer
	buf []byte
}

func (c copyingWriter) Write(p []byte) (int, error) { return c.w.Write(c.buf[:copy(c.buf, p)]) }
