package tuning

import (
	"bytes"
	"cmp"
	"crypto/sha256"
	"encoding/hex"
	"encoding/json"
	"errors"
	"fmt"
	"io/fs"
	"os"
	"path/filepath"
	"runtime"
	"runtime/debug"
	"slices"
	"strconv"
	"sync"
	"time"

	"github.com/hashlanes/hashlanes/internal/cpu"
)

// Format names the wisdom file's format; a file of another is stale.
const Format = "hashlanes-tuning/1"

// Wisdom is what a measurement of this machine found, as hashlanes tune
// writes it to the user's cache directory and as the priors hold it.
type Wisdom struct {
	Format string `json:"format"`
	// A prior's name ("zen4"), what it matches, and where its figures come
	// from.
	Name       string   `json:"name,omitempty"`
	Match      *Match   `json:"match,omitempty"`
	Provenance []string `json:"provenance,omitempty"`

	CPU      CPU               `json:"cpu"`
	Build    string            `json:"build,omitempty"` // see BuildID
	Measured time.Time         `json:"measured"`
	Method   string            `json:"method"`
	Families map[string]*Rates `json:"families"`
}

// CPU identifies a processor as the wisdom file is keyed: a file from
// another processor is not used.
type CPU struct {
	Vendor   string   `json:"vendor"`
	Family   uint32   `json:"family"`
	Model    uint32   `json:"model"`
	Stepping uint32   `json:"stepping"`
	Brand    string   `json:"brand,omitempty"`
	Features []string `json:"features"` // as cpu.Features, and amx
}

// ThisCPU is this processor's identity, brand string included.
func ThisCPU() CPU {
	c := thisCPU()
	c.Features = slices.Clone(c.Features)
	c.Brand = cpu.Brand()
	return c
}

// thisCPU reads the processor's identity once, without the brand string,
// which no prior's match reads: under a hypervisor each CPUID instruction
// behind it is a trap. A plain Once over a flat function, as in package
// cpu, for the same reason: the stack of the first use.
func thisCPU() CPU {
	thisCPUMade.once.Do(readThisCPU)
	return thisCPUMade.cpu
}

var thisCPUMade struct {
	once sync.Once
	cpu  CPU
}

func readThisCPU() {
	id := cpu.ID()
	f := slices.Clone(cpu.Features())
	if id.AMX {
		f = append(f, "amx")
	}
	thisCPUMade.cpu = CPU{Vendor: id.Vendor, Family: id.Family, Model: id.Model, Stepping: id.Stepping, Features: f}
}

func (c CPU) String() string {
	s := fmt.Sprintf("%s family %#x model %#x stepping %d", cmp.Or(c.Vendor, "unknown vendor"), c.Family, c.Model, c.Stepping)
	if c.Brand != "" {
		s = c.Brand + " (" + s + ")"
	}
	return s
}

func (c CPU) same(o CPU) bool {
	return c.Vendor == o.Vendor && c.Family == o.Family && c.Model == o.Model && c.Stepping == o.Stepping &&
		c.Brand == o.Brand && slices.Equal(c.Features, o.Features)
}

// Match says which CPUs a prior is for: all of its fields that are set
// must hold, or one of Or's. NearestFor makes it the prior of CPUs that match none, at
// that instruction-set level.
type Match struct {
	Vendor     string      `json:"vendor,omitempty"`
	Family     uint32      `json:"family,omitempty"`
	Models     [][2]uint32 `json:"models,omitempty"` // inclusive ranges
	Features   []string    `json:"features,omitempty"`
	Level      string      `json:"level,omitempty"` // the least level detected
	NearestFor string      `json:"nearest_for,omitempty"`
	// Or lists other ways to match: the CPUs a hypervisor hides a
	// feature of, known by their models instead.
	Or []*Match `json:"or,omitempty"`
}

func (m *Match) matches(c CPU, detected cpu.Level) bool {
	if m == nil {
		return false
	}
	if m.matchesAll(c, detected) {
		return true
	}
	return slices.ContainsFunc(m.Or, func(o *Match) bool { return o.matches(c, detected) })
}

// matchesAll reports whether all of m's own conditions hold.
func (m *Match) matchesAll(c CPU, detected cpu.Level) bool {
	if m.Vendor == "" && m.Family == 0 && len(m.Models) == 0 && len(m.Features) == 0 {
		return false
	}
	if m.Vendor != "" && m.Vendor != c.Vendor || m.Family != 0 && m.Family != c.Family {
		return false
	}
	if len(m.Models) > 0 && !slices.ContainsFunc(m.Models, func(r [2]uint32) bool { return c.Model >= r[0] && c.Model <= r[1] }) {
		return false
	}
	for _, f := range m.Features {
		if !slices.Contains(c.Features, f) {
			return false
		}
	}
	if m.Level != "" {
		if l, err := cpu.ParseLevelOf(priorArch, m.Level); err != nil || detected < l {
			return false
		}
	}
	return true
}

