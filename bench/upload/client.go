package main

import (
	"bytes"
	"context"
	"crypto/md5"
	"crypto/sha256"
	"encoding/hex"
	"encoding/json"
	"errors"
	"fmt"
	"io"
	"math"
	"math/rand/v2"
	"net"
	"net/http"
	"strconv"
	"strings"
	"sync"
	"sync/atomic"
	"time"
)

// body is one object the client uploads, with the digests the server must
// answer.
type body struct {
	data         []byte
	etag, sha256 string
}

// sizeSpec is a workload's object sizes: fixed, or log-uniform between
// 1 KiB and 64 MiB ("mixed").
type sizeSpec struct {
	name  string
	fixed int // 0 for mixed
}

func parseSize(s string) (sizeSpec, error) {
	if s == "mixed" {
		return sizeSpec{name: s}, nil
	}
	mult := 1
	num := s
	for _, u := range []struct {
		suffix string
		mult   int
	}{{"KiB", 1 << 10}, {"MiB", 1 << 20}, {"GiB", 1 << 30}} {
		if strings.HasSuffix(s, u.suffix) {
			num, mult = strings.TrimSuffix(s, u.suffix), u.mult
			break
		}
	}
	n, err := strconv.Atoi(num)
	if err != nil || n <= 0 {
		return sizeSpec{}, fmt.Errorf("bad object size %q (want e.g. 16KiB, 4MiB or mixed)", s)
	}
	return sizeSpec{name: s, fixed: n * mult}, nil
}

const (
	mixedMin = 1 << 10
	mixedMax = 64 << 20
)

// bodySet returns the objects a workload cycles through, digests computed
// beforehand so that the client's own hashing stays out of the window.
// Fixed sizes get distinct objects (offsets into random data) up to 256 MiB
// in all; mixed sizes are 64 draws, log-uniform.
func bodySet(data []byte, sz sizeSpec) []body {
	var sizes []int
	if sz.fixed > 0 {
		n := min(64, max(4, (256<<20)/sz.fixed))
		for range n {
			sizes = append(sizes, sz.fixed)
		}
	} else {
		r := rand.New(rand.NewPCG(1, 2))
		lo, hi := math.Log(mixedMin), math.Log(mixedMax)
		for range 64 {
			sizes = append(sizes, int(math.Exp(lo+r.Float64()*(hi-lo))))
		}
	}
	bodies := make([]body, len(sizes))
	var wg sync.WaitGroup
	for i, n := range sizes {
		wg.Go(func() {
			off := (i * 4093) % (len(data) - mixedMax)
			d := data[off : off+n]
			m, s := md5.Sum(d), sha256.Sum256(d)
			bodies[i] = body{d, hex.EncodeToString(m[:]), hex.EncodeToString(s[:])}
		})
	}
	wg.Wait()
	return bodies
}

// randomData is what bodies are cut from.
func randomData() []byte {
	b := make([]byte, mixedMax+(64<<10))
	r := rand.New(rand.NewPCG(3, 4))
	for i := 0; i+8 <= len(b); i += 8 {
		v := r.Uint64()
		for j := range 8 {
			b[i+j] = byte(v >> (8 * j))
		}
	}
	return b
}

// loader uploads objects with a fixed number of concurrent clients, each
// sending one after another on its own keep-alive connection, and checks
// every answer.
type loader struct {
	url    string
	client *http.Client
	bodies []body
	sha256 bool // check the payload hash too

	done, failed atomic.Uint64
	errMu        sync.Mutex
	err          error
}

func newLoader(addr string, bodies []body, conc int, sha bool) *loader {
	tr := &http.Transport{
		MaxIdleConnsPerHost: conc + 1,
		DisableCompression:  true,
		DialContext:         (&net.Dialer{Timeout: 5 * time.Second}).DialContext,
	}
	return &loader{url: "http://" + addr, client: &http.Client{Transport: tr}, bodies: bodies, sha256: sha}
}

// run starts conc clients that upload until ctx ends; uploads in flight at
// the end are abandoned mid-body, as a client that goes away does.
func (l *loader) run(ctx context.Context, conc int) *sync.WaitGroup {
	var wg sync.WaitGroup
	for w := range conc {
		wg.Go(func() {
			for k := 0; ctx.Err() == nil; k++ {
				b := &l.bodies[(w+k*conc)%len(l.bodies)]
				if err := l.put(ctx, b); err != nil && ctx.Err() == nil {
					l.fail(err)
					return
				}
			}
		})
	}
	return &wg
}

func (l *loader) put(ctx context.Context, b *body) error {
	req, err := http.NewRequestWithContext(ctx, http.MethodPut, l.url+"/object", bytes.NewReader(b.data))
	if err != nil {
		return err
	}
	resp, err := l.client.Do(req)
	if err != nil {
		return err
	}
	io.Copy(io.Discard, resp.Body)
	resp.Body.Close()
	if resp.StatusCode != http.StatusOK {
		return fmt.Errorf("PUT of %d bytes: %s", len(b.data), resp.Status)
	}
	if got := strings.Trim(resp.Header.Get("ETag"), `"`); got != "" && got != b.etag {
		l.failed.Add(1)
		return fmt.Errorf("PUT of %d bytes: ETag %s, want %s", len(b.data), got, b.etag)
	}
	if got := resp.Header.Get("X-Amz-Content-Sha256"); l.sha256 && got != "" && got != b.sha256 {
		l.failed.Add(1)
		return fmt.Errorf("PUT of %d bytes: SHA-256 %s, want %s", len(b.data), got, b.sha256)
	}
	l.done.Add(1)
	return nil
}

func (l *loader) fail(err error) {
	l.errMu.Lock()
	defer l.errMu.Unlock()
	if l.err == nil {
		l.err = err
	}
}

func (l *loader) firstErr() error {
	l.errMu.Lock()
	defer l.errMu.Unlock()
	return l.err
}

// stats asks the server for its counters; mark starts or stops its profile.
func (l *loader) stats(mark string) (serverStats, error) {
	var st serverStats
	u := l.url + "/stats"
	if mark != "" {
		u += "?mark=" + mark
	}
	resp, err := l.client.Get(u)
	if err != nil {
		return st, err
	}
	defer resp.Body.Close()
	if resp.StatusCode != http.StatusOK {
		msg, _ := io.ReadAll(resp.Body)
		return st, errors.New(strings.TrimSpace(string(msg)))
	}
	return st, json.NewDecoder(resp.Body).Decode(&st)
}
