package main

import (
	"bytes"
	"encoding/hex"
	"os"
	"path/filepath"
	"strings"
	"testing"

	"github.com/hashlanes/hashlanes/cmd/hashlanes/internal/filesum"
)

// TestCoreutils910 pins what b2sum and cksum do in coreutils 9.10 where
// Debian 12's 9.1 (which TestAgainstGNU runs) differs or lacks the
// option: --base64 (9.2), --raw (9.4), -a sha2/sha3 with -l (9.7),
// crc32b, -b and -t, --tag with -c setting binary mode, base64 and SHA2-N
// and SHA3-N lines in -c, and the messages that name the newer choices.
// The expected output follows coreutils 9.10's digest.c; the digests are
// the standard ones of "abc".
func TestCoreutils910(t *testing.T) {
	dir := t.TempDir()
	lists := map[string]string{
		"a":        "abc",
		"big":      "x",
		"b64.sums": "SHA256 (a) = ungWv48Bz+pBQUDeXa4iI7ADYaOWF3qctBD/YfIAFa0=\nSHA512 (a) = 3a81oZNherrMQXNJriBBMRLm+k6JqX6iCp7u5ktV05ohkpkqJ0/BqDa6PCOj/uu9RU1EI2Q86A4qmslPpUyknw==\nSHA256 (a) = ungWv48Bz+pBQUDeXa4iI7ADYaOWF3qctBD/YfIAFa0\n",
		"sha2.sums": "SHA2-256 (a) = ba7816bf8f01cfea414140de5dae2223b00361a396177a9cb410ff61f20015ad\n" +
			"SHA3-256 (a) = 3a985da74fe225b2045c172d6bd390bd855f086e3e9d525b46bfe24511431532\n" +
			"SHA3 (a) = b751850b1a57168a5693cd924b6b096e08f621827444f70d884f5d0240d2712e10e116e9192af3c91a7ec57647e3934057340b4cf408d5a56592f8274eec53f0\n" +
			"SHA3-100 (a) = 3a985da74fe225b2045c172d6bd390bd855f086e3e9d525b46bfe24511431532\n",
		"sha384.untagged": "cb00753f45a35e8bb5a03d699ac65007272c32ab0eded1631a8b605a43ff5bed8086072ba1e7cc2358baeca134c825a7  a\n" +
			"ba7816bf8f01cfea414140de5dae2223b00361a396177a9cb410ff61f20015ad  a\n",
		"crc.sums": "CRC32B (a) = 891568578\n",
	}
	for name, data := range lists {
		if err := os.WriteFile(filepath.Join(dir, name), []byte(data), 0o644); err != nil {
			t.Fatal(err)
		}
	}
	try := "Try 'cksum --help' for more information.\n"
	unhex := func(s string) string { b, _ := hex.DecodeString(s); return string(b) }
	for _, c := range []struct {
		args           string
		stdout, stderr string
		exit           int
	}{
		{"cksum --base64 -a sha256 a", "SHA256 (a) = ungWv48Bz+pBQUDeXa4iI7ADYaOWF3qctBD/YfIAFa0=\n", "", 0},
		{"cksum --base64 -a sha256 --untagged a", "ungWv48Bz+pBQUDeXa4iI7ADYaOWF3qctBD/YfIAFa0=  a\n", "", 0},
		{"cksum -a sha2 -l 256 a", "SHA256 (a) = ba7816bf8f01cfea414140de5dae2223b00361a396177a9cb410ff61f20015ad\n", "", 0},
		{"cksum -a sha2 -l 384 --untagged a", "cb00753f45a35e8bb5a03d699ac65007272c32ab0eded1631a8b605a43ff5bed8086072ba1e7cc2358baeca134c825a7  a\n", "", 0},
		{"cksum -a sha3 -l 256 a", "SHA3-256 (a) = 3a985da74fe225b2045c172d6bd390bd855f086e3e9d525b46bfe24511431532\n", "", 0},
		{"cksum -a sha2 a", "", "cksum: --algorithm=sha2 requires specifying --length 224, 256, 384, or 512\n", 1},
		{"cksum -a sha3 -l 100 a", "", "cksum: invalid length: \u2018100\u2019\ncksum: digest length for \u2018SHA3\u2019 must be 224, 256, 384, or 512\n", 1},
		{"cksum -a crc32b a", "891568578 3 a\n", "", 0},
		{"cksum --raw a", unhex("48aa78a2"), "", 0},
		{"cksum --raw -a bsd a", unhex("40ac"), "", 0},
		{"cksum --raw -a sha256 a", unhex("ba7816bf8f01cfea414140de5dae2223b00361a396177a9cb410ff61f20015ad"), "", 0},
		{"cksum --raw a big", "", "cksum: the --raw option is not supported with multiple files\n", 1},
		{"cksum --base64 --raw a", "", "cksum: --base64 and --raw are mutually exclusive\n" + try, 1},
		{"cksum -a md5 -b a", "MD5 (a) = 900150983cd24fb0d6963f7d28e17f72\n", "", 0},
		{"cksum -a md5 --untagged -b a", "900150983cd24fb0d6963f7d28e17f72 *a\n", "", 0},
		{"cksum -a md5 --tag --untagged a", "900150983cd24fb0d6963f7d28e17f72  a\n", "", 0},
		{"cksum -t a", "", "cksum: --text mode is only supported with --untagged\n" + try, 1},
		{"cksum -l 256 a", "", "cksum: --length is only supported with --algorithm blake2b, sha2, or sha3\n", 1},
		{"cksum -a crc -c crc.sums", "", "cksum: --check is not supported with --algorithm={bsd,sysv,crc,crc32b}\n", 1},
		{"cksum -c crc.sums", "", "cksum: crc.sums: no properly formatted checksum lines found\n", 1},
		{"cksum --tag -c b64.sums", "", "cksum: the --tag option is meaningless when verifying checksums\n" + try, 1},
		{"cksum --tag --untagged -c b64.sums", "a: OK\na: OK\n", "cksum: WARNING: 1 line is improperly formatted\n", 0},
		{"cksum -b -c b64.sums", "", "cksum: the --binary and --text options are meaningless when verifying checksums\n" + try, 1},
		{"cksum --text --tag -a md5 a", "", "cksum: --text mode is only supported with --untagged\n" + try, 1},
		{"cksum --tag --text -a md5 a", "", "cksum: --text mode is only supported with --untagged\n" + try, 1},
		{"cksum --text --untagged -a md5 a", "900150983cd24fb0d6963f7d28e17f72  a\n", "", 0},
		{"cksum --binary --tag --untagged -a md5 a", "900150983cd24fb0d6963f7d28e17f72 *a\n", "", 0},
		{"cksum --binary --untagged --tag --untagged -a md5 a", "900150983cd24fb0d6963f7d28e17f72 *a\n", "", 0},
		{"cksum --tag --untagged -a md5 a", "900150983cd24fb0d6963f7d28e17f72  a\n", "", 0},
		// --base64 leaves the legacy checksums as they are (coreutils'
		// tests/cksum/cksum-base64.pl: "4294967295 0 f" for -a crc).
		{"cksum --base64 big", "12738659 1 big\n", "", 0},
		{"cksum --base64 -a sysv big", "120 1 big\n", "", 0},
		{"cksum -c -w b64.sums", "a: OK\na: OK\n", "cksum: b64.sums: 3: improperly formatted SHA256 checksum line\ncksum: WARNING: 1 line is improperly formatted\n", 0},
		{"cksum -c -w sha2.sums", "a: OK\na: OK\na: OK\n", "cksum: sha2.sums: 4: improperly formatted SHA3 checksum line\ncksum: WARNING: 1 line is improperly formatted\n", 0},
		{"cksum -a sha2 -c sha384.untagged", "a: OK\na: OK\n", "", 0},
		{"cksum -a sha2 -l 384 -c sha384.untagged", "a: OK\na: OK\n", "", 0},
		{"cksum -a blake2b -l 99999999999999999999999 a", "", "cksum: invalid length: \u201899999999999999999999999\u2019\ncksum: maximum digest length for \u2018BLAKE2b\u2019 is 512 bits\n", 1},
		{"b2sum -l 99999999999999999999999 a", "", "b2sum: invalid length: \u201899999999999999999999999\u2019\nb2sum: maximum digest length for \u2018BLAKE2b\u2019 is 512 bits\n", 1},
		{"cksum -a foo a", "", "cksum: invalid argument \u2018foo\u2019 for \u2018--algorithm\u2019\nValid arguments are:\n" +
			"  - \u2018bsd\u2019\n  - \u2018sysv\u2019\n  - \u2018crc\u2019\n  - \u2018crc32b\u2019\n  - \u2018md5\u2019\n  - \u2018sha1\u2019\n" +
			"  - \u2018sha224\u2019\n  - \u2018sha256\u2019\n  - \u2018sha384\u2019\n  - \u2018sha512\u2019\n  - \u2018sha2\u2019\n" +
			"  - \u2018sha3\u2019\n  - \u2018blake2b\u2019\n  - \u2018sm3\u2019\n" + try, 1},
		{"cksum --b a", "", "cksum: option '--b' is ambiguous; possibilities: '--base64' '--binary'\n" + try, 1},
	} {
		t.Run(c.args, func(t *testing.T) {
			args := strings.Fields(c.args)
			o := runOurs(t, dir, caseLine{args: args})
			if string(o.stdout) != c.stdout || string(o.stderr) != c.stderr || o.exit != c.exit {
				t.Errorf("got %q, %q, exit %d\nwant %q, %q, exit %d", o.stdout, o.stderr, o.exit, c.stdout, c.stderr, c.exit)
			}
		})
	}
	// --debug names what hashed: the CRC's hardware, the library's kernels.
	o := runOurs(t, dir, caseLine{args: []string{"cksum", "--debug", "a"}})
	if !bytes.HasPrefix(o.stderr, []byte("cksum: using ")) || !bytes.HasSuffix(o.stderr, []byte(" hardware support\n")) {
		t.Errorf("cksum --debug: %q", o.stderr)
	}
	o = runOurs(t, dir, caseLine{args: []string{"cksum", "--debug", "-a", "sha256", "a"}})
	if !bytes.HasPrefix(o.stderr, []byte("cksum: using hashlanes sha256: ")) {
		t.Errorf("cksum --debug -a sha256: %q", o.stderr)
	}
}

