// Command upload measures what hashing costs an upload server: a net/http
// server computing each body's MD5 ETag (or ETag and SHA-256 payload hash,
// as object stores do) while a client in another process uploads to it
// over loopback. The server runs on one core (GOMAXPROCS=1, pinned), the
// client on another; the server's CPU time per GB, from getrusage, minus
// that of a server that reads the bodies and hashes nothing, is the
// hashing's cost.
//
//	go run ./bench/upload -sizes 4MiB,16KiB -conc 2,64 -count 5
//
// It prints one Go benchmark line per run (benchstat reads them) and then a
// table of medians: per digest, size and concurrency, the server's CPU per
// GB for each implementation and the standard library's hashing cost over
// hashlanes'.
package main

import (
	"bufio"
	"context"
	"errors"
	"flag"
	"fmt"
	"io"
	"maps"
	"net"
	"net/http"
	"os"
	"os/exec"
	"path/filepath"
	"runtime"
	"slices"
	"strconv"
	"strings"
	"time"
)

func main() {
	if len(os.Args) > 1 && os.Args[1] == "serve" {
		if err := serve(os.Args[2:]); err != nil {
			fmt.Fprintln(os.Stderr, "upload serve:", err)
			os.Exit(1)
		}
		return
	}
	if _, err := runAll(os.Args[1:], os.Stdout); err != nil {
		fmt.Fprintln(os.Stderr, "upload:", err)
		os.Exit(1)
	}
}

// serve is the server process: it prints "listening ADDR" and serves until
// its standard input closes (its parent is gone).
func serve(args []string) error {
	fs := flag.NewFlagSet("serve", flag.ContinueOnError)
	impl := fs.String("impl", "hashlanes", "none, stdlib or hashlanes")
	digest := fs.String("digest", "md5", "md5 or md5+sha256")
	cpu := fs.Int("cpu", -1, "pin the process to this CPU (-1: don't)")
	procs := fs.Int("procs", 1, "GOMAXPROCS")
	profile := fs.String("cpuprofile", "", "write the CPU profile of the measured window to `file`")
	if err := fs.Parse(args); err != nil {
		return err
	}
	if *cpu >= 0 {
		if err := pin(*cpu); err != nil {
			return err
		}
	}
	runtime.GOMAXPROCS(*procs)
	s, err := newUploadServer(*impl, *digest)
	if err != nil {
		return err
	}
	s.profile = *profile
	ln, err := net.Listen("tcp", "127.0.0.1:0")
	if err != nil {
		return err
	}
	fmt.Printf("listening %s\n", ln.Addr())
	go func() {
		io.Copy(io.Discard, os.Stdin)
		os.Exit(0)
	}()
	return http.Serve(ln, s)
}

// config is one measurement's workload.
type config struct {
	digest string // "none" for the baseline
	size   sizeSpec
	conc   int
	impl   string
}

func (c config) name() string {
	return fmt.Sprintf("Upload/digest=%s/size=%s/conc=%d/impl=%s", c.digest, c.size.name, c.conc, c.impl)
}

type options struct {
	sizes          []sizeSpec
	concs          []int
	digests, impls []string
	count          int
	warm, window   time.Duration
	serverCPU      int
	clientCPU      int
	procs          int
	profileDir     string
	self           string // this program, to start the server with
}

func parseOptions(args []string) (*options, error) {
	fs := flag.NewFlagSet("upload", flag.ContinueOnError)
	sizes := fs.String("sizes", "16KiB,1MiB,4MiB,64MiB,mixed", "object sizes: fixed (16KiB, 4MiB, ...) or mixed (log-uniform 1KiB-64MiB)")
	concs := fs.String("conc", "1,2,4,16,64,256", "concurrent uploads")
	dgs := fs.String("digests", "md5,md5+sha256", "what the server computes of each body")
	ims := fs.String("impls", "none,stdlib,hashlanes", "implementations; none is the baseline the costs are taken over")
	o := &options{}
	fs.IntVar(&o.count, "count", 5, "runs of each configuration, the implementations alternating")
	fs.DurationVar(&o.warm, "warm", 500*time.Millisecond, "uploads before the measured window")
	fs.DurationVar(&o.window, "window", 1500*time.Millisecond, "the measured window")
	fs.IntVar(&o.serverCPU, "server-cpu", 0, "the server's CPU (-1: not pinned)")
	fs.IntVar(&o.clientCPU, "client-cpu", 1, "the client's CPU (-1: not pinned)")
	fs.IntVar(&o.procs, "procs", 1, "the server's GOMAXPROCS")
	fs.StringVar(&o.profileDir, "profile", "", "write a CPU profile of each server's window to `dir`")
	if err := fs.Parse(args); err != nil {
		return nil, err
	}
	if fs.NArg() > 0 {
		return nil, fmt.Errorf("unexpected argument %q", fs.Arg(0))
	}
	for _, s := range strings.Split(*sizes, ",") {
		sz, err := parseSize(s)
		if err != nil {
			return nil, err
		}
		o.sizes = append(o.sizes, sz)
	}
	for _, s := range strings.Split(*concs, ",") {
		n, err := strconv.Atoi(s)
		if err != nil || n < 1 {
			return nil, fmt.Errorf("bad concurrency %q", s)
		}
		o.concs = append(o.concs, n)
	}
	o.digests = strings.Split(*dgs, ",")
	for _, d := range o.digests {
		if !slices.Contains(digests, d) {
			return nil, fmt.Errorf("unknown digest %q (want one of %v)", d, digests)
		}
	}
	o.impls = strings.Split(*ims, ",")
	for _, im := range o.impls {
		if !slices.Contains(impls, im) {
			return nil, fmt.Errorf("unknown implementation %q (want one of %v)", im, impls)
		}
	}
	if o.count < 1 || o.window <= 0 {
		return nil, errors.New("-count and -window must be positive")
	}
	if runtime.NumCPU() < 2 {
		o.serverCPU, o.clientCPU = -1, -1
	}
	self, err := os.Executable()
	if err != nil {
		return nil, err
	}
	o.self = self
	return o, nil
}

