//go:build unix

package interrupt

import (
	"context"
	"os"
	"os/signal"
	"syscall"
)

var caught = make(chan os.Signal, 1)

// Context returns a context cancelled by SIGINT or SIGTERM, so a run
// stops promptly and prints only whole lines before dying of the signal.
func Context() (context.Context, func()) {
	ctx, cancel := context.WithCancel(context.Background())
	signal.Notify(caught, os.Interrupt, syscall.SIGTERM)
	stop := make(chan struct{})
	go func() {
		select {
		case sig := <-caught:
			caught <- sig // for Exit
			cancel()
		case <-stop:
		}
	}()
	return ctx, func() { close(stop); cancel() }
}

// Exit ends the process by the signal that interrupted it, so the
// shell sees what it would have seen from GNU's tools (status 130 for ^C).
func Exit() int {
	sig := (<-caught).(syscall.Signal)
	signal.Reset(sig)
	syscall.Kill(os.Getpid(), sig)
	select {} // the signal ends the process
}