// TestSplitLargeFiles: cksum's CRC of files in ranges, and hashlanes sum
// -a blake3 of files through the chunk tree, on every core, are what they
// are hashed as streams, errors and order included.
func TestSplitLargeFiles(t *testing.T) {
	dir := t.TempDir()
	if err := makeFixture(dir); err != nil {
		t.Fatal(err)
	}
	for _, args := range [][]string{
		{"cksum", "a", "big", "nope", "empty", "d", "-", "big"},
		{"hashlanes", "sum", "-a", "blake3", "a", "big", "nope", "empty", "d", "-", "big"},
	} {
		c := caseLine{args: args, stdin: "a"}
		defer func(m int64) { filesum.SplitMinTest = m }(filesum.SplitMinTest)
		filesum.SplitMinTest = 1 << 40
		want := runOurs(t, dir, c)
		filesum.SplitMinTest = 0
		got := runOurs(t, dir, c)
		if !bytes.Equal(got.stdout, want.stdout) || !bytes.Equal(got.stderr, want.stderr) || got.exit != want.exit {
			t.Errorf("%v split: %q %q %d\nwhole: %q %q %d", args, got.stdout, got.stderr, got.exit, want.stdout, want.stderr, want.exit)
		}
		if !bytes.Contains(want.stdout, []byte("big")) {
			t.Errorf("%v: no result for big: %q", args, want.stdout)
		}
	}
}
