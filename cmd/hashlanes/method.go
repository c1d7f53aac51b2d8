package main

import (
	"hash"
	"io"

	"github.com/hashlanes/hashlanes"
	"github.com/hashlanes/hashlanes/cmd/hashlanes/internal/method"
)

// sumStreams is hashlanes.SumStreams over methods: stream i is hashed with
// planOf(i)'s, and done gets its digests in their order.
func (c *command) sumStreams(n int, planOf func(i int) *method.Plan, open func(i int) (io.Reader, error), done func(i int, s hashlanes.StreamSum)) {
	opts := append(c.jobOptions(),
		hashlanes.WithStreamAlgorithms(func(i int) []hashlanes.Algorithm { return planOf(i).Algs }),
		hashlanes.WithStreamHashes(func(i int) []hash.Hash { return planOf(i).Hashes() }))
	hashlanes.SumStreams(c.ctx, nil, n, open, func(i int, s hashlanes.StreamSum) {
		s.Sums = planOf(i).Sums(s)
		done(i, s)
	}, opts...)
}
