package report

import (
	"os"
	"os/exec"
	"path/filepath"
	"regexp"
	"strings"
	"testing"
)

// chromiumFlags run Debian's Chromium headless without reaching for the
// network (this machine has none, and the page must need none).
var chromiumFlags = []string{"--headless", "--no-sandbox", "--disable-gpu", "--disable-quic", "--no-first-run",
	"--disable-background-networking", "--disable-component-update", "--disable-sync"}

// TestReportInChromium loads the report in a real browser: its script
// must have run (the calculator shows results) and a screenshot must come
// out. Skipped where Chromium is not installed (apt-get install chromium).
func TestReportInChromium(t *testing.T) {
	chromium, err := exec.LookPath("chromium")
	if err != nil {
		t.Skip("chromium not installed")
	}
	dir := t.TempDir()
	page := filepath.Join(dir, "report.html")
	f, err := os.Create(page)
	if err != nil {
		t.Fatal(err)
	}
	if err := WriteHTML(f, sample()); err != nil {
		t.Fatal(err)
	}
	f.Close()
	args := append(chromiumFlags, "--user-data-dir="+filepath.Join(dir, "profile"))
	cmd := exec.Command(chromium, append(args, "--enable-logging=stderr", "--dump-dom", "file://"+page)...)
	var log strings.Builder
	cmd.Stderr = &log
	dom, err := cmd.Output()
	if err != nil {
		t.Fatalf("chromium --dump-dom: %v", err)
	}
	if m := regexp.MustCompile(`(?m)^.*(Uncaught|CONSOLE\(\d+\)\] "(Error|TypeError|ReferenceError)).*$`).FindString(log.String()); m != "" {
		t.Errorf("the page's script failed: %s", m)
	}
	for _, id := range []string{"t-bytes", "t-rate", "t-payload", "t-streams"} {
		if !regexp.MustCompile(`<output id="` + id + `">[^<]+</output>`).Match(dom) {
			t.Errorf("calculator output %s is empty: the page's script did not run", id)
		}
	}
	shot := filepath.Join(dir, "report.png")
	if out, err := exec.Command(chromium, append(args, "--screenshot="+shot, "--window-size=1200,2400", "file://"+page)...).CombinedOutput(); err != nil {
		t.Fatalf("chromium --screenshot: %v\n%s", err, out)
	}
	if fi, err := os.Stat(shot); err != nil || fi.Size() < 10_000 {
		t.Fatalf("screenshot: %v", err)
	}
}
