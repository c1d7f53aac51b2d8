package hashlanes

import (
	"bytes"
	"context"
	"crypto/sha256"
	"errors"
	"fmt"
	"hash"
	"hash/crc32"
	"hash/fnv"
	"io"
	"math/rand/v2"
	"os"
	"path/filepath"
	"runtime"
	"sync/atomic"
	"testing"
	"testing/iotest"
	"unsafe"

	"github.com/hashlanes/hashlanes/internal/reference"
)

// randomStreams makes count messages, mostly small, some past the
// read-ahead threshold.
func randomStreams(r *rand.Rand, count int) [][]byte {
	msgs := make([][]byte, count)
	for i := range msgs {
		var n int
		switch r.IntN(10) {
		case 0:
			n = readAheadAfter + r.IntN(3*aheadBuffer)
		case 1, 2:
			n = r.IntN(3 * streamBuffer)
		default:
			n = r.IntN(300)
		}
		msgs[i] = make([]byte, n)
		for j := range msgs[i] {
			msgs[i][j] = byte(r.Uint32())
		}
	}
	return msgs
}

func TestSumStreamsAgainstStdlib(t *testing.T) {
	algs := []Algorithm{MD5, SHA256, SHA1, SHA512, BLAKE3}
	r := rand.New(rand.NewPCG(5, 6))
	msgs := randomStreams(r, 150)
	for _, jobs := range []int{1, 3, 64} {
		next := 0
		err := SumStreams(context.Background(), algs, len(msgs),
			func(i int) (io.Reader, error) {
				// Odd-sized reads exercise partial chunks and the
				// read-ahead's short reads.
				return iotest.HalfReader(bytes.NewReader(msgs[i])), nil
			},
			func(i int, s StreamSum) {
				if i != next {
					t.Fatalf("done(%d), want %d", i, next)
				}
				next++
				if s.Err != nil || s.Size != int64(len(msgs[i])) {
					t.Fatalf("stream %d: %v, size %d of %d", i, s.Err, s.Size, len(msgs[i]))
				}
				for k, a := range algs {
					h := reference.ID(a).New()
					h.Write(msgs[i])
					if !bytes.Equal(s.Sums[k], h.Sum(nil)) {
						t.Fatalf("jobs %d, stream %d (%d bytes), %v: digest differs", jobs, i, len(msgs[i]), a)
					}
				}
			}, WithJobs(jobs))
		if err != nil || next != len(msgs) {
			t.Fatalf("jobs %d: %v after %d streams", jobs, err, next)
		}
	}
}

// TestSumStreamsHashes hashes with hashers that are no Algorithm beside
// per-stream algorithms, some streams with none of either.
func TestSumStreamsHashes(t *testing.T) {
	r := rand.New(rand.NewPCG(7, 8))
	msgs := randomStreams(r, 80)
	algsOf := func(i int) []Algorithm { return [][]Algorithm{{SHA256}, {MD5, SHA1}, nil}[i%3] }
	hashes := func(i int) []hash.Hash {
		if i%2 == 0 {
			return nil
		}
		return []hash.Hash{crc32.NewIEEE(), fnv.New64a()}
	}
	next := 0
	err := SumStreams(context.Background(), nil, len(msgs),
		func(i int) (io.Reader, error) { return iotest.HalfReader(bytes.NewReader(msgs[i])), nil },
		func(i int, s StreamSum) {
			next++
			var want [][]byte
			for _, a := range algsOf(i) {
				want = append(want, reference.ID(a).Sum(nil, msgs[i]))
			}
			for _, h := range hashes(i) {
				h.Write(msgs[i])
				want = append(want, h.Sum(nil))
			}
			if s.Err != nil || len(s.Sums) != len(want) {
				t.Fatalf("stream %d: %v, %d sums, want %d", i, s.Err, len(s.Sums), len(want))
			}
			for k := range want {
				if !bytes.Equal(s.Sums[k], want[k]) {
					t.Fatalf("stream %d (%d bytes): digest %d differs", i, len(msgs[i]), k)
				}
			}
		}, WithStreamAlgorithms(algsOf), WithStreamHashes(hashes), WithJobs(5))
	if err != nil || next != len(msgs) {
		t.Fatalf("%v after %d streams", err, next)
	}
}

type closeRecorder struct {
	io.Reader
	closed *atomic.Int32
}

func (c closeRecorder) Close() error { c.closed.Add(1); return nil }

