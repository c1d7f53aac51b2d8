//go:build !unix

package interrupt

import (
	"context"
	"os"
	"os/signal"
)

func Context() (context.Context, func()) {
	return signal.NotifyContext(context.Background(), os.Interrupt)
}

func Exit() int { return 130 }
