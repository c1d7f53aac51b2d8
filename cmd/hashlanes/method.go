package main

import (
	"encoding/binary"
	"fmt"
	"hash"
	"hash/crc32"
	"io"
	"strconv"
	"strings"
	"sync"

	"github.com/emmansun/gmsm/sm3"
	"github.com/hashlanes/hashlanes"
	"github.com/hashlanes/hashlanes/internal/blake3tree"
	"github.com/hashlanes/hashlanes/internal/cksum"
	"golang.org/x/crypto/blake2b"
)

// method is what the checksum command computes a file's digest with: one
// of the library's algorithms, hashed in its lanes, or a function only
// the coreutils family names (a BLAKE2b of another length, SM3, the CRCs
// and the old sums), hashed beside them (hashlanes.WithStreamHashes).
// Methods are made once each, so one can be compared by pointer.
type method struct {
	alg     hashlanes.Algorithm // the library's, or 0
	name    string              // as -a takes it and JSON keys it: "sha256", "blake2b-256", "crc"
	tag     string              // in tagged lines: "SHA256", "BLAKE2b-256"
	size    int                 // digest bytes
	newHash func() hash.Hash    // for those that are not the library's
	// sumStyle: the digest is a number printed with the file's length
	// (cksum's crc and crc32b, sum's bsd and sysv), not a checksum line.
	sumStyle sumStyle
	// split, where the method has one, hashes a large regular file on
	// every core.
	split *splitter
}

// splitter hashes one large regular file on every core: in ranges whose
// results combine (cksum's CRC), or in the leaves of its tree (BLAKE3).
type splitter struct {
	min       int64 // the size from which it pays
	multiCore bool  // it pays only with more than one core
	sum       func(c *command, f blake3tree.File, size int64) ([]byte, error)
}

// crcSplitter reads a file's ranges on every core: one core copying from
// the page cache bounds the CRC of one file (a GiB: 190 ms on one core,
// 117 on two, Emerald Rapids), and the ranges' CRCs combine.
var crcSplitter = &splitter{min: 32 << 20, multiCore: true,
	sum: func(c *command, f blake3tree.File, size int64) ([]byte, error) {
		crc, err := cksum.SumReaderAt(c.ctx, f, size, c.cores(), streamRangeBuffer)
		if err != nil {
			return nil, err
		}
		return binary.BigEndian.AppendUint32(nil, crc), nil
	}}

// streamRangeBuffer is the read buffer of each range of a split file.
const streamRangeBuffer = 256 << 10

// blake3Splitter hashes a file's BLAKE3 in mode, outLen bytes, through
// its chunk tree from 1 MiB (4 leaves): the kernels and the mapped reads
// win on one core too. --no-mmap (b3sum) reads on one core instead.
func blake3Splitter(mode blake3tree.Mode, outLen int) *splitter {
	return &splitter{min: 1 << 20,
		sum: func(c *command, f blake3tree.File, size int64) ([]byte, error) {
			if c.noMmap {
				return blake3tree.SumReaderAt(c.ctx, f, size, mode, outLen, 1)
			}
			return blake3tree.SumFile(c.ctx, f, size, mode, outLen, c.cores())
		}}
}

type sumStyle int

const (
	digestLine sumStyle = iota // "HEX  NAME", "TAG (NAME) = HEX"
	crcLine                    // "CRC LENGTH NAME"
	bsdLine                    // "SUM KBLOCKS NAME", the sum %05d, the blocks right-aligned in 5
	sysvLine                   // "SUM BLOCKS NAME", 512-byte blocks
)

var (
	methodsMu sync.Mutex
	methods   = map[string]*method{}
)

// methodNamed returns the method of that name, made on first use. Names
// are the library's algorithms' and: blake2b-N (N a multiple of 8 up to
// 512), sm3, crc, crc32b, bsd, sysv.
func methodNamed(name string) (*method, bool) {
	methodsMu.Lock()
	defer methodsMu.Unlock()
	if m, ok := methods[name]; ok {
		return m, true
	}
	m := makeMethod(name)
	if m == nil {
		return nil, false
	}
	methods[name] = m
	return m, true
}