func TestSumStreamsErrors(t *testing.T) {
	errOpen, errRead := errors.New("open failed"), errors.New("read failed")
	var closed atomic.Int32
	var got []error
	err := SumStreams(context.Background(), []Algorithm{MD5}, 4,
		func(i int) (io.Reader, error) {
			switch i {
			case 1:
				return nil, errOpen
			case 2:
				return closeRecorder{iotest.ErrReader(errRead), &closed}, nil
			case 3:
				// Fails after the read-ahead has started.
				return closeRecorder{io.MultiReader(bytes.NewReader(make([]byte, 3<<20)), iotest.ErrReader(errRead)), &closed}, nil
			}
			return closeRecorder{bytes.NewReader([]byte("abc")), &closed}, nil
		},
		func(i int, s StreamSum) {
			got = append(got, s.Err)
			if (s.Err == nil) != (s.Sums != nil) {
				t.Errorf("stream %d: err %v with sums %x", i, s.Err, s.Sums)
			}
		})
	if err != nil {
		t.Fatal(err)
	}
	want := []error{nil, errOpen, errRead, errRead}
	for i := range want {
		if got[i] != want[i] {
			t.Errorf("stream %d: %v, want %v", i, got[i], want[i])
		}
	}
	if closed.Load() != 3 {
		t.Errorf("%d readers closed, want 3", closed.Load())
	}
}

func TestSumStreamsCancel(t *testing.T) {
	ctx, cancel := context.WithCancel(context.Background())
	delivered := 0
	err := SumStreams(ctx, []Algorithm{SHA256}, 10000,
		func(i int) (io.Reader, error) { return bytes.NewReader(make([]byte, 4<<20)), nil },
		func(i int, s StreamSum) {
			delivered++
			if i == 2 {
				cancel()
			}
		}, WithJobs(4))
	if err != context.Canceled {
		t.Fatalf("err = %v", err)
	}
	if delivered > 3+4*4 {
		t.Errorf("%d streams delivered after cancelling at the third", delivered)
	}
}

func TestSumFileAndReaders(t *testing.T) {
	dir := t.TempDir()
	data := bytes.Repeat([]byte("hashlanes "), 300_000) // past read-ahead
	name := filepath.Join(dir, "f")
	if err := os.WriteFile(name, data, 0o644); err != nil {
		t.Fatal(err)
	}
	want := Sum(SHA256, data)
	if got, err := SumFile(SHA256, name); err != nil || !bytes.Equal(got, want) {
		t.Fatalf("SumFile: %x, %v", got, err)
	}
	if _, err := SumFile(SHA256, filepath.Join(dir, "missing")); !errors.Is(err, os.ErrNotExist) {
		t.Errorf("missing file: %v", err)
	}
	// BLAKE3 of a large file goes through the tree on every core; of a
	// small one, and of a missing one, as the others.
	for _, n := range []int{100, treeMin - 1, treeMin, len(data)} {
		small := filepath.Join(dir, fmt.Sprint("b3-", n))
		if err := os.WriteFile(small, data[:n], 0o644); err != nil {
			t.Fatal(err)
		}
		if got, err := SumFile(BLAKE3, small); err != nil || !bytes.Equal(got, Sum(BLAKE3, data[:n])) {
			t.Errorf("SumFile BLAKE3 of %d bytes: %x, %v", n, got, err)
		}
	}
	if _, err := SumFile(BLAKE3, filepath.Join(dir, "missing")); !errors.Is(err, os.ErrNotExist) {
		t.Errorf("BLAKE3 of a missing file: %v", err)
	}
	sums, err := SumReaders(MD5, bytes.NewReader(data), bytes.NewReader(nil))
	if err != nil || !bytes.Equal(sums[0], Sum(MD5, data)) || !bytes.Equal(sums[1], Sum(MD5, nil)) {
		t.Fatalf("SumReaders: %x, %v", sums, err)
	}
	if _, err := SumReaders(MD5, bytes.NewReader(data), iotest.ErrReader(io.ErrClosedPipe)); err != io.ErrClosedPipe {
		t.Errorf("SumReaders error: %v", err)
	}
}

