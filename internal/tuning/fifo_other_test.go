//go:build !unix

package tuning

import "errors"

func mkfifo(string) error { return errors.New("no named pipes here") }