//go:generate go run ./internal/genpriors -out priors_table.go

// A priorEntry is a prior (priors/*.json, as Go values in priors_table.go:
// decoding JSON at start would cost a fresh process more than the hashing
// it came for): its name and match, which cost nothing to hold, and
// functions that make, on first use, a family's rates (what a family's
// engine starts from) and the rest of the prior (what tune and the report
// print). A process that hashes with one family makes only that family's
// maps (docs/engine.md, "Start-up").
type priorEntry struct {
	name     string
	match    *Match
	families []string
	wisdom   func() *Wisdom             // the prior without its families' rates
	rates    func(family string) *Rates // nil for a family it has none of
}

// whole makes the whole prior.
func (e *priorEntry) whole() *Wisdom {
	w := e.wisdom()
	w.Families = make(map[string]*Rates, len(e.families))
	for _, name := range e.families {
		w.Families[name] = e.rates(name)
	}
	return w
}

// priorMade is each whole prior's once-made value.
var priorMade = sync.OnceValue(func() []func() *Wisdom {
	fs := make([]func() *Wisdom, len(priorEntries))
	for i := range priorEntries {
		fs[i] = sync.OnceValue(priorEntries[i].whole)
	}
	return fs
})

// prior returns prior i, made once; nil for i < 0.
func prior(i int) *Wisdom {
	if i < 0 {
		return nil
	}
	return priorMade()[i]()
}

// priorRates returns prior i's rates of a family, made anew; none if it has
// none of the family, or for i < 0 (no prior).
func priorRates(i int, family string) *Rates {
	if i >= 0 {
		if r := priorEntries[i].rates(family); r != nil {
			return r
		}
	}
	return &Rates{}
}

// priors returns every prior.
func priors() []*Wisdom {
	ws := make([]*Wisdom, len(priorEntries))
	for i := range ws {
		ws[i] = prior(i)
	}
	return ws
}

// PriorNames lists the priors' names.
func PriorNames() []string {
	var names []string
	for _, e := range priorEntries {
		names = append(names, e.name)
	}
	return names
}

// priorNamed returns the index of the prior named name.
func priorNamed(name string) (int, bool) {
	for i, e := range priorEntries {
		if e.name == name {
			return i, true
		}
	}
	return -1, false
}

// priorForCPU returns the index of this CPU's prior and true, or of the
// nearest by instruction set and false; -1 where there is no prior.
func priorForCPU() (int, bool) {
	if runtime.GOARCH != priorArch {
		return -1, false
	}
	return priorFor(thisCPU(), cpu.Detected) // a match reads no brand
}

// priorArch is the architecture the priors were measured on: elsewhere a
// process starts with no rates, its lone streams on the single-stream
// kernel, and measures the kernels the first time it has a choice.
const priorArch = "amd64"

func priorFor(c CPU, detected cpu.Level) (int, bool) {
	for i, e := range priorEntries {
		if e.match.matches(c, detected) {
			return i, true
		}
	}
	// The nearest: the prior for the highest level at or below this CPU's,
	// else for the lowest above it.
	best, bestScore := -1, 0
	for i, e := range priorEntries {
		if e.match == nil || e.match.NearestFor == "" {
			continue
		}
		l, err := cpu.ParseLevelOf(priorArch, e.match.NearestFor)
		if err != nil {
			continue
		}
		score := 100 + int(l)
		if l > detected {
			score = -int(l)
		}
		if best < 0 || score > bestScore {
			best, bestScore = i, score
		}
	}
	return best, false
}

// parseWisdom decodes and checks a wisdom file or a prior.
func parseWisdom(b []byte) (*Wisdom, error) {
	d := json.NewDecoder(bytes.NewReader(b))
	d.DisallowUnknownFields()
	w := new(Wisdom)
	if err := d.Decode(w); err != nil {
		return nil, fmt.Errorf("not a wisdom file: %v", err)
	}
	if w.Format != Format {
		return nil, fmt.Errorf("format %q, want %q", w.Format, Format)
	}
	if len(w.Families) == 0 {
		return nil, errors.New("no rates")
	}
	for name, r := range w.Families {
		if r == nil || len(r.Kernels) == 0 {
			return nil, fmt.Errorf("%s: no rates", name)
		}
		if err := r.check(); err != nil {
			return nil, fmt.Errorf("%s: %v", name, err)
		}
	}
	return w, nil
}

