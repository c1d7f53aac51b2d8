package tuning

// The margins and rhythms of the choice: how much more a kernel must move
// to take another's place, and how often rounds try, recheck and rebuild.
// The measurements behind each are in docs/engine.md ("The tuning's
// margins").

// waitMargin is how much more a kernel that leaves ready streams waiting
// must move than one that takes them all: the streams left out fall out
// of step with the others, and every later round ends where the first of
// its lanes runs out.
const waitMargin = 1.03

// loneMargin is how much more a multi-lane kernel must move with one lane
// busy than the single-stream kernel to take a lone stream: its rate does
// not show the per-call cost of moving the state into lanes and out, nor
// the other lanes' 512-bit work a core may slow its clock for.
const loneMargin = 1.10

// combineMargin is how much more a multi-lane kernel must move with two or
// more ready streams in its lanes than the single-stream kernel hashing
// them one after another: its rate does not show what a combined round
// pays besides the kernel (the lock, the states moved into lanes and out,
// the yields that gather the streams), so a kernel that only ties the
// single stream's rate loses to it in the engine (docs/engine.md,
// "Company that does not pay").
const combineMargin = 1.05

// priorMargin is how much more a kernel must move, by a measurement or a
// wisdom file, than the one the prior chose for a ready count to take its
// place: rates within it are a tie, and a tie keeps the prior's choice, so
// that the choice does not flip with a measurement's noise from one
// process to the next.
const priorMargin = 1.10

// keepMargin is the same for the rounds' refinement: how much more a
// kernel must move, by the estimates the timed rounds keep, than the one
// a ready count runs, to take its place. Rounds are timed between a
// server's system calls and move more than a measurement.
const keepMargin = 1.10

// exploreEvery is how often, in rounds of one ready count, a round tries
// the runner-up instead, so that an estimate that is wrong corrects
// itself (at first: the tries back off, see exploreDoubling); exploreRange is how far behind the leader a runner-up may be
// to be tried.
const (
	exploreEvery = 32
	exploreRange = 1.3
)

// exploreDoubling and exploreMaxDoublings shape the backoff of the tries
// (see Chooser.exploreInterval): the interval doubles after every
// exploreDoubling tries that left the choice as it was (one of them a
// try of the rates' own choice, baseEvery), up to exploreEvery <<
// exploreMaxDoublings rounds, 512.
const (
	exploreDoubling     = baseEvery
	exploreMaxDoublings = 4
)

// baseEvery is how often, in tries, the try is of the
// choice the rates alone make (the measurement's or the prior's), when the
// rounds have moved away from it, however far behind its estimate is:
// rounds timed in a spell of load can drop a kernel below a runner-up's
// range, and then neither a try nor a recheck would reach it again.
const baseEvery = 4

// tryRounds is how many rounds in a row a try of a kernel other than the
// choice runs. The engine times a round only right after one on the same
// kernel, with no yield or wait between: a 512-bit kernel's first call
// after other code can take several times its later calls' time (the core
// wakes its 512-bit units).
const tryRounds = 3

// After the refinement changes the choice for a ready count, the kernel
// it chose before is tried recheckTries times, every recheckEvery rounds,
// however far behind its estimate now is: it may have lost on a few
// rounds of a slow spell of the machine that the new choice, timed after
// it, did not see. Three fresh rounds are a majority of a scale's five.
const (
	recheckEvery = 4
	recheckTries = 3
)

// rebuildEvery bounds the observations between two rebuilds of the table
// for a drift of the estimates: a rebuild weighs every kernel for every
// ready count, a round lasts far longer. A scale moved by the keep margin
// rebuilds at once.
const rebuildEvery = 64
