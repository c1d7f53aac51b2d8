package main

import (
	"crypto/md5"
	"crypto/sha256"
	"encoding/hex"
	"encoding/json"
	"errors"
	"fmt"
	"hash"
	"io"
	"math/bits"
	"net/http"
	"os"
	"runtime"
	"runtime/pprof"
	"slices"
	"sync"
	"sync/atomic"
	"syscall"
	"time"

	"github.com/hashlanes/hashlanes"
)

// Impls are the ways the server can hash a body: not at all (the baseline
// that separates the server's own cost from the hashing), with the
// standard library, with hashlanes.New.
var impls = []string{"none", "stdlib", "hashlanes"}

// Digests are what an object store computes of an upload: the MD5 ETag,
// or the ETag and the SHA-256 payload hash together.
var digests = []string{"md5", "md5+sha256"}

// uploadServer receives PUT bodies and answers with their digests, the way
// an object store does: the body is copied into the hashers as it arrives
// from the socket, in whatever pieces a read returns.
type uploadServer struct {
	impl   string
	sha256 bool // the payload hash too

	bufs sync.Pool // *[]byte, io.Copy's 32 KiB

	bytes, writes, requests, aborted atomic.Uint64
	writeSizes                       [24]atomic.Uint64 // writes by bit length of their size

	profMu  sync.Mutex
	profile string // file to write the CPU profile of the marked window to
	profOut *os.File
}

func newUploadServer(impl, digest string) (*uploadServer, error) {
	if !slices.Contains(impls, impl) {
		return nil, fmt.Errorf("unknown implementation %q (want one of %v)", impl, impls)
	}
	if !slices.Contains(digests, digest) {
		return nil, fmt.Errorf("unknown digest %q (want one of %v)", digest, digests)
	}
	s := &uploadServer{impl: impl, sha256: digest == "md5+sha256"}
	s.bufs.New = func() any { b := make([]byte, 32<<10); return &b }
	return s, nil
}

// ServeHTTP answers PUT /… with the body's digests and GET /stats with the
// server's counters.
func (s *uploadServer) ServeHTTP(w http.ResponseWriter, r *http.Request) {
	if r.URL.Path == "/stats" {
		s.serveStats(w, r)
		return
	}
	if r.Method != http.MethodPut {
		http.Error(w, "PUT an object, or GET /stats", http.StatusMethodNotAllowed)
		return
	}
	s.upload(w, r)
}

func (s *uploadServer) newHashes() (etag, payload hash.Hash) {
	switch s.impl {
	case "stdlib":
		etag = md5.New()
		if s.sha256 {
			payload = sha256.New()
		}
	case "hashlanes":
		etag = hashlanes.New(hashlanes.MD5)
		if s.sha256 {
			payload = hashlanes.New(hashlanes.SHA256)
		}
	}
	return etag, payload
}

func (s *uploadServer) upload(w http.ResponseWriter, r *http.Request) {
	etag, payload := s.newHashes()
	dst := &countingWriter{s: s}
	switch {
	case payload != nil:
		dst.w = io.MultiWriter(etag, payload)
	case etag != nil:
		dst.w = etag
	}
	bp := s.bufs.Get().(*[]byte)
	// onlyReader hides any WriterTo, so every implementation reads the
	// socket in the same pieces.
	_, err := io.CopyBuffer(dst, onlyReader{r.Body}, *bp)
	s.bufs.Put(bp)
	if err != nil {
		s.aborted.Add(1) // the client went away mid-body; the hashers are dropped
		return
	}
	s.requests.Add(1)
	if etag != nil {
		w.Header().Set("ETag", `"`+hex.EncodeToString(etag.Sum(nil))+`"`)
	}
	if payload != nil {
		w.Header().Set("X-Amz-Content-Sha256", hex.EncodeToString(payload.Sum(nil)))
	}
	w.WriteHeader(http.StatusOK)
}

type onlyReader struct{ io.Reader }

// countingWriter counts what arrives from the socket: bytes, and writes
// by size.
type countingWriter struct {
	s *uploadServer
	w io.Writer // nil: the baseline, which hashes nothing
}

