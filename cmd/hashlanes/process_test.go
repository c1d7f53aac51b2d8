//go:build unix

package main

import (
	"bufio"
	"bytes"
	"errors"
	"os"
	"os/exec"
	"path/filepath"
	"strconv"
	"strings"
	"syscall"
	"testing"
	"time"
)

// dropIn returns a command running this test binary as the drop-in name.
func dropIn(t *testing.T, name string, args ...string) *exec.Cmd {
	cmd := exec.Command(os.Args[0], args...)
	cmd.Env = append(os.Environ(), "HASHLANES_RUN_AS="+name, "LC_ALL=C.UTF-8")
	return cmd
}

// TestFIFOOperand: a FIFO is read like any file, in its place.
func TestFIFOOperand(t *testing.T) {
	dir := t.TempDir()
	fifo := filepath.Join(dir, "p")
	if err := syscall.Mkfifo(fifo, 0o644); err != nil {
		t.Skip("no FIFOs here:", err)
	}
	os.WriteFile(filepath.Join(dir, "a"), []byte("abc"), 0o644)
	cmd := dropIn(t, "md5sum", "a", "p", "a")
	cmd.Dir = dir
	go func() {
		f, err := os.OpenFile(fifo, os.O_WRONLY, 0)
		if err == nil {
			f.Write([]byte("abc"))
			f.Close()
		}
	}()
	out, err := cmd.Output()
	want := "900150983cd24fb0d6963f7d28e17f72  a\n900150983cd24fb0d6963f7d28e17f72  p\n900150983cd24fb0d6963f7d28e17f72  a\n"
	if err != nil || string(out) != want {
		t.Fatalf("%v: %q", err, out)
	}
}

// TestSIGPIPE: a reader that goes away stops the run, and what it read
// was whole lines.
func TestSIGPIPE(t *testing.T) {
	dir := t.TempDir()
	var names []string
	for i := range 3000 {
		name := filepath.Join(dir, strings.Repeat("n", i%50)+string(rune('a'+i%26))+strings.Repeat("x", i%7)+"_"+strconv.Itoa(i))
		os.WriteFile(name, []byte(name), 0o644)
		names = append(names, name)
	}
	cmd := dropIn(t, "sha256sum", names...)
	stdout, _ := cmd.StdoutPipe()
	if err := cmd.Start(); err != nil {
		t.Fatal(err)
	}
	line, err := bufio.NewReader(stdout).ReadString('\n')
	if err != nil || !strings.HasSuffix(line, "\n") || len(line) < 66 {
		t.Fatalf("first line %q, %v", line, err)
	}
	stdout.Close()
	done := make(chan error)
	go func() { done <- cmd.Wait() }()
	select {
	case err := <-done:
		var ee *exec.ExitError
		if !errors.As(err, &ee) {
			t.Fatalf("exit: %v, want death by SIGPIPE", err)
		}
		if ws := ee.Sys().(syscall.WaitStatus); !ws.Signaled() || ws.Signal() != syscall.SIGPIPE {
			t.Fatalf("exit: %v, want death by SIGPIPE", err)
		}
	case <-time.After(10 * time.Second):
		cmd.Process.Kill()
		t.Fatal("still running 10 s after its reader went away")
	}
}

// TestSIGINT: an interrupt stops a run promptly; it dies of the signal, as
// GNU's tools do, and its output is whole lines.
func TestSIGINT(t *testing.T) {
	dir := t.TempDir()
	os.WriteFile(filepath.Join(dir, "a"), []byte("abc"), 0o644)
	cmd := dropIn(t, "md5sum", "a", "/dev/zero", "a")
	var out bytes.Buffer
	cmd.Stdout = &out
	cmd.Dir = dir
	if err := cmd.Start(); err != nil {
		t.Fatal(err)
	}
	time.Sleep(300 * time.Millisecond)
	start := time.Now()
	cmd.Process.Signal(os.Interrupt)
	err := cmd.Wait()
	if d := time.Since(start); d > 2*time.Second {
		t.Errorf("took %v to stop", d)
	}
	var ee *exec.ExitError
	if !errors.As(err, &ee) || !ee.Sys().(syscall.WaitStatus).Signaled() || ee.Sys().(syscall.WaitStatus).Signal() != syscall.SIGINT {
		t.Errorf("exit: %v, want death by SIGINT", err)
	}
	if s := out.String(); s != "" && s != "900150983cd24fb0d6963f7d28e17f72  a\n" {
		t.Errorf("output %q", s)
	}
}