// BuildID names this build's kernels: the Go release, hashlanes' version
// (its module version, or the revision it was built from) and the
// families' kernels. Rates measured by another build may not hold.
func BuildID() string {
	version := "devel"
	if bi, ok := debug.ReadBuildInfo(); ok {
		const path = "github.com/hashlanes/hashlanes"
		mod := &bi.Main
		for _, d := range bi.Deps {
			if d.Path == path {
				mod = d
			}
		}
		if mod.Path == path && mod.Version != "" && mod.Version != "(devel)" {
			version = mod.Version
		} else {
			for _, s := range bi.Settings {
				if s.Key == "vcs.revision" {
					version = s.Value
				}
			}
		}
	}
	h := sha256.New()
	for _, f := range Families() {
		fmt.Fprintf(h, "%s:", f.name)
		for _, p := range f.probes() {
			fmt.Fprintf(h, "%s/%d/%d/%d,", p.Name, p.Lanes, p.Fast, p.FastBlocks)
		}
	}
	return fmt.Sprintf("%s %s kernels=%s", runtime.Version(), version, hex.EncodeToString(h.Sum(nil))[:12])
}

// WisdomPath is where the wisdom file for this CPU is read and written:
// HASHLANES_TUNING_FILE, else tuning-VENDOR-FAMILY-MODEL-STEPPING.json in
// hashlanes' folder of the user's cache directory.
func WisdomPath() (string, error) {
	if p := os.Getenv("HASHLANES_TUNING_FILE"); p != "" {
		return p, nil
	}
	dir, err := os.UserCacheDir()
	if err != nil {
		return "", err
	}
	// Built without fmt, and from the CPU's identity without a copy of
	// its features: a fresh process reads the file on its first choice
	// of kernels, and formatting cost it as much as the read.
	id := cpu.ID()
	name := []byte("tuning-")
	for _, r := range cmp.Or(id.Vendor, "unknown") {
		switch {
		case r >= 'A' && r <= 'Z':
			name = append(name, byte(r-'A'+'a'))
		case r >= 'a' && r <= 'z' || r >= '0' && r <= '9':
			name = append(name, byte(r))
		}
	}
	for _, n := range []uint32{id.Family, id.Model, id.Stepping} {
		name = strconv.AppendUint(append(name, '-'), uint64(n), 10)
	}
	return filepath.Join(dir, "hashlanes", string(name)+".json"), nil
}

// ErrNoWisdom is LoadWisdom's reason when there is no file.
var ErrNoWisdom = errors.New("no wisdom file")

var loaded struct {
	once sync.Once
	w    *Wisdom
	path string
	err  error
}

// LoadWisdom returns this process's wisdom file, read once: the wisdom,
// its path, and nil; or nil, the path and why it is not used.
func LoadWisdom() (*Wisdom, string, error) {
	loaded.once.Do(func() {
		loaded.path, loaded.err = WisdomPath()
		if loaded.err == nil {
			loaded.w, loaded.err = ReadWisdom(loaded.path)
		}
	})
	return loaded.w, loaded.path, loaded.err
}

// ReadWisdom reads the wisdom file at path and checks that it was written
// for this CPU and this build.
func ReadWisdom(path string) (*Wisdom, error) {
	b, err := os.ReadFile(path)
	if errors.Is(err, fs.ErrNotExist) {
		return nil, ErrNoWisdom
	}
	if err != nil {
		return nil, err
	}
	w, err := parseWisdom(b)
	if err != nil {
		return nil, err
	}
	if this := ThisCPU(); !w.CPU.same(this) {
		return nil, fmt.Errorf("measured on another CPU (%s; this is %s)", w.CPU, this)
	}
	if b := BuildID(); w.Build != b {
		return nil, fmt.Errorf("written by another build (%s; this is %s)", w.Build, b)
	}
	return w, nil
}

// Save writes w to path, whole or not at all: a regular file is
// replaced by renaming a complete one over it. Through a symbolic link
// it writes the link's target, and into what is not a regular file (a
// device such as /dev/null, a pipe) it writes as a shell's > would,
// never replacing it.
func (w *Wisdom) Save(path string) error {
	b, err := json.MarshalIndent(w, "", "\t")
	if err != nil {
		return err
	}
	b = append(b, '\n')
	if target, err := filepath.EvalSymlinks(path); err == nil {
		path = target
	}
	if fi, err := os.Stat(path); err == nil && !fi.Mode().IsRegular() {
		if fi.IsDir() {
			return fmt.Errorf("%s: is a directory", path)
		}
		f, err := os.OpenFile(path, os.O_WRONLY|os.O_TRUNC, 0)
		if err != nil {
			return err
		}
		_, err = f.Write(b)
		if cerr := f.Close(); err == nil {
			err = cerr
		}
		return err
	}
	if err := os.MkdirAll(filepath.Dir(path), 0o755); err != nil {
		return err
	}
	tmp, err := os.CreateTemp(filepath.Dir(path), ".tuning-*.json")
	if err != nil {
		return err
	}
	_, err = tmp.Write(b)
	if cerr := tmp.Close(); err == nil {
		err = cerr
	}
	if err == nil {
		err = os.Rename(tmp.Name(), path)
	}
	if err != nil {
		os.Remove(tmp.Name())
	}
	return err
}
