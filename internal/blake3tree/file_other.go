//go:build !unix

package blake3tree

import (
	"context"
	"os"
)

// SumFile is SumReaderAt of the file f (of size bytes).
func SumFile(ctx context.Context, f *os.File, size int64, m Mode, outLen, parts int) ([]byte, error) {
	return SumReaderAt(ctx, f, size, m, outLen, parts)
}
