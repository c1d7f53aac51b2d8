// Package method names what the checksum commands compute a file's digest
// with: the library's algorithms, hashed in lanes, and the functions only
// the coreutils family names, hashed beside them; cksum -a's table; and
// the plan by which one stream gets every digest it needs.
package method

import (
	"context"
	"encoding/binary"
	"encoding/hex"
	"fmt"
	"hash"
	"hash/crc32"
	"strconv"
	"strings"
	"sync"

	"github.com/emmansun/gmsm/sm3"
	"github.com/hashlanes/hashlanes"
	_ "github.com/hashlanes/hashlanes/blake2" // b2sum and -a blake2b/blake2s hash through the library
	"github.com/hashlanes/hashlanes/internal/blake3tree"
	"github.com/hashlanes/hashlanes/internal/cksum"
	"golang.org/x/crypto/blake2b"
)

// TagOf is an algorithm's name in tagged lines ("SHA256 (f) = ..."), as the
// coreutils and OpenSSL write it: its name in capitals, but BLAKE2's
// small b and s.
func TagOf(a hashlanes.Algorithm) string {
	t := strings.ToUpper(a.String())
	if strings.HasPrefix(t, "BLAKE2") {
		t = t[:len("BLAKE2")] + strings.ToLower(t[len("BLAKE2"):])
	}
	return t
}

func Known() string {
	var names []string
	for _, a := range hashlanes.Algorithms() {
		names = append(names, a.String())
	}
	return strings.Join(append(names, "blake2b-N (N bits, a multiple of 8)", "sm3"), ", ")
}

func Hex(sum []byte) string { return hex.EncodeToString(sum) }

// Method is what the checksum command computes a file's digest with: one
// of the library's algorithms, hashed in its lanes, or a function only
// the coreutils family names (a BLAKE2b of another length, SM3, the CRCs
// and the old sums), hashed beside them (hashlanes.WithStreamHashes).
// Methods are made once each, so one can be compared by pointer.
type Method struct {
	Alg     hashlanes.Algorithm // the library's, or 0
	Name    string              // as -a takes it and JSON keys it: "sha256", "blake2b-256", "crc"
	Tag     string              // in tagged lines: "SHA256", "BLAKE2b-256"
	Size    int                 // digest bytes
	NewHash func() hash.Hash    // for those that are not the library's
	// Style: the digest is a number printed with the file's length
	// (cksum's crc and crc32b, sum's bsd and sysv), not a checksum line.
	Style Style
	// Split, where the method has one, hashes a large regular file on
	// every core.
	Split *Splitter
}

// Splitter hashes one large regular file on every core: in ranges whose
// results combine (cksum's CRC), or in the leaves of its tree (BLAKE3).
type Splitter struct {
	Min       int64 // the size from which it pays
	MultiCore bool  // it pays only with more than one core
	Sum       func(r SplitRun, f blake3tree.File, size int64) ([]byte, error)
}

// SplitRun is what a splitter needs of the run it hashes a file for.
type SplitRun struct {
	Ctx    context.Context
	Cores  int  // the cores the file is hashed on
	NoMmap bool // b3sum --no-mmap: the file is read, on one core
}

// crcSplitter reads a file's ranges on every core: one core copying from
// the page cache bounds the CRC of one file, and the ranges' CRCs combine
// (docs/figures.md, "The checksum family on a real tree").
var crcSplitter = &Splitter{Min: 32 << 20, MultiCore: true,
	Sum: func(r SplitRun, f blake3tree.File, size int64) ([]byte, error) {
		crc, err := cksum.SumReaderAt(r.Ctx, f, size, r.Cores, streamRangeBuffer)
		if err != nil {
			return nil, err
		}
		return binary.BigEndian.AppendUint32(nil, crc), nil
	}}

// streamRangeBuffer is the read buffer of each range of a split file.
const streamRangeBuffer = 256 << 10

// Blake3Splitter hashes a file's BLAKE3 in mode, outLen bytes, through
// its chunk tree from 1 MiB (4 leaves): the kernels and the mapped reads
// win on one core too. --no-mmap (b3sum) reads on one core instead.
func Blake3Splitter(mode blake3tree.Mode, outLen int) *Splitter {
	return &Splitter{Min: 1 << 20,
		Sum: func(r SplitRun, f blake3tree.File, size int64) ([]byte, error) {
			if r.NoMmap {
				return blake3tree.SumReaderAt(r.Ctx, f, size, mode, outLen, 1)
			}
			return blake3tree.SumFile(r.Ctx, f, size, mode, outLen, r.Cores)
		}}
}

type Style int

const (
	DigestLine Style = iota // "HEX  NAME", "TAG (NAME) = HEX"
	CRCLine                 // "CRC LENGTH NAME"
	BSDLine                 // "SUM KBLOCKS NAME", the sum %05d, the blocks right-aligned in 5
	SysVLine                // "SUM BLOCKS NAME", 512-byte blocks
)

var (
	methodsMu sync.Mutex
	methods   = map[string]*Method{}
)

// Named returns the method of that name, made on first use. Names
// are the library's algorithms' and: blake2b-N (N a multiple of 8 up to
// 512), sm3, crc, crc32b, bsd, sysv.
func Named(name string) (*Method, bool) {
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

func makeMethod(name string) *Method {
	if bits, ok := strings.CutPrefix(name, "blake2b-"); ok {
		n, err := strconv.Atoi(bits)
		if err != nil || n <= 0 || n > 512 || n%8 != 0 || bits != strconv.Itoa(n) {
			return nil
		}
		if n == 512 {
			return makeMethod("blake2b")
		}
		return &Method{Name: name, Tag: fmt.Sprintf("BLAKE2b-%d", n), Size: n / 8, NewHash: func() hash.Hash {
			h, _ := blake2b.New(n/8, nil)
			return h
		}}
	}
	switch name {
	case "sm3":
		return &Method{Name: name, Tag: "SM3", Size: sm3.Size, NewHash: sm3.New}
	case "crc":
		return &Method{Name: name, Tag: "CRC", Size: 4, NewHash: func() hash.Hash { return cksum.NewCRC() }, Style: CRCLine, Split: crcSplitter}
	case "crc32b":
		return &Method{Name: name, Tag: "CRC32B", Size: 4, NewHash: func() hash.Hash { return crc32.NewIEEE() }, Style: CRCLine}
	case "bsd":
		return &Method{Name: name, Tag: "BSD", Size: 2, NewHash: cksum.NewBSD, Style: BSDLine}
	case "sysv":
		return &Method{Name: name, Tag: "SYSV", Size: 2, NewHash: cksum.NewSysV, Style: SysVLine}
	}
	for _, a := range hashlanes.Algorithms() {
		if a.String() == name {
			m := &Method{Alg: a, Name: name, Tag: TagOf(a), Size: a.Size()}
			if a == hashlanes.BLAKE3 {
				m.Split = Blake3Splitter(blake3tree.Hash(), a.Size())
			}
			return m
		}
	}
	return nil
}

// Of is the method of one of the library's algorithms.
func Of(a hashlanes.Algorithm) *Method {
	m, _ := Named(a.String())
	return m
}

// OfEach are the methods of the library's algorithms.
func OfEach(algs ...hashlanes.Algorithm) []*Method {
	ms := make([]*Method, len(algs))
	for i, a := range algs {
		ms[i] = Of(a)
	}
	return ms
}

// BLAKE2bBits is BLAKE2b with a digest of bits bits (512: b2sum's
// default, the library's BLAKE2b).
func BLAKE2bBits(bits int) *Method {
	m, _ := Named(fmt.Sprintf("blake2b-%d", bits))
	return m
}
