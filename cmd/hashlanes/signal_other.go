//go:build !unix

package main

import (
	"context"
	"os"
	"os/signal"
)

func interruptible() (context.Context, func()) {
	return signal.NotifyContext(context.Background(), os.Interrupt)
}

func dieBySignal() int { return 130 }
