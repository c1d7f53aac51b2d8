// Package engine schedules streams onto kernel lanes: it pads and finishes
// messages, packs the whole blocks of many concurrently written streams into
// one multi-lane kernel call, and runs a lone stream on the single-stream
// kernel without waiting for company.
//
// The files divide the work:
//   - hasher.go: one stream, the hash.Hash a user writes.
//   - front.go: a new stream on a kernel cheaper than the library's
//     hasher, until it writes enough for the lanes.
//   - server.go: the mechanism of the combine: the queue, the lock, the
//     lanes, the rounds, the yields and the waits.
//   - policy.go: its decisions, on the server's state, that neither lock,
//     park, wake nor count statistics: when to yield or wait for company,
//     which kernel a round runs and for how long, when to hand streams to
//     another P. Which kernel moves the most for a count of ready streams
//     is the tuning's (internal/tuning's Chooser), by rates measured on
//     the machine; the engine knows no rates of its own.
//   - summany.go: many whole messages at once (SumMany).
//   - spec.go: the kernels a server runs and the padding of a message.
package engine
