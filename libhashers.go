package hashlanes

import (
	"encoding"
	"encoding/binary"
	"errors"
	"hash"
	"math/bits"
	"strings"

	"github.com/hashlanes/hashlanes/internal/blake3tree"
	"github.com/hashlanes/hashlanes/internal/kernel"
	"github.com/hashlanes/hashlanes/internal/reference"
)

// The hashers New and Server.NewHash return for BLAKE2b, BLAKE2s and
// BLAKE3 keep the contract of every other algorithm's: hash.Cloner, and a
// state that MarshalBinary/AppendBinary save and UnmarshalBinary restores,
// rejecting a truncated or foreign state with an error and leaving the
// hasher as it was. golang.org/x/crypto's BLAKE2 hashers save their state
// but have no Clone; BLAKE3's is hashlanes' own (blake3tree.Hasher).

// blake2Hasher is golang.org/x/crypto's BLAKE2b-512 or BLAKE2s-256 hasher,
// whose state format it keeps (the library's own, "b2b" or "b2s").
type blake2Hasher struct {
	hash.Hash
	alg Algorithm
}

func newBLAKE2(a Algorithm) hash.Hash { return &blake2Hasher{reference.ID(a).New(), a} }

func (h *blake2Hasher) MarshalBinary() ([]byte, error) {
	return h.Hash.(encoding.BinaryMarshaler).MarshalBinary()
}

func (h *blake2Hasher) AppendBinary(b []byte) ([]byte, error) {
	s, err := h.MarshalBinary()
	return append(b, s...), err
}

// UnmarshalBinary restores a state saved by MarshalBinary or by the
// library's hasher of the same algorithm and digest size.
func (h *blake2Hasher) UnmarshalBinary(b []byte) error {
	// The library checks the identifier and the length, but takes the
	// digest size and the block offset as they come: a BLAKE2b-256 state
	// would make this a 32-byte hash, and an offset past the block would
	// make the next Write panic.
	next := reference.ID(h.alg).New()
	if err := next.(encoding.BinaryUnmarshaler).UnmarshalBinary(b); err != nil {
		return stateError(h.alg, err)
	}
	if next.Size() != h.alg.Size() || int(b[len(b)-1]) > h.alg.BlockSize() {
		return stateError(h.alg, errStateFields)
	}
	h.Hash = next
	return nil
}

func (h *blake2Hasher) Clone() (hash.Cloner, error) {
	s, err := h.MarshalBinary()
	if err != nil {
		return nil, err
	}
	c := newBLAKE2(h.alg).(*blake2Hasher)
	if err := c.UnmarshalBinary(s); err != nil {
		return nil, err
	}
	return c, nil
}

// blake3Hasher is BLAKE3's hasher of 256-bit digests on hashlanes' kernels
// (blake3tree.Hasher: a chunk group at a time). Its state is plain data,
// so a copy is a clone.
type blake3Hasher struct{ h blake3tree.Hasher }

func newBLAKE3() hash.Hash { return &blake3Hasher{*blake3tree.NewHasher(blake3tree.Hash())} }

func (h *blake3Hasher) Write(p []byte) (int, error) { return h.h.Write(p) }
func (h *blake3Hasher) Sum(b []byte) []byte         { return h.h.Sum(b, 32) }
func (h *blake3Hasher) Reset()                      { h.h.Reset() }
func (h *blake3Hasher) Size() int                   { return 32 }
func (h *blake3Hasher) BlockSize() int              { return 64 }

// blake3Magic starts a saved BLAKE3 state: the format's name and version.
// The format is the reference hasher's state, whatever holds it: states
// saved when lukechampine.com/blake3's hasher served BLAKE3 restore.
const blake3Magic = "hashlanes-b3\x01"

func (h *blake3Hasher) Clone() (hash.Cloner, error) {
	c := *h
	return &c, nil
}

// AppendBinary appends the state: the magic, the chunk count, the
// chaining values of the complete subtrees it implies, and the chunk being
// filled, all little-endian.
func (h *blake3Hasher) AppendBinary(b []byte) ([]byte, error) {
	counter, subtrees, last := h.h.State()
	b = append(b, blake3Magic...)
	b = binary.LittleEndian.AppendUint64(b, counter)
	for _, cv := range subtrees {
		for _, w := range cv {
			b = binary.LittleEndian.AppendUint32(b, w)
		}
	}
	b = binary.LittleEndian.AppendUint16(b, uint16(len(last)))
	return append(b, last...), nil
}

func (h *blake3Hasher) MarshalBinary() ([]byte, error) {
	return h.AppendBinary(make([]byte, 0, len(blake3Magic)+8+64*32+2+1024))
}

// UnmarshalBinary restores a state saved by MarshalBinary.
func (h *blake3Hasher) UnmarshalBinary(b []byte) error {
	if len(b) < len(blake3Magic) || string(b[:len(blake3Magic)]) != blake3Magic {
		return stateError(BLAKE3, kernel.ErrStateID)
	}
	b = b[len(blake3Magic):]
	if len(b) < 8 {
		return stateError(BLAKE3, kernel.ErrStateSize)
	}
	counter := binary.LittleEndian.Uint64(b)
	b = b[8:]
	n := bits.OnesCount64(counter)
	if len(b) < n*32+2 {
		return stateError(BLAKE3, kernel.ErrStateSize)
	}
	subtrees := make([][8]uint32, n)
	for i := range subtrees {
		for j := range subtrees[i] {
			subtrees[i][j] = binary.LittleEndian.Uint32(b)
			b = b[4:]
		}
	}
	last := int(binary.LittleEndian.Uint16(b))
	b = b[2:]
	if last > 1024 {
		return stateError(BLAKE3, errStateFields)
	}
	if len(b) != last {
		return stateError(BLAKE3, kernel.ErrStateSize)
	}
	if err := h.h.SetState(counter, subtrees, b); err != nil {
		return stateError(BLAKE3, errStateFields)
	}
	return nil
}

var (
	errStateFields = errors.New("invalid hash state: not one this algorithm's hasher can be in")
)

// stateError is err as the other algorithms' hashers word it: prefixed with
// the module and the algorithm, not the library's package.
func stateError(a Algorithm, err error) error {
	msg := err.Error()
	for _, s := range []error{kernel.ErrStateID, kernel.ErrStateSize} {
		if strings.HasSuffix(msg, s.Error()) {
			msg = s.Error()
		}
	}
	return errors.New("hashlanes: " + a.String() + ": " + msg)
}
