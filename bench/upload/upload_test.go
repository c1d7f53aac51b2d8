package main

import (
	"bufio"
	"crypto/md5"
	"crypto/sha256"
	"encoding/hex"
	"errors"
	"fmt"
	"math/rand/v2"
	"net"
	"net/http"
	"os"
	"runtime"
	"strings"
	"sync"
	"sync/atomic"
	"testing"
	"time"
)

// TestMain lets the test binary be the server process too.
func TestMain(m *testing.M) {
	if len(os.Args) > 1 && os.Args[1] == "serve" {
		if err := serve(os.Args[2:]); err != nil {
			fmt.Fprintln(os.Stderr, "upload serve:", err)
			os.Exit(1)
		}
		os.Exit(0)
	}
	os.Exit(m.Run())
}

// TestRun runs a short benchmark end to end: a server process per run, a
// client checking every answered digest, a line per run and the table;
// and two concurrent uploads must share lanes rather than take turns on
// the single-stream kernel.
func TestRun(t *testing.T) {
	if testing.Short() {
		t.Skip("starts server processes")
	}
	var out strings.Builder
	rs, err := runAll([]string{"-sizes", "4MiB,16KiB", "-conc", "1,2", "-digests", "md5,md5+sha256", "-count", "1", "-warm", "300ms", "-window", "500ms"}, &out)
	if err != nil {
		t.Fatal(err)
	}
	t.Log(out.String())
	if want := 2 * 2 * (1 + 2 + 2); len(rs) != want {
		t.Errorf("%d runs, want %d", len(rs), want)
	}
	for _, want := range []string{"BenchmarkUpload/digest=md5+sha256/size=16KiB/conc=2/impl=hashlanes", "| md5 | 4MiB | 2 |"} {
		if !strings.Contains(out.String(), want) {
			t.Errorf("output lacks %q", want)
		}
	}
	for _, r := range rs {
		if r.cpuPerGB <= 0 || r.mbps <= 0 {
			t.Errorf("%s: %.3f s/GB at %.0f MB/s", r.name(), r.cpuPerGB, r.mbps)
		}
	}
}

// TestTwoUploadsShareLanes: two concurrent 4 MiB uploads to a server at
// GOMAXPROCS=1 must share lanes rather than take turns on the
// single-stream kernel, each handler hashing its whole body alone while
// the other's data waits in its socket. On a loaded machine one run may
// be unlucky; three in a row are not.
func TestTwoUploadsShareLanes(t *testing.T) {
	if testing.Short() {
		t.Skip("starts server processes")
	}
	var single []float64
	for range 3 {
		var out strings.Builder
		rs, err := runAll([]string{"-sizes", "4MiB", "-conc", "2", "-digests", "md5", "-impls", "hashlanes", "-count", "1", "-warm", "300ms", "-window", "700ms"}, &out)
		if err != nil {
			t.Fatal(err)
		}
		if r := rs[0]; r.singleFrac <= 0.5 {
			return
		} else {
			single = append(single, r.singleFrac)
		}
	}
	t.Errorf("in each of 3 runs most blocks went through the single-stream kernel (shares %.2f): the two uploads took turns", single)
}

// pipeListener is a listener of in-memory connections: as many as a test
// wants, with no file descriptors.
type pipeListener struct {
	conns chan net.Conn
	done  chan struct{}
	once  sync.Once
}

func newPipeListener() *pipeListener {
	return &pipeListener{conns: make(chan net.Conn), done: make(chan struct{})}
}

func (l *pipeListener) Accept() (net.Conn, error) {
	select {
	case c := <-l.conns:
		return c, nil
	case <-l.done:
		return nil, net.ErrClosed
	}
}

func (l *pipeListener) Close() error   { l.once.Do(func() { close(l.done) }); return nil }
func (l *pipeListener) Addr() net.Addr { return pipeAddr{} }

func (l *pipeListener) dial() (net.Conn, error) {
	c, s := net.Pipe()
	select {
	case l.conns <- s:
		return c, nil
	case <-l.done:
		return nil, net.ErrClosed
	}
}

type pipeAddr struct{}

func (pipeAddr) Network() string { return "pipe" }
func (pipeAddr) String() string  { return "pipe" }

