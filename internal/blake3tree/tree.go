// Package blake3tree hashes BLAKE3 on hashlanes' own kernels: one large
// input on several cores (the input is a tree of 1 KiB chunks, so ranges
// of it, leaves of leafChunks chunks read into a buffer of their own, are
// compressed at once, 16 chunks a kernel call, AVX-512 or AVX2 (twice 8),
// and their chaining values joined up the tree; memory is a buffer a core,
// whatever the input's size), and many short inputs together, their chunks
// in the lanes of the same calls (SumMany). Without the kernels, the
// compression function in Go (compress.go) does.
package blake3tree

import (
	"context"
	"encoding/binary"
	"io"
	"math/bits"
	"sync"
)

// Mode is what BLAKE3 computes: the key words its nodes start from and
// the flags they carry.
type Mode struct {
	Key   [8]uint32
	Flags uint32
}

// Hash is the plain hash.
func Hash() Mode { return Mode{Key: iv} }

// Keyed is the keyed hash with a 32-byte key.
func Keyed(key *[32]byte) Mode {
	var m Mode
	for i := range m.Key {
		m.Key[i] = binary.LittleEndian.Uint32(key[4*i:])
	}
	m.Flags = flagKeyedHash
	return m
}

// DeriveKey is the key derivation with a context string: its key is the
// hash of the context in the context mode.
func DeriveKey(context string) Mode {
	ctx := Mode{Key: iv, Flags: flagDeriveKeyContext}
	k := Sum(ctx, []byte(context), 32)
	var m Mode
	for i := range m.Key {
		m.Key[i] = binary.LittleEndian.Uint32(k[4*i:])
	}
	m.Flags = flagDeriveKeyMaterial
	return m
}

// leafChunks is the chunks of a leaf: a core reads and compresses 256 KiB
// at a time.
const leafChunks = 256

const (
	leafLen = leafChunks * chunk
	// A leaf buffer has room for a whole kernel call past its last byte:
	// the kernel reads 16 chunks whatever the length it is given.
	bufLen = leafLen + maxSIMD*chunk
)

// File is an open file SumFile reads: *os.File, or one opened otherwise
// (the command opens paths longer than PATH_MAX a part at a time).
type File interface {
	io.ReaderAt
	Fd() uintptr
	Name() string
}

// window is the bytes of a file a core maps at a time (SumFile): 64
// leaves. The kernels read the page cache where it is, without the copy a
// read makes (1 GiB: 143 ms of a core here), and at most a window a core
// is mapped, so the resident memory stays bounded whatever the file's size.
const window = 64 * leafLen

var buffers = sync.Pool{New: func() any { return new([bufLen]byte) }}

// chunks is the number of chunks of n bytes (one for none).
func chunks(n int64) uint64 { return uint64(max(1, (n+chunk-1)/chunk)) }

// leftChunks is the size of the left subtree of n > 1 chunks: the largest
// power of two below n.
func leftChunks(n uint64) uint64 { return 1 << (bits.Len64(n-1) - 1) }

// subtree compresses buf[off:off+length], the n chunks from counter on (a
// leaf or less): the subtree's root node, not finalized.
func subtree(m *Mode, buf *[bufLen]byte, off, length int, counter, n uint64) node {
	if n <= maxSIMD {
		k := (*[maxSIMD * chunk]byte)(buf[off : off+maxSIMD*chunk])
		return compressBuffer(k, length, &m.Key, counter, m.Flags)
	}
	left := leftChunks(n)
	ll := int(left) * chunk
	ln := subtree(m, buf, off, ll, counter, left)
	rn := subtree(m, buf, off+ll, length-ll, counter+left, n-left)
	l, r := chainingValue(&ln), chainingValue(&rn)
	return parentNode(&l, &r, &m.Key, m.Flags)
}

// output is the first outLen bytes of root's output (BLAKE3's XOF).
func output(root node, outLen int) []byte {
	root.flags |= flagRoot
	out := make([]byte, 0, outLen+blockSize)
	for i := uint64(0); len(out) < outLen; i++ {
		root.counter = i
		words := compress(&root)
		for _, w := range words {
			out = binary.LittleEndian.AppendUint32(out, w)
		}
	}
	return out[:outLen]
}