// FuzzSumStreams: windows of data as streams, read in fuzzed piece sizes,
// against the standard library, with every digest in order.
func FuzzSumStreams(f *testing.F) {
	f.Add([]byte("hello"), uint8(3), uint8(1), uint8(2))
	f.Add(bytes.Repeat([]byte{7}, 3000), uint8(40), uint8(77), uint8(1))
	f.Fuzz(func(t *testing.T, data []byte, count, step, jobs uint8) {
		msgs := make([][]byte, int(count)%48)
		for i := range msgs {
			start := (i * int(step)) % (len(data) + 1)
			msgs[i] = data[start:min(len(data), start+i*int(step)%700)]
		}
		algs := []Algorithm{MD5, SHA1, SHA256}
		next := 0
		SumStreams(context.Background(), algs, len(msgs),
			func(i int) (io.Reader, error) {
				if i%2 == 1 {
					return iotest.OneByteReader(bytes.NewReader(msgs[i])), nil
				}
				return bytes.NewReader(msgs[i]), nil
			},
			func(i int, s StreamSum) {
				if i != next || s.Err != nil {
					t.Fatalf("done(%d, %v), want %d", i, s.Err, next)
				}
				next++
				for k, a := range algs {
					if !bytes.Equal(s.Sums[k], oneShot(a, nil, msgs[i])) {
						t.Fatalf("stream %d, %v: digest differs", i, a)
					}
				}
			}, WithJobs(int(jobs)%40+1))
		if next != len(msgs) {
			t.Fatalf("%d of %d streams delivered", next, len(msgs))
		}
	})
}

// BenchmarkSumStreams hashes 2,000 in-memory streams of 1-64 KiB (the
// checksum command's tree workload without the file system) with a given
// number of jobs per P, against one crypto/md5 loop over the same data:
// the measurement behind DefaultJobs.
func BenchmarkSumStreams(b *testing.B) {
	r := rand.New(rand.NewPCG(9, 9))
	msgs := benchStreams(r, 2000, func() int { return 1024 + r.IntN(63*1024+1) })
	b.Run("impl=stdlib", func(b *testing.B) { benchStdlibMD5(b, msgs) })
	for _, perP := range []int{4, 8, 16, 32, 64, 128} {
		jobs := perP * runtime.GOMAXPROCS(0)
		b.Run(fmt.Sprintf("impl=lanes/jobs-per-p=%d", perP), func(b *testing.B) {
			benchSumStreamsMD5(b, msgs, WithJobs(jobs))
		})
	}
}

// benchStreams makes count messages of random bytes, each size() long.
func benchStreams(r *rand.Rand, count int, size func() int) [][]byte {
	msgs := make([][]byte, count)
	for i := range msgs {
		msgs[i] = make([]byte, size())
		for j := range msgs[i] {
			msgs[i][j] = byte(r.Uint32())
		}
	}
	return msgs
}

func streamsBytes(msgs [][]byte) int64 {
	total := 0
	for _, m := range msgs {
		total += len(m)
	}
	return int64(total)
}

// benchStdlibMD5 is the SumStreams benchmarks' yardstick: one crypto/md5
// loop over the messages.
func benchStdlibMD5(b *testing.B, msgs [][]byte) {
	b.SetBytes(streamsBytes(msgs))
	for b.Loop() {
		for _, m := range msgs {
			h := reference.ID(MD5).New()
			h.Write(m)
			h.Sum(nil)
		}
	}
}

// benchSumStreamsMD5 hashes the messages as in-memory streams.
func benchSumStreamsMD5(b *testing.B, msgs [][]byte, opts ...StreamOption) {
	b.SetBytes(streamsBytes(msgs))
	for b.Loop() {
		SumStreams(context.Background(), []Algorithm{MD5}, len(msgs),
			func(i int) (io.Reader, error) { return bytes.NewReader(msgs[i]), nil },
			func(int, StreamSum) {}, opts...)
	}
}

// BenchmarkSumStreamsLarge hashes 32 in-memory streams of 4 MiB, past
// readAheadAfter, so that most of each is read ahead into pooled chunks
// (the checksum command's path for large files, without the file system),
// against one crypto/md5 loop over the same data.
func BenchmarkSumStreamsLarge(b *testing.B) {
	msgs := benchStreams(rand.New(rand.NewPCG(10, 10)), 32, func() int { return 4 << 20 })
	b.Run("impl=stdlib", func(b *testing.B) { benchStdlibMD5(b, msgs) })
	b.Run("impl=lanes", func(b *testing.B) { benchSumStreamsMD5(b, msgs) })
}

// TestStaggeredBuffers checks what the read buffers' placement is for:
// consecutive buffers start on different cache lines of a page, however
// the allocator aligns them, and each is exactly as long as asked.
func TestStaggeredBuffers(t *testing.T) {
	for _, size := range []int{streamBuffer, aheadBuffer} {
		lines := make(map[uintptr]bool)
		for range pageLines {
			b := staggeredBuffer(size)
			if len(b) != size || cap(b) != size {
				t.Fatalf("buffer of %d bytes: len %d, cap %d", size, len(b), cap(b))
			}
			lines[uintptr(unsafe.Pointer(&b[0]))%pageBytes/lineBytes] = true
		}
		if len(lines) != pageLines {
			t.Errorf("%d buffers of %d bytes start on %d different lines of a page, want %d", pageLines, size, len(lines), pageLines)
		}
	}
}