func (c *countingWriter) Write(p []byte) (int, error) {
	c.s.bytes.Add(uint64(len(p)))
	c.s.writes.Add(1)
	c.s.writeSizes[min(bits.Len(uint(len(p))), len(c.s.writeSizes)-1)].Add(1)
	if c.w == nil {
		return len(p), nil
	}
	return c.w.Write(p)
}

// serverStats is a snapshot of the server's counters. CPU is the process's
// user and system time from getrusage.
type serverStats struct {
	Time       time.Duration    `json:"time"` // since the server started, monotonic
	CPU        time.Duration    `json:"cpu"`
	Bytes      uint64           `json:"bytes"`
	Writes     uint64           `json:"writes"`
	Requests   uint64           `json:"requests"`
	Aborted    uint64           `json:"aborted"`
	WriteSizes [24]uint64       `json:"write_sizes"`
	Goroutines int              `json:"goroutines"`
	HeapInuse  uint64           `json:"heap_inuse"`
	Lanes      map[string]lanes `json:"lanes,omitempty"`
	// Choices is, by algorithm, the kernel each count of ready streams
	// runs on and where the rates behind it come from, as the engine
	// has them at the snapshot (they move as rounds are timed).
	Choices map[string]string `json:"choices,omitempty"`
}

// lanes is how full the engine's lanes ran.
type lanes struct {
	MultiCalls, MultiBlocks, MultiCapacity, SingleBlocks uint64
	Awaits, AwaitsJoined                                 uint64
}

var started = time.Now()

func (s *uploadServer) snapshot() serverStats {
	var ru syscall.Rusage
	if err := syscall.Getrusage(syscall.RUSAGE_SELF, &ru); err != nil {
		panic(err)
	}
	var ms runtime.MemStats
	runtime.ReadMemStats(&ms)
	st := serverStats{
		Time:       time.Since(started),
		CPU:        time.Duration(ru.Utime.Nano() + ru.Stime.Nano()),
		Bytes:      s.bytes.Load(),
		Writes:     s.writes.Load(),
		Requests:   s.requests.Load(),
		Aborted:    s.aborted.Load(),
		Goroutines: runtime.NumGoroutine(),
		HeapInuse:  ms.HeapInuse,
	}
	for i := range st.WriteSizes {
		st.WriteSizes[i] = s.writeSizes[i].Load()
	}
	if s.impl == "hashlanes" {
		st.Lanes = map[string]lanes{}
		for _, a := range []hashlanes.Algorithm{hashlanes.MD5, hashlanes.SHA256} {
			x := hashlanes.DefaultServer(a).Stats()
			st.Lanes[a.String()] = lanes{x.MultiCalls, x.MultiBlocks, x.MultiCapacity, x.SingleBlocks, x.Awaits, x.AwaitsJoined}
			t := hashlanes.DefaultServer(a).Tuning()
			if st.Choices == nil {
				st.Choices = map[string]string{}
			}
			st.Choices[a.String()] = fmt.Sprintf("%s (%s)", t, t.Origin)
		}
	}
	return st
}

// serveStats answers a snapshot; ?mark=start and ?mark=stop start and stop
// the CPU profile when the server writes one.
func (s *uploadServer) serveStats(w http.ResponseWriter, r *http.Request) {
	if err := s.mark(r.URL.Query().Get("mark")); err != nil {
		http.Error(w, err.Error(), http.StatusInternalServerError)
		return
	}
	w.Header().Set("Content-Type", "application/json")
	json.NewEncoder(w).Encode(s.snapshot())
}

func (s *uploadServer) mark(m string) error {
	s.profMu.Lock()
	defer s.profMu.Unlock()
	if s.profile == "" {
		return nil
	}
	switch m {
	case "start":
		if s.profOut != nil {
			return errors.New("profile already started")
		}
		f, err := os.Create(s.profile)
		if err != nil {
			return err
		}
		if err := pprof.StartCPUProfile(f); err != nil {
			f.Close()
			return err
		}
		s.profOut = f
	case "stop":
		if s.profOut == nil {
			return nil
		}
		pprof.StopCPUProfile()
		err := s.profOut.Close()
		s.profOut = nil
		return err
	}
	return nil
}
