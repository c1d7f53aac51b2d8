// Package cksum holds the checksums of the coreutils cksum family that
// are no cryptographic hash: the POSIX cksum CRC, and the BSD and System V
// sums of sum(1). Each is a hash.Hash whose Sum appends the value
// big-endian (4 bytes for the CRC, 2 for the sums), as cksum --raw writes
// it; the command prints them with the stream's length as the coreutils do.
package cksum

import (
	"context"
	"encoding/binary"
	"hash"
	"io"
	"sync"
)

// poly is the CRC's polynomial (POSIX cksum, the Ethernet one) without its
// x^32 term, MSB-first.
const poly = 0x04C11DB7

// crcTable returns the table: t[k][b] is the CRC, from 0, of byte b
// followed by k zero bytes. Made on first use rather than at start: every
// run of the command links this package, and most never compute the CRC.
func crcTable() *[8][256]uint32 {
	tableMade.once.Do(fillTable)
	return &tableMade.t
}

var tableMade struct {
	once sync.Once
	t    [8][256]uint32
}

func fillTable() {
	t := &tableMade.t
	for b := range 256 {
		c := uint32(b) << 24
		for range 8 {
			if c&0x80000000 != 0 {
				c = c<<1 ^ poly
			} else {
				c <<= 1
			}
		}
		t[0][b] = c
	}
	for k := 1; k < 8; k++ {
		for b := range 256 {
			c := t[k-1][b]
			t[k][b] = c<<8 ^ t[0][c>>24]
		}
	}
}

// updateTable continues crc over p, eight bytes a step.
func updateTable(crc uint32, p []byte) uint32 {
	table := crcTable()
	for len(p) >= 8 {
		crc ^= binary.BigEndian.Uint32(p)
		crc = table[7][crc>>24] ^ table[6][crc>>16&0xff] ^ table[5][crc>>8&0xff] ^ table[4][crc&0xff] ^
			table[3][p[4]] ^ table[2][p[5]] ^ table[1][p[6]] ^ table[0][p[7]]
		p = p[8:]
	}
	for _, b := range p {
		crc = crc<<8 ^ table[0][byte(crc>>24)^b]
	}
	return crc
}

// foldMin is the shortest input the carry-less fold takes; below it the
// table is as fast.
const foldMin = 256

// update continues crc over p: the fold where the CPU has it, the table
// for the rest.
func update(crc uint32, p []byte) uint32 {
	if useFold && len(p) >= foldMin {
		n := len(p) &^ 63
		var r [16]byte
		foldPCLMUL(crc, &p[0], n, &r)
		crc, p = updateTable(0, r[:]), p[n:]
	}
	return updateTable(crc, p)
}

// Hardware names what computes the CRC here, as cksum --debug says it:
// "pclmul" or "generic".
func Hardware() string {
	if useFold {
		return "pclmul"
	}
	return "generic"
}

// crc is POSIX cksum's CRC: the input, then its length in as few bytes as
// it takes, least significant first, complemented.
type crc struct {
	c uint32
	n uint64
}

// NewCRC returns the POSIX cksum CRC (cksum -a crc, the default).
func NewCRC() hash.Hash32 { return new(crc) }

func (h *crc) Write(p []byte) (int, error) {
	h.c = update(h.c, p)
	h.n += uint64(len(p))
	return len(p), nil
}

func (h *crc) Sum32() uint32 {
	c, t := h.c, crcTable()
	for n := h.n; n != 0; n >>= 8 {
		c = c<<8 ^ t[0][byte(c>>24)^byte(n)]
	}
	return ^c
}

func (h *crc) Sum(b []byte) []byte { return binary.BigEndian.AppendUint32(b, h.Sum32()) }
func (h *crc) Reset()              { *h = crc{} }
func (h *crc) Size() int           { return 4 }
func (h *crc) BlockSize() int      { return 64 }

// bsd is the BSD sum (sum -r): a 16-bit checksum rotated right a bit
// before each byte is added.
type bsd struct{ s uint16 }