// aheadReader is a stream of size bytes that counts, in *inAhead, the
// streams being read ahead (in reads of aheadBuffer bytes) at once, and
// keeps the most in *most.
type aheadReader struct {
	left          int
	ahead         bool
	inAhead, most *atomic.Int32
}

func (r *aheadReader) Read(p []byte) (int, error) {
	if r.left == 0 {
		if r.ahead {
			r.ahead = false
			r.inAhead.Add(-1)
		}
		return 0, io.EOF
	}
	if len(p) == aheadBuffer && !r.ahead {
		r.ahead = true
		n := r.inAhead.Add(1)
		for m := r.most.Load(); n > m && !r.most.CompareAndSwap(m, n); m = r.most.Load() {
		}
	}
	n := min(len(p), r.left)
	clear(p[:n])
	r.left -= n
	return n, nil
}

// TestReadAheadBounded: however many large streams are in flight, at most
// aheadStreams of them read ahead at once (each holds aheadBuffers
// buffers), the others in their worker's buffer; the digests are right.
func TestReadAheadBounded(t *testing.T) {
	var inAhead, most atomic.Int32
	const n, size = 96, 3 << 20
	want := sha256.Sum256(make([]byte, size))
	err := SumStreams(context.Background(), []Algorithm{SHA256}, n,
		func(int) (io.Reader, error) { return &aheadReader{left: size, inAhead: &inAhead, most: &most}, nil },
		func(i int, s StreamSum) {
			if s.Err != nil || !bytes.Equal(s.Sums[0], want[:]) {
				t.Errorf("stream %d: %v, %x", i, s.Err, s.Sums)
			}
		}, WithJobs(64))
	if err != nil {
		t.Fatal(err)
	}
	if m := int(most.Load()); m == 0 || m > aheadStreams() {
		t.Errorf("%d streams read ahead at once, want 1 to %d", m, aheadStreams())
	}
}

// TestSumStreamsBLAKE3Whole checks the streams of BLAKE3 alone, which are
// read whole and hashed in lanes across the workers' streams up to 64 KiB
// (blake3many.go), and as streams past it: every length class around a
// chunk, a chunk group, 64 KiB and 1 MiB,
// read in odd pieces, at one P and two, with a stream that fails mid-read
// among them.
func TestSumStreamsBLAKE3Whole(t *testing.T) {
	r := rand.New(rand.NewPCG(15, 16))
	var msgs [][]byte
	for _, c := range []int{0, 1, 2, 15, 16, 17, 63, 64, 65, 255, 256, 1023, 1024, 1025} {
		for _, d := range []int{-1, 0, 1, 500} {
			if n := c*1024 + d; n >= 0 {
				msg := make([]byte, n)
				for j := range msg {
					msg[j] = byte(r.Uint32())
				}
				msgs = append(msgs, msg)
			}
		}
	}
	const failing = 7
	for _, procs := range []int{1, 2} {
		for _, jobs := range []int{1, 3, 64} {
			t.Run(fmt.Sprintf("procs=%d/jobs=%d", procs, jobs), func(t *testing.T) {
				defer runtime.GOMAXPROCS(runtime.GOMAXPROCS(procs))
				next := 0
				err := SumStreams(context.Background(), []Algorithm{BLAKE3}, len(msgs),
					func(i int) (io.Reader, error) {
						if i == failing {
							return iotest.TimeoutReader(iotest.OneByteReader(bytes.NewReader(msgs[i]))), nil
						}
						return iotest.HalfReader(bytes.NewReader(msgs[i])), nil
					},
					func(i int, s StreamSum) {
						next++
						if i == failing {
							if !errors.Is(s.Err, iotest.ErrTimeout) {
								t.Errorf("stream %d: %v, want the reader's error", i, s.Err)
							}
							return
						}
						want := Sum(BLAKE3, msgs[i])
						if s.Err != nil || s.Size != int64(len(msgs[i])) || len(s.Sums) != 1 || !bytes.Equal(s.Sums[0], want) {
							t.Fatalf("stream %d (%d bytes): %x, %v, size %d; want %x", i, len(msgs[i]), s.Sums, s.Err, s.Size, want)
						}
					}, WithJobs(jobs))
				if err != nil || next != len(msgs) {
					t.Fatalf("%v after %d streams", err, next)
				}
			})
		}
	}
}