// appendWords appends a chaining value, or a 32-byte output's words, to
// dst, little-endian.
func appendWords(dst []byte, cv *[8]uint32) []byte {
	for _, w := range cv {
		dst = binary.LittleEndian.AppendUint32(dst, w)
	}
	return dst
}

// Sum is the BLAKE3 output of data in mode m, on the calling goroutine.
func Sum(m Mode, data []byte, outLen int) []byte {
	out, _ := SumReaderAt(context.Background(), bytesAt(data), int64(len(data)), m, outLen, 1)
	return out
}

type bytesAt []byte

func (b bytesAt) ReadAt(p []byte, off int64) (int, error) {
	n := copy(p, b[off:])
	if n < len(p) {
		return n, io.EOF
	}
	return n, nil
}

// SumReaderAt is the BLAKE3 output (outLen bytes) of the size bytes of r
// in mode m: its leaves are read and compressed on up to parts goroutines
// at once, each with a buffer of its own. It stops early with ctx's error.
func SumReaderAt(ctx context.Context, r io.ReaderAt, size int64, m Mode, outLen, parts int) ([]byte, error) {
	n := chunks(size)
	leaves := (n + leafChunks - 1) / leafChunks
	readLeaf := func(buf *[bufLen]byte, i uint64) ([]byte, error) {
		off := int64(i) * leafLen
		data := buf[:min(int64(leafLen), size-off)]
		k, err := r.ReadAt(data, off)
		if k == len(data) {
			err = nil
		} else if err == nil {
			err = io.ErrUnexpectedEOF
		}
		return data, err
	}
	if leaves == 1 {
		buf := buffers.Get().(*[bufLen]byte)
		defer buffers.Put(buf)
		data, err := readLeaf(buf, 0)
		if err != nil {
			return nil, err
		}
		return output(subtree(&m, buf, 0, len(data), 0, n), outLen), nil
	}

	cvs := make([][8]uint32, leaves)
	err := inParallel(ctx, parts, int64(leaves), func(i int64, buf *[bufLen]byte) error {
		data, err := readLeaf(buf, uint64(i))
		if err != nil {
			return err
		}
		cvs[i] = leafCV(&m, buf, len(data), uint64(i)*leafChunks)
		return nil
	})
	if err != nil {
		return nil, err
	}
	return output(join(&m, cvs, 0, n), outLen), nil
}

// leafCV is the chaining value of the leaf of length bytes at the front of
// buf, its first chunk at counter: a whole one on the kernels.
func leafCV(m *Mode, buf *[bufLen]byte, length int, counter uint64) [8]uint32 {
	if useKernels() && length == leafLen {
		return leafKernels(m, (*[leafLen]byte)(buf[:leafLen]), counter)
	}
	root := subtree(m, buf, 0, length, counter, chunks(int64(length)))
	return chainingValue(&root)
}

// inParallel runs work(i, buf) for i = 0..n-1 on up to parts goroutines,
// each with a leaf buffer of its own, taking the indices in order; the
// first error (or ctx's) stops it and is returned.
func inParallel(ctx context.Context, parts int, n int64, work func(i int64, buf *[bufLen]byte) error) error {
	var next int64
	var mu sync.Mutex
	var firstErr error
	var wg sync.WaitGroup
	for range max(1, min(int64(parts), n)) {
		wg.Go(func() {
			buf := buffers.Get().(*[bufLen]byte)
			defer buffers.Put(buf)
			for {
				mu.Lock()
				i := next
				next++
				stop := firstErr != nil
				mu.Unlock()
				if i >= n || stop {
					return
				}
				err := ctx.Err()
				if err == nil {
					err = work(i, buf)
				}
				if err != nil {
					mu.Lock()
					if firstErr == nil {
						firstErr = err
					}
					mu.Unlock()
					return
				}
			}
		})
	}
	wg.Wait()
	return firstErr
}

// join is the root node of the n chunks from leaf first on, from the
// leaves' chaining values (n > leafChunks).
func join(m *Mode, cvs [][8]uint32, first, n uint64) node {
	cv := func(first, n uint64) [8]uint32 {
		if n <= leafChunks {
			return cvs[first]
		}
		root := join(m, cvs, first, n)
		return chainingValue(&root)
	}
	left := leftChunks(n)
	l, r := cv(first, left), cv(first+left/leafChunks, n-left)
	return parentNode(&l, &r, &m.Key, m.Flags)
}