// NewBSD returns the BSD sum (cksum -a bsd, sum -r).
func NewBSD() hash.Hash { return new(bsd) }

func (h *bsd) Write(p []byte) (int, error) {
	s := h.s
	for _, b := range p {
		s = (s>>1 | s<<15) + uint16(b)
	}
	h.s = s
	return len(p), nil
}

func (h *bsd) Sum(b []byte) []byte { return binary.BigEndian.AppendUint16(b, h.s) }
func (h *bsd) Reset()              { h.s = 0 }
func (h *bsd) Size() int           { return 2 }
func (h *bsd) BlockSize() int      { return 1 }

// sysv is the System V sum (sum -s): the bytes added in 32 bits, folded
// to 16 twice.
type sysv struct{ s uint32 }

// NewSysV returns the System V sum (cksum -a sysv, sum -s).
func NewSysV() hash.Hash { return new(sysv) }

func (h *sysv) Write(p []byte) (int, error) {
	s := h.s
	for _, b := range p {
		s += uint32(b)
	}
	h.s = s
	return len(p), nil
}

func (h *sysv) Sum(b []byte) []byte {
	r := h.s&0xffff + h.s>>16
	return binary.BigEndian.AppendUint16(b, uint16(r&0xffff+r>>16))
}
func (h *sysv) Reset()         { h.s = 0 }
func (h *sysv) Size() int      { return 2 }
func (h *sysv) BlockSize() int { return 1 }

// The CRC over a file in ranges, on several cores: the register (the CRC
// before the length and the complement) is linear, so the register of
// A followed by B is A's advanced over len(B) zero bytes, xored with B's
// from zero. One core copying from the page cache bounds the CRC of one
// large file; two copy nearly twice as fast.

// mulMod multiplies a and b, polynomials of degree < 32, modulo P.
func mulMod(a, b uint32) uint32 {
	var r uint32
	for i := 31; i >= 0; i-- {
		top := r & 0x80000000
		r <<= 1
		if top != 0 {
			r ^= poly
		}
		if b>>uint(i)&1 != 0 {
			r ^= a
		}
	}
	return r
}

// shift advances register reg over n zero bytes: reg·x^(8n) mod P.
func shift(reg uint32, n int64) uint32 {
	x8 := uint32(1 << 8) // x^8
	for ; n > 0; n >>= 1 {
		if n&1 != 0 {
			reg = mulMod(reg, x8)
		}
		x8 = mulMod(x8, x8)
	}
	return reg
}

// finish is the CRC of an input of n bytes whose register is reg.
func finish(reg uint32, n uint64) uint32 {
	h := crc{c: reg, n: n}
	return h.Sum32()
}

// SumReaderAt is the CRC of the size bytes of r, read in parts ranges at
// once, each through its own buffer of bufSize bytes; it stops early with
// ctx's error.
func SumReaderAt(ctx context.Context, r io.ReaderAt, size int64, parts, bufSize int) (uint32, error) {
	parts = max(1, min(parts, int(size/int64(bufSize))))
	regs := make([]uint32, parts)
	errs := make([]error, parts)
	per := size / int64(parts)
	var wg sync.WaitGroup
	for p := range parts {
		off, end := int64(p)*per, int64(p+1)*per
		if p == parts-1 {
			end = size
		}
		wg.Go(func() {
			buf := make([]byte, bufSize)
			var reg uint32
			for off < end {
				n, err := r.ReadAt(buf[:min(int64(bufSize), end-off)], off)
				reg = update(reg, buf[:n])
				off += int64(n)
				if err != nil && !(err == io.EOF && off == end) {
					errs[p] = err
					return
				}
				if err := ctx.Err(); err != nil {
					errs[p] = err
					return
				}
			}
			regs[p] = reg
		})
	}
	wg.Wait()
	var reg uint32
	for p := range parts {
		if errs[p] != nil {
			return 0, errs[p]
		}
		n := per
		if p == parts-1 {
			n = size - per*int64(parts-1)
		}
		reg = shift(reg, n) ^ regs[p]
	}
	return finish(reg, uint64(size)), nil
}
