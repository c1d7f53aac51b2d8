// Package engine schedules streams onto kernel lanes: it pads and finishes
// messages, packs the whole blocks of many concurrently written streams into
// one multi-lane kernel call, and runs a lone stream on the single-stream
// kernel without waiting for company.
package engine

import (
	"encoding/binary"
	"errors"

	"github.com/hashlanes/hashlanes/internal/kernel"
)

// maxBlockSize is the largest block of the algorithms the engine serves
// (SHA-512's 128 bytes).
const maxBlockSize = 128

// Spec describes one algorithm of the Merkle-Damgård family: block and
// digest sizes, padding, output and the standard library's marshalled state.
type Spec[S any] struct {
	Name      string
	Size      int // digest bytes
	BlockSize int
	Init      S
	LenBytes  int  // length field of the padding: 8 or 16
	BigEndian bool // byte order of the length field

	// AppendDigest appends the first Size bytes of the encoded state.
	AppendDigest func(b []byte, s *S) []byte

	// Magic starts a marshalled state; AppendState and ReadState write and
	// read the chaining value in the standard library's byte order.
	Magic       string
	AppendState func(b []byte, s *S) []byte
	ReadState   func(b []byte, s *S) []byte
}

// marshaledSize is the length of a state in the standard library's format:
// magic, chaining value, a whole block of buffered input, 64-bit length.
func (sp *Spec[S]) marshaledSize() int {
	var s S
	return len(sp.Magic) + len(sp.AppendState(nil, &s)) + sp.BlockSize + 8
}

// Kernels is what a Server runs: one single-stream kernel and, optionally, a
// multi-lane one worth using once MinLanes streams are ready.
type Kernels[S any] struct {
	Single kernel.Single[S]
	Multi  kernel.Multi[S] // Lanes == 0: none
	// MinLanes is the fewest ready streams for which Multi moves more bytes
	// per cycle than Single run one stream after another (measured per
	// kernel; see the algorithm's crossover table).
	MinLanes int
}

// pad writes the final block(s) of a message of total length n whose last
// n%BlockSize bytes are tail into dst and returns them.
func (sp *Spec[S]) pad(dst *[2 * maxBlockSize]byte, tail []byte, n uint64) []byte {
	bs := sp.BlockSize
	k := copy(dst[:], tail)
	dst[k] = 0x80
	total := bs
	if k+1+sp.LenBytes > bs {
		total = 2 * bs
	}
	clear(dst[k+1 : total])
	bits := n << 3
	if sp.BigEndian {
		binary.BigEndian.PutUint64(dst[total-8:], bits)
		if sp.LenBytes == 16 {
			binary.BigEndian.PutUint64(dst[total-16:], n>>61)
		}
	} else {
		binary.LittleEndian.PutUint64(dst[total-8:], bits)
	}
	return dst[:total]
}

var (
	errStateID   = errors.New("invalid hash state identifier")
	errStateSize = errors.New("invalid hash state size")
)
