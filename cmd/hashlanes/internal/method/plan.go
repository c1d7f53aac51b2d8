package method

import (
	"hash"
	"strings"

	"github.com/hashlanes/hashlanes"
)

// Key names a list of methods, for a map of plans.
func Key(ms []*Method) string {
	var b strings.Builder
	for _, m := range ms {
		b.WriteString(m.Name)
		b.WriteByte(' ')
	}
	return b.String()
}

// Plan is how SumStreams hashes a stream with methods: the library's
// algorithms in lanes, the others as hashers after them.
type Plan struct {
	Algs  []hashlanes.Algorithm
	other []*Method
	order []int // order[k]: where method k's digest is in StreamSum.Sums
}

func PlanFor(ms []*Method) *Plan {
	p := &Plan{order: make([]int, len(ms))}
	for k, m := range ms {
		if m.Alg != 0 {
			p.order[k] = len(p.Algs)
			p.Algs = append(p.Algs, m.Alg)
		}
	}
	for k, m := range ms {
		if m.Alg == 0 {
			p.order[k] = len(p.Algs) + len(p.other)
			p.other = append(p.other, m)
		}
	}
	return p
}

// Hashes makes fresh hashers of the methods that are not the library's.
func (p *Plan) Hashes() []hash.Hash {
	if len(p.other) == 0 {
		return nil
	}
	hs := make([]hash.Hash, len(p.other))
	for i, m := range p.other {
		hs[i] = m.NewHash()
	}
	return hs
}

// Sums returns a stream's digests in the methods' order.
func (p *Plan) Sums(s hashlanes.StreamSum) [][]byte {
	if s.Sums == nil {
		return nil
	}
	out := make([][]byte, len(p.order))
	for k, i := range p.order {
		out[k] = s.Sums[i]
	}
	return out
}
