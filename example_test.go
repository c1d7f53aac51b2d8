package hashlanes_test

import (
	"bytes"
	"context"
	"encoding/hex"
	"fmt"
	"io"
	"os"
	"path/filepath"
	"strings"
	"sync"

	"github.com/hashlanes/hashlanes"
)

// Each goroutine writes its own hasher, as an upload handler computing an
// ETag would; hashers written at the same time share the SIMD lanes of
// one core, and a hasher written alone runs at single-stream speed.
func ExampleNew() {
	bodies := []string{"first object\n", "second object\n", strings.Repeat("a large object ", 100000)}
	etags := make([]string, len(bodies))
	var wg sync.WaitGroup
	for i, body := range bodies {
		wg.Go(func() {
			h := hashlanes.New(hashlanes.MD5)
			io.Copy(h, strings.NewReader(body))
			etags[i] = hex.EncodeToString(h.Sum(nil))
		})
	}
	wg.Wait()
	for _, etag := range etags {
		fmt.Println(etag)
	}
	// Output:
	// 7f0fa33160dea29cfe3c027a796a86cc
	// 74367e2bd919f04c7c585df58721f59c
	// 0e6f0661a71e37daad604312eac6a3bc
}

// One message, as crypto/sha256.Sum256 would hash it.
func ExampleSum() {
	fmt.Printf("%x\n", hashlanes.Sum(hashlanes.SHA256, []byte("hello world\n")))
	// Output:
	// a948904f2f0f479b8f8197694b30184b0d2ed1c1cd2a1ec0fb85d299a192a447
}

// Digests appended to a buffer that is reused, allocating nothing: as a
// loop over records would compute them.
func ExampleAppendSum() {
	buf := make([]byte, 0, hashlanes.SHA256.Size())
	for _, record := range []string{"record one", "record two"} {
		buf = hashlanes.AppendSum(hashlanes.SHA256, buf[:0], []byte(record))
		fmt.Printf("%x\n", buf[:8])
	}
	// Output:
	// 49391b2fdd8dcb07
	// 075d5a6704516644
}

// Many small messages, one digest after another in the order given:
// a batch costs a fraction of hashing them one by one.
func ExampleSumMany() {
	keys := [][]byte{[]byte("user:1001"), []byte("user:1002"), []byte("user:1003")}
	sums := hashlanes.SumMany(hashlanes.SHA1, nil, keys)
	for i := range keys {
		fmt.Printf("%s %x\n", keys[i], sums[i*hashlanes.SHA1.Size():(i+1)*hashlanes.SHA1.Size()])
	}
	// Output:
	// user:1001 85b1a8c87c6a834fb093246f883ec72bf213531a
	// user:1002 4c9afe617919a4e98967f8ad4e2f612685a62477
	// user:1003 8b0c5fe408a189442a39f3b8a8dcd516572d533e
}

// Hex keys for many small messages, the same as encoding/hex over
// SumMany's digests, in about half the time for short messages.
func ExampleSumManyHex() {
	msgs := [][]byte{[]byte("/updates/zlib-1.3/"), []byte("/updates/curl-8.4/"), nil}
	keys := hashlanes.SumManyHex(hashlanes.MD5, nil, msgs)
	size := hex.EncodedLen(hashlanes.MD5.Size())
	for i := range msgs {
		fmt.Println(string(keys[i*size : (i+1)*size]))
	}
	// Output:
	// 98c39718d7ea47fbcd9f9fa20f6fcf1f
	// 439da4870a84d110fd862f06eda30a18
	// d41d8cd98f00b204e9800998ecf8427e
}

// Many readers (files, network bodies) hashed at once in lanes, each with
// two algorithms in one pass, read with a fixed buffer each, delivered in
// order whatever order they finish in.
func ExampleSumStreams() {
	docs := []string{"alpha\n", "beta\n", "gamma\n"}
	algs := []hashlanes.Algorithm{hashlanes.MD5, hashlanes.SHA256}
	err := hashlanes.SumStreams(context.Background(), algs, len(docs),
		func(i int) (io.Reader, error) { return strings.NewReader(docs[i]), nil },
		func(i int, s hashlanes.StreamSum) {
			if s.Err != nil {
				fmt.Println(s.Err)
				return
			}
			fmt.Printf("%x %x... %d bytes\n", s.Sums[0], s.Sums[1][:8], s.Size)
		})
	if err != nil {
		fmt.Println(err)
	}
	// Output:
	// 9f9f90dbe3e5ee1218c86b8839db1995 b6a98d9ce9a2d914... 6 bytes
	// f0cf2a92516045024a0c99147b28f05b f2c82decdd7181cf... 5 bytes
	// 303febb9068384eca46b5b6516843b35 ae9a6306a205417a... 6 bytes
}

// Readers already at hand (request bodies, decompressors), hashed to
// their ends side by side; the digests come back in the readers' order.
func ExampleSumReaders() {
	sums, err := hashlanes.SumReaders(hashlanes.SHA1,
		strings.NewReader("alpha\n"), strings.NewReader("beta\n"))
	if err != nil {
		fmt.Println(err)
		return
	}
	for _, sum := range sums {
		fmt.Printf("%x\n", sum)
	}
	// Output:
	// d046cd9b7ffb7661e449683313d41f6fc33e3130
	// 6c007a14875d53d9bf0ef5a6fc0257c817f0fb83
}

// A file of any size, read with bounded memory.
func ExampleSumFile() {
	name := filepath.Join(os.TempDir(), "hashlanes-example.txt")
	if err := os.WriteFile(name, []byte("hello world\n"), 0o644); err != nil {
		fmt.Println(err)
		return
	}
	defer os.Remove(name)
	sum, err := hashlanes.SumFile(hashlanes.SHA256, name)
	if err != nil {
		fmt.Println(err)
		return
	}
	fmt.Printf("%x\n", sum)
	// Output:
	// a948904f2f0f479b8f8197694b30184b0d2ed1c1cd2a1ec0fb85d299a192a447
}

// A Server of its own keeps one set of streams apart from the rest of the
// program, here capped at AVX2 and choosing its kernels by the prior
// table alone, never measured: the same digests on any path.
func ExampleNewServer() {
	srv := hashlanes.NewServer(hashlanes.SHA512, hashlanes.WithCPU(hashlanes.CPUAVX2), hashlanes.WithTuning("table"))
	h := srv.NewHash()
	h.Write([]byte("hello world\n"))
	fmt.Printf("%x\n", h.Sum(nil)[:16])
	fmt.Println(srv.Algorithm(), srv.Stats().MultiCalls)
	// Output:
	// db3974a97f2407b7cae1ae637c003068
	// sha512 0
}

// Where a server's kernel rates come from, and which kernel a round runs
// for each count of ready streams; Calibrate measures now what the
// engine would measure on its first choice. The output depends on the
// CPU.
func ExampleServer_Tuning() {
	srv := hashlanes.DefaultServer(hashlanes.SHA256)
	srv.Calibrate()
	t := srv.Tuning()
	fmt.Println("rates:", t.Origin)
	fmt.Println("kernels by streams ready:", t)
	var b bytes.Buffer
	for _, c := range t.Choices[:4] {
		fmt.Fprintf(&b, "%d streams: %s on %d lanes, %.0f MB/s\n", c.Streams, c.Kernel, c.Lanes, c.MBps)
	}
	fmt.Print(b.String())
}