// TestUnreadableAgainstGNU: files and directories another user cannot
// read, through GNU's tool and the drop-in run as that user. Needs root to
// switch users; skipped otherwise.
func TestUnreadableAgainstGNU(t *testing.T) {
	gnuCoreutils(t)
	if os.Geteuid() != 0 {
		t.Skip("needs root to run as another user")
	}
	dir, err := os.MkdirTemp("", "hashlanes-unreadable")
	if err != nil {
		t.Fatal(err)
	}
	defer os.RemoveAll(dir)
	os.Chmod(dir, 0o755)
	exe := filepath.Join(dir, "hashlanes.test")
	data, err := os.ReadFile(os.Args[0])
	if err != nil {
		t.Fatal(err)
	}
	os.WriteFile(exe, data, 0o755)
	os.WriteFile(filepath.Join(dir, "a"), []byte("abc"), 0o644)
	os.WriteFile(filepath.Join(dir, "secret"), []byte("x"), 0o000)
	os.WriteFile(filepath.Join(dir, "sums"), []byte("900150983cd24fb0d6963f7d28e17f72  a\n9dd4e461268c8034f5c8564e155c67a6  secret\n"), 0o644)
	os.WriteFile(filepath.Join(dir, "unreadable.sums"), []byte("900150983cd24fb0d6963f7d28e17f72  a\n"), 0o000)
	nobody := &syscall.SysProcAttr{Credential: &syscall.Credential{Uid: 65534, Gid: 65534}}
	for _, args := range [][]string{
		{"a", "secret", "a"},
		{"-c", "sums"},
		{"-c", "unreadable.sums", "sums"},
		{"-c", "--ignore-missing", "sums"},
	} {
		gnu := exec.Command(gnuTools["md5sum"], args...)
		gnu.Args[0] = "md5sum"
		ours := exec.Command(exe, args...)
		ours.Env = append(os.Environ(), "HASHLANES_RUN_AS=md5sum")
		var outs [2]outcome
		for i, cmd := range []*exec.Cmd{gnu, ours} {
			cmd.Dir, cmd.SysProcAttr = dir, nobody
			cmd.Env = append(cmd.Environ(), "LC_ALL=C.UTF-8")
			var stdout, stderr bytes.Buffer
			cmd.Stdout, cmd.Stderr = &stdout, &stderr
			err := cmd.Run()
			var ee *exec.ExitError
			if err != nil && !errors.As(err, &ee) {
				t.Skipf("cannot run as another user: %v", err)
			}
			outs[i] = outcome{stdout.Bytes(), stderr.Bytes(), cmd.ProcessState.ExitCode()}
		}
		if args[0] == "a" && !bytes.Contains(outs[0].stderr, []byte("secret: Permission denied")) {
			t.Fatalf("the other user could read the file: %q", outs[0].stderr)
		}
		if !bytes.Equal(outs[0].stdout, outs[1].stdout) || !bytes.Equal(outs[0].stderr, outs[1].stderr) || outs[0].exit != outs[1].exit {
			t.Errorf("md5sum %q: GNU %q %q %d, hashlanes %q %q %d", args,
				outs[0].stdout, outs[0].stderr, outs[0].exit, outs[1].stdout, outs[1].stderr, outs[1].exit)
		}
	}
}