func makeMethod(name string) *method {
	if bits, ok := strings.CutPrefix(name, "blake2b-"); ok {
		n, err := strconv.Atoi(bits)
		if err != nil || n <= 0 || n > 512 || n%8 != 0 || bits != strconv.Itoa(n) {
			return nil
		}
		if n == 512 {
			return makeMethod("blake2b")
		}
		return &method{name: name, tag: fmt.Sprintf("BLAKE2b-%d", n), size: n / 8, newHash: func() hash.Hash {
			h, _ := blake2b.New(n/8, nil)
			return h
		}}
	}
	switch name {
	case "sm3":
		return &method{name: name, tag: "SM3", size: sm3.Size, newHash: sm3.New}
	case "crc":
		return &method{name: name, tag: "CRC", size: 4, newHash: func() hash.Hash { return cksum.NewCRC() }, sumStyle: crcLine, split: crcSplitter}
	case "crc32b":
		return &method{name: name, tag: "CRC32B", size: 4, newHash: func() hash.Hash { return crc32.NewIEEE() }, sumStyle: crcLine}
	case "bsd":
		return &method{name: name, tag: "BSD", size: 2, newHash: cksum.NewBSD, sumStyle: bsdLine}
	case "sysv":
		return &method{name: name, tag: "SYSV", size: 2, newHash: cksum.NewSysV, sumStyle: sysvLine}
	}
	for _, a := range hashlanes.Algorithms() {
		if a.String() == name {
			m := &method{alg: a, name: name, tag: tag(a), size: a.Size()}
			if a == hashlanes.BLAKE3 {
				m.split = blake3Splitter(blake3tree.Hash(), a.Size())
			}
			return m
		}
	}
	return nil
}

// methodOf is the method of one of the library's algorithms.
func methodOf(a hashlanes.Algorithm) *method {
	m, _ := methodNamed(a.String())
	return m
}

// methodsOf are the methods of the library's algorithms.
func methodsOf(algs ...hashlanes.Algorithm) []*method {
	ms := make([]*method, len(algs))
	for i, a := range algs {
		ms[i] = methodOf(a)
	}
	return ms
}

// blake2bBits is BLAKE2b with a digest of bits bits (512: b2sum's
// default, the library's BLAKE2b).
func blake2bBits(bits int) *method {
	m, _ := methodNamed(fmt.Sprintf("blake2b-%d", bits))
	return m
}

// streamPlan is how SumStreams hashes a stream with methods: the library's
// algorithms in lanes, the others as hashers after them.
type streamPlan struct {
	algs  []hashlanes.Algorithm
	other []*method
	order []int // order[k]: where method k's digest is in StreamSum.Sums
}

func planFor(ms []*method) *streamPlan {
	p := &streamPlan{order: make([]int, len(ms))}
	for k, m := range ms {
		if m.alg != 0 {
			p.order[k] = len(p.algs)
			p.algs = append(p.algs, m.alg)
		}
	}
	for k, m := range ms {
		if m.alg == 0 {
			p.order[k] = len(p.algs) + len(p.other)
			p.other = append(p.other, m)
		}
	}
	return p
}

// sumStreams is hashlanes.SumStreams over methods: stream i is hashed with
// planOf(i)'s, and done gets its digests in their order.
func (c *command) sumStreams(n int, planOf func(i int) *streamPlan, open func(i int) (io.Reader, error), done func(i int, s hashlanes.StreamSum)) {
	opts := append(c.jobOptions(),
		hashlanes.WithStreamAlgorithms(func(i int) []hashlanes.Algorithm { return planOf(i).algs }),
		hashlanes.WithStreamHashes(func(i int) []hash.Hash { return planOf(i).hashes() }))
	hashlanes.SumStreams(c.ctx, nil, n, open, func(i int, s hashlanes.StreamSum) {
		s.Sums = planOf(i).sums(s)
		done(i, s)
	}, opts...)
}

// hashes makes fresh hashers of the methods that are not the library's.
func (p *streamPlan) hashes() []hash.Hash {
	if len(p.other) == 0 {
		return nil
	}
	hs := make([]hash.Hash, len(p.other))
	for i, m := range p.other {
		hs[i] = m.newHash()
	}
	return hs
}

// sums returns a stream's digests in the methods' order.
func (p *streamPlan) sums(s hashlanes.StreamSum) [][]byte {
	if s.Sums == nil {
		return nil
	}
	out := make([][]byte, len(p.order))
	for k, i := range p.order {
		out[k] = s.Sums[i]
	}
	return out
}
