package main

import (
	"bytes"
	"fmt"
	"os"
	"os/exec"
	"path/filepath"
	"strings"
	"testing"
)

// b3sumCases are command lines run by the BLAKE3 team's b3sum and by the
// drop-in, in a tree of their own (files a, big, large of 3 MiB, b\ack,
// and checkfiles), with a.key on standard input where a case reads it.
var b3sumCases = []string{
	"a big", "nope a", "--no-names a", "-l 8 a", "-l 64 a", "-l 0 a", "-l x a",
	"--length=4 a", "-l4 a", "a -l 4", "-- -l", "--raw a big", "--raw -l 7 a", `b\ack`,
	"large", "--no-mmap large", "-l 100 large", "--derive-key ctx large", "--num-threads 1 large a",
	"-c good.b3", "-c mix.b3", "-c --quiet mix.b3", "-c bad.b3", "-c nofile", "-c escaped.b3",
	"--quiet a", "--derive-key ctx a", "--derive-key x -c good.b3", "--raw -c good.b3",
	"--no-names -c good.b3", "-cl 4 good.b3", "--keyed a large", "--keyed -c good.b3",
	"--keyed --derive-key x a", "--bogus", "-x", "--num-threads x a", "-", "a - a",
}

func b3sumFixture(t *testing.T) string {
	dir := t.TempDir()
	large := bytes.Repeat([]byte("hashlanes b3sum "), 3<<16)
	files := map[string]string{
		"a": "abc", "big": strings.Repeat("x", 5000), "large": string(large), `b\ack`: "y",
		"a.key":   "whats the Elvish word for friend",
		"good.b3": "6437b3ac38465133ffb63b75273a8db548c558465d79db03fd359c6cd5bd9d85  a\n",
		"mix.b3": "6437b3ac38465133ffb63b75273a8db548c558465d79db03fd359c6cd5bd9d85  a\n" +
			strings.Repeat("0", 64) + "  big\n" + strings.Repeat("0", 64) + "  nope\n" + "zz\n" +
			"6437B3ac38465133ffb63b75273a8db548c558465d79db03fd359c6cd5bd9d85  a\n" +
			"6437b3ac38465133ffb63b75273a8db548c558465d79db03fd359c6cd5bd9d85 a\n\n" +
			"6437b3ac38465133ffb63b75273a8db548c558465d79db03fd359c6cd5bd9d85  a\r\n",
		"bad.b3":     "zz\n",
		"escaped.b3": `\c9fb2da71aec7278076c7aabdbb4797cfe0341ee3efbe54fd9e5b86d8ab74c85  b\\ack` + "\n" + `\` + strings.Repeat("0", 64) + `  b\q` + "\n",
	}
	for name, data := range files {
		if err := os.WriteFile(filepath.Join(dir, name), []byte(data), 0o644); err != nil {
			t.Fatal(err)
		}
	}
	return dir
}

// TestAgainstB3sum runs every case with b3sum (where it is on PATH) and
// with the drop-in and wants the same bytes and exit status.
func TestAgainstB3sum(t *testing.T) {
	if gnuTools["b3sum"] == "" {
		t.Skip("no b3sum on PATH")
	}
	dir := b3sumFixture(t)
	for _, line := range b3sumCases {
		t.Run(line, func(t *testing.T) {
			want, got := b3sumOutcome(t, dir, gnuTools["b3sum"], line), b3sumOutcome(t, dir, "", line)
			if !bytes.Equal(got.stdout, want.stdout) || !bytes.Equal(got.stderr, want.stderr) || got.exit != want.exit {
				t.Errorf("got %q %q %d\nwant %q %q %d", got.stdout, got.stderr, got.exit, want.stdout, want.stderr, want.exit)
			}
		})
	}
}

// b3sumOutcome runs a case with the named b3sum (ours when gnu is "").
func b3sumOutcome(t *testing.T, dir, gnu, line string) outcome {
	args := append([]string{"b3sum"}, strings.Fields(line)...)
	stdin := "a"
	if strings.Contains(line, "--keyed") {
		stdin = "a.key"
	}
	if gnu == "" {
		return runOurs(t, dir, caseLine{args: args, stdin: stdin})
	}
	cmd := exec.Command(gnu, args[1:]...)
	cmd.Dir = dir
	in, err := os.Open(filepath.Join(dir, stdin))
	if err != nil {
		t.Fatal(err)
	}
	defer in.Close()
	cmd.Stdin = in
	var out, errOut bytes.Buffer
	cmd.Stdout, cmd.Stderr = &out, &errOut
	exit := 0
	if err := cmd.Run(); err != nil {
		ee, ok := err.(*exec.ExitError)
		if !ok {
			t.Fatal(err)
		}
		exit = ee.ExitCode()
	}
	return outcome{out.Bytes(), errOut.Bytes(), exit}
}

// TestB3sumGoldens replays b3sum 1.2.0's recorded output of every case
// (testdata/b3sum-golden.txt) for machines without b3sum; with -update
// and b3sum on PATH it records them again.
func TestB3sumGoldens(t *testing.T) {
	dir := b3sumFixture(t)
	const file = "testdata/b3sum-golden.txt"
	if *update {
		if gnuTools["b3sum"] == "" {
			t.Skip("no b3sum on PATH to record from")
		}
		var b strings.Builder
		b.WriteString("# b3sum 1.2.0's output of b3sumCases (b3sum_test.go), recorded by\n# go test -run TestB3sumGoldens -update. Do not edit.\n")
		for _, line := range b3sumCases {
			o := b3sumOutcome(t, dir, gnuTools["b3sum"], line)
			fmt.Fprintf(&b, "== %s\nexit %d\n-- stdout\n%s-- stderr\n%s", line, o.exit, quoteLines(o.stdout), quoteLines(o.stderr))
		}
		if err := os.WriteFile(file, []byte(b.String()), 0o644); err != nil {
			t.Fatal(err)
		}
	}
	data, err := os.ReadFile(file)
	if err != nil {
		t.Fatal(err)
	}
	cases := strings.Split(string(data), "== ")[1:]
	if len(cases) != len(b3sumCases) {
		t.Fatalf("%d recorded cases, %d in b3sumCases: record them again", len(cases), len(b3sumCases))
	}
	for _, c := range cases {
		head, rest, _ := strings.Cut(c, "\n")
		exitLine, rest, _ := strings.Cut(rest, "\n")
		outPart, errPart, _ := strings.Cut(strings.TrimPrefix(rest, "-- stdout\n"), "-- stderr\n")
		wantOut, err1 := unquoteLines(outPart)
		wantErr, err2 := unquoteLines(errPart)
		if err1 != nil || err2 != nil {
			t.Fatalf("%s: %v %v", head, err1, err2)
		}
		t.Run(head, func(t *testing.T) {
			got := b3sumOutcome(t, dir, "", head)
			if !bytes.Equal(got.stdout, wantOut) || !bytes.Equal(got.stderr, wantErr) || fmt.Sprintf("exit %d", got.exit) != exitLine {
				t.Errorf("got %q %q %d\nwant %q %q %s", got.stdout, got.stderr, got.exit, wantOut, wantErr, exitLine)
			}
		})
	}
}

// TestB3sumLengths compares the drop-in with b3sum (where it is on PATH)
// on files of every length class around blocks, chunks, kernel calls of
// 16 chunks, leaves, the tree's first split (1 MiB) and mapped windows,
// mapped and read, with a long output.
func TestB3sumLengths(t *testing.T) {
	if gnuTools["b3sum"] == "" {
		t.Skip("no b3sum on PATH")
	}
	dir := t.TempDir()
	if err := os.WriteFile(filepath.Join(dir, "a"), nil, 0o644); err != nil { // standard input
		t.Fatal(err)
	}
	var names []string
	for _, n := range []int{0, 1, 63, 64, 65, 1023, 1024, 1025, 16383, 16384, 16385, 262143, 262144, 262145,
		1<<20 - 1, 1 << 20, 1<<20 + 1, 3*262144 + 5, 16<<20 + 1024*7 + 3} {
		p := make([]byte, n)
		for i := range p {
			p[i] = byte(i*31 + i>>11)
		}
		name := fmt.Sprintf("f%d", n)
		if err := os.WriteFile(filepath.Join(dir, name), p, 0o644); err != nil {
			t.Fatal(err)
		}
		names = append(names, name)
	}
	for _, opts := range []string{"", "--no-mmap", "-l 100", "--derive-key ctx"} {
		line := strings.TrimSpace(opts + " " + strings.Join(names, " "))
		want, got := b3sumOutcome(t, dir, gnuTools["b3sum"], line), b3sumOutcome(t, dir, "", line)
		if !bytes.Equal(got.stdout, want.stdout) || !bytes.Equal(got.stderr, want.stderr) || got.exit != want.exit {
			t.Errorf("%s:\ngot  %q %q %d\nwant %q %q %d", opts, got.stdout, got.stderr, got.exit, want.stdout, want.stderr, want.exit)
		}
	}
}
