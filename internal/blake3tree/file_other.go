//go:build !unix

package blake3tree

import "context"

// SumFile is SumReaderAt of the file f (of size bytes).
func SumFile(ctx context.Context, f File, size int64, m Mode, outLen, parts int) ([]byte, error) {
	return SumReaderAt(ctx, f, size, m, outLen, parts)
}