// TestSlowUploads sends 10,000 uploads at once through net/http to a
// server hashing with hashlanes, each body trickling in small pieces with
// pauses; a quarter of the clients go away mid-body. Every finished upload
// must be answered with its digests, and once all are over the server
// must be back to its goroutines; a second wave must leave the heap where
// the first did (the runtime keeps what it grew for 20,000 goroutines, so
// the first wave's heap is the reference): a dropped hasher that stayed
// referenced, or its buffers, would show as growth.
func TestSlowUploads(t *testing.T) {
	if testing.Short() {
		t.Skip("10,000 connections")
	}
	s, err := newUploadServer("hashlanes", "md5+sha256")
	if err != nil {
		t.Fatal(err)
	}
	ln := newPipeListener()
	srv := &http.Server{Handler: s}
	go srv.Serve(ln)
	defer srv.Close()
	data := append([]byte(nil), randomData()[:1<<20]...)
	goroutines := runtime.NumGoroutine()
	var heap [2]uint64
	for wave := range heap {
		answered, gone := slowWave(t, ln, data, uint64(wave))
		if t.Failed() {
			return
		}
		if answered == 0 || gone == 0 {
			t.Fatalf("wave %d: %d answered, %d went away", wave, answered, gone)
		}
		g := settle(goroutines)
		if g > goroutines+2 {
			t.Fatalf("wave %d: %d goroutines left (%d before)", wave, g, goroutines)
		}
		var ms runtime.MemStats
		runtime.ReadMemStats(&ms)
		heap[wave] = ms.HeapInuse
		t.Logf("wave %d: %d answered, %d went away; %d goroutines (%d before), heap in use %.1f MiB",
			wave, answered, gone, g, goroutines, float64(ms.HeapInuse)/(1<<20))
	}
	if grew := int64(heap[1]) - int64(heap[0]); grew > 4<<20 {
		t.Errorf("the heap grew by %.1f MiB over the second wave of uploads", float64(grew)/(1<<20))
	}
}

// settle waits up to 10 s for the goroutines to drop to want, collecting
// garbage meanwhile, and returns how many there are.
func settle(want int) int {
	deadline := time.Now().Add(10 * time.Second)
	for {
		runtime.GC()
		g := runtime.NumGoroutine()
		if g <= want || time.Now().After(deadline) {
			runtime.GC() // twice: sync.Pool drops its items over two cycles
			return g
		}
		time.Sleep(20 * time.Millisecond)
	}
}

// slowWave runs the 10,000 uploads of one wave and returns how many were
// answered and how many clients went away.
func slowWave(t *testing.T, ln *pipeListener, data []byte, seed uint64) (answered, gone int64) {
	const uploads = 10000
	var ok, left atomic.Int64
	var wg sync.WaitGroup
	for i := range uploads {
		wg.Go(func() {
			rng := rand.New(rand.NewPCG(uint64(i), seed))
			n := 1 + rng.IntN(48<<10)
			off := rng.IntN(len(data) - n)
			body := data[off : off+n]
			quit := -1
			if i%4 == 0 {
				quit = rng.IntN(n)
			}
			err := slowPut(ln, body, rng, quit)
			switch {
			case err == nil && quit < 0:
				ok.Add(1)
			case errors.Is(err, errWentAway):
				left.Add(1)
			default:
				t.Errorf("upload %d (%d bytes): %v", i, n, err)
			}
		})
	}
	wg.Wait()
	return ok.Load(), left.Load()
}

var errWentAway = errors.New("went away")

// slowPut uploads body on a connection of its own in pieces of up to
// 4 KiB, pausing up to 2 ms before each, and checks the digests answered.
// With quit >= 0 it closes the connection after quit bytes of the body.
func slowPut(ln *pipeListener, body []byte, rng *rand.Rand, quit int) error {
	c, err := ln.dial()
	if err != nil {
		return err
	}
	defer c.Close()
	if _, err := fmt.Fprintf(c, "PUT /object HTTP/1.1\r\nHost: pipe\r\nContent-Length: %d\r\n\r\n", len(body)); err != nil {
		return err
	}
	for sent := 0; sent < len(body); {
		time.Sleep(time.Duration(rng.Int64N(int64(2 * time.Millisecond))))
		n := min(len(body)-sent, 1+rng.IntN(4<<10))
		if quit >= 0 && sent+n > quit {
			c.Write(body[sent:quit])
			return errWentAway
		}
		if _, err := c.Write(body[sent : sent+n]); err != nil {
			return err
		}
		sent += n
	}
	resp, err := http.ReadResponse(bufio.NewReader(c), nil)
	if err != nil {
		return err
	}
	resp.Body.Close()
	m, s := md5.Sum(body), sha256.Sum256(body)
	if got := strings.Trim(resp.Header.Get("ETag"), `"`); got != hex.EncodeToString(m[:]) {
		return fmt.Errorf("ETag %s, want %x", got, m)
	}
	if got := resp.Header.Get("X-Amz-Content-Sha256"); got != hex.EncodeToString(s[:]) {
		return fmt.Errorf("SHA-256 %s, want %x", got, s)
	}
	return nil
}
