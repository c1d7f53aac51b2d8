//go:build !unix

package main

import (
	"context"
	"os"
	"os/signal"
)

type fileID struct{}

func idOf(string) (fileID, bool) { return fileID{}, false }

func interruptible() (context.Context, func()) {
	return signal.NotifyContext(context.Background(), os.Interrupt)
}

func dieBySignal() int { return 130 }
