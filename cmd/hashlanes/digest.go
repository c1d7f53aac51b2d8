package main

import (
	"fmt"
	"io"
	"strings"

	"github.com/hashlanes/hashlanes/cmd/hashlanes/internal/filesum"
	"github.com/hashlanes/hashlanes/cmd/hashlanes/internal/gnu"
	"github.com/hashlanes/hashlanes/cmd/hashlanes/internal/interrupt"
	"github.com/hashlanes/hashlanes/cmd/hashlanes/internal/sumfile"
)

// command is one run of the checksum tool: its settings, its input and
// output, and what came of it.
type command struct {
	*gnu.Settings
	stdin  io.Reader
	out    *sumfile.Writer
	stderr io.Writer
	job    *filesum.Job // how files are hashed, and the run's context

	failed      bool
	wantSizes   bool   // the progress line needs the sizes of walked files
	clearStatus func() // erases the progress line, if one is drawn
}

const exitFailure = 1

// usageError reports a bad command line the GNU way.
func (c *command) usageError(msg string) int {
	c.errorf("%s", msg)
	fmt.Fprintf(c.stderr, "Try '%s --help' for more information.\n", c.helpCommand())
	return exitFailure
}

// helpCommand is the command line that prints this command's help.
func (c *command) helpCommand() string {
	if c.DropIn {
		return c.Prog
	}
	return c.Prog + " " + strings.TrimPrefix(c.Name, "hashlanes ")
}

// errorf prints "prog: message" on stderr, after what stdout has so far.
func (c *command) errorf(format string, args ...any) {
	c.out.Flush()
	if c.clearStatus != nil {
		c.clearStatus() // the progress line is on stderr's terminal
	}
	fmt.Fprintf(c.stderr, "%s: %s\n", c.Prog, fmt.Sprintf(format, args...))
}

func (c *command) fileError(name string, err error) {
	c.errorf("%s: %s", gnu.Quote(name), gnu.Strerror(err))
	c.failed = true
}

// runDigest runs the checksum tool with args (after the program or
// subcommand name).
func runDigest(c *command, args []string) int {
	p := c.Parse(args)
	switch {
	case p.Help:
		c.out.Write([]byte(c.Help()))
		c.finish()
		return 0
	case p.Version:
		fmt.Fprintf(c.out, "%s (hashlanes) %s\n", c.Name, buildVersion())
		return c.finish()
	case p.Problem != "" && p.Try:
		return c.usageError(p.Problem)
	case p.Problem != "":
		c.errorf("%s", p.Problem)
		return exitFailure
	}
	operands := p.Operands

	ctx, stop := interrupt.Context()
	defer stop()
	c.job = &filesum.Job{Ctx: ctx, Stdin: c.stdin, Jobs: c.Jobs}
	switch {
	case c.Check && c.AuditDir != "":
		c.runAudit(operands)
	case c.Check:
		c.runCheck(operands)
	default:
		c.runSum(operands)
	}
	if ctx.Err() != nil {
		c.out.Flush()
		return interrupt.Exit()
	}
	return c.finish()
}

// finish flushes the output and returns the exit status; a failed write
// is an error, as in GNU's close_stdout.
func (c *command) finish() int {
	if err := c.out.Flush(); err != nil {
		fmt.Fprintf(c.stderr, "%s: write error: %s\n", c.Prog, gnu.Strerror(err))
		return exitFailure
	}
	if c.failed {
		return exitFailure
	}
	return 0
}