// runAll measures every configuration count times, the implementations in
// a rotating order, and prints the lines and then the table to w.
func runAll(args []string, w io.Writer) ([]result, error) {
	o, err := parseOptions(args)
	if err != nil {
		return nil, err
	}
	if o.clientCPU >= 0 {
		if err := pin(o.clientCPU); err != nil {
			return nil, err
		}
		runtime.GOMAXPROCS(1)
	}
	fmt.Fprintf(w, "goos: %s\ngoarch: %s\npkg: github.com/hashlanes/hashlanes/bench/upload\ncpu: %s\n", runtime.GOOS, runtime.GOARCH, cpuName())
	data := randomData()
	var results []result
	total := len(o.sizes) * len(o.concs) * o.count
	step := 0
	began := time.Now()
	for _, sz := range o.sizes {
		bodies := bodySet(data, sz)
		for _, conc := range o.concs {
			for rep := range o.count {
				step++
				fmt.Fprintf(os.Stderr, "upload: %d/%d size=%s conc=%d run %d%s\n", step, total, sz.name, conc, rep+1, eta(began, step-1, total))
				for i := range o.impls {
					impl := o.impls[(i+rep)%len(o.impls)]
					dgs := o.digests
					if impl == "none" {
						dgs = []string{"none"}
					}
					for _, d := range dgs {
						c := config{digest: d, size: sz, conc: conc, impl: impl}
						r, err := measure(o, c, bodies)
						if err != nil {
							return nil, fmt.Errorf("%s: %w", c.name(), err)
						}
						results = append(results, r)
						fmt.Fprintln(w, r.line())
					}
				}
			}
		}
	}
	fmt.Fprintln(w)
	writeTable(w, o, results)
	return results, nil
}

func eta(began time.Time, done, total int) string {
	if done == 0 {
		return ""
	}
	left := time.Since(began) / time.Duration(done) * time.Duration(total-done)
	return fmt.Sprintf(", about %s left", left.Round(time.Second))
}

// measure runs one configuration once: a fresh server process, uploads
// for the warm-up, then the measured window between two snapshots of the
// server's counters.
func measure(o *options, c config, bodies []body) (result, error) {
	srvDigest := c.digest
	if srvDigest == "none" {
		srvDigest = "md5"
	}
	args := []string{"serve", "-impl", c.impl, "-digest", srvDigest, "-cpu", strconv.Itoa(o.serverCPU), "-procs", strconv.Itoa(o.procs)}
	if o.profileDir != "" {
		name := strings.NewReplacer("/", "_", "=", "-", "+", "-").Replace(c.name()) + ".pprof"
		args = append(args, "-cpuprofile", filepath.Join(o.profileDir, name))
	}
	addr, stop, err := startServer(o.self, args)
	if err != nil {
		return result{}, err
	}
	defer stop()
	l := newLoader(addr, bodies, c.conc, c.digest == "md5+sha256")
	defer l.client.CloseIdleConnections()
	ctx, cancel := context.WithCancel(context.Background())
	wg := l.run(ctx, c.conc)
	defer func() { cancel(); wg.Wait() }()
	time.Sleep(o.warm)
	a, err := l.stats("start")
	if err != nil {
		return result{}, err
	}
	doneA := l.done.Load()
	time.Sleep(o.window)
	b, err := l.stats("stop")
	if err != nil {
		return result{}, err
	}
	if err := l.firstErr(); err != nil {
		return result{}, err
	}
	if b.Bytes == a.Bytes {
		return result{}, errors.New("no bytes arrived in the window")
	}
	for _, alg := range slices.Sorted(maps.Keys(b.Choices)) {
		if alg == "md5" || c.digest == "md5+sha256" {
			fmt.Fprintf(os.Stderr, "upload: %s: %s choice at the window's end: %s\n", c.name(), alg, b.Choices[alg])
		}
	}
	return newResult(c, a, b, l.done.Load()-doneA), nil
}

// startServer starts the server process and returns its address and a
// function that stops it.
func startServer(self string, args []string) (string, func(), error) {
	cmd := exec.Command(self, args...)
	cmd.Stderr = os.Stderr
	stdin, err := cmd.StdinPipe()
	if err != nil {
		return "", nil, err
	}
	stdout, err := cmd.StdoutPipe()
	if err != nil {
		return "", nil, err
	}
	if err := cmd.Start(); err != nil {
		return "", nil, err
	}
	stop := func() {
		stdin.Close()
		done := make(chan struct{})
		go func() { cmd.Wait(); close(done) }()
		select {
		case <-done:
		case <-time.After(5 * time.Second):
			cmd.Process.Kill()
			<-done
		}
	}
	line, err := bufio.NewReader(stdout).ReadString('\n')
	addr, ok := strings.CutPrefix(strings.TrimSpace(line), "listening ")
	if err != nil || !ok {
		stop()
		return "", nil, fmt.Errorf("server did not start (%q, %v)", line, err)
	}
	return addr, stop, nil
}

func cpuName() string {
	b, err := os.ReadFile("/proc/cpuinfo")
	if err != nil {
		return runtime.GOARCH
	}
	for _, l := range strings.Split(string(b), "\n") {
		if k, v, ok := strings.Cut(l, ":"); ok && strings.TrimSpace(k) == "model name" {
			return strings.TrimSpace(v)
		}
	}
	return runtime.GOARCH
}
