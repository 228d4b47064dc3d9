package main

import (
	"bufio"
	"bytes"
	"context"
	"io"
	"net"
	"os"
	"os/exec"
	"path/filepath"
	"regexp"
	"slices"
	"strconv"
	"strings"
	"testing"
	"time"

	"github.com/tilepdb/tilepdb/builder"
	"github.com/tilepdb/tilepdb/format"
	"github.com/tilepdb/tilepdb/preset"
	"github.com/tilepdb/tilepdb/puzzle"
)

// TestMain lets the test binary stand in for pdbgen-beam: with
// PDBGEN_BEAM_AS_COMMAND=1 it runs the command on its arguments (the
// external-runner test starts the job server, the worker pools and the
// build as separate processes this way, without building the binary).
func TestMain(m *testing.M) {
	if os.Getenv("PDBGEN_BEAM_AS_COMMAND") == "1" {
		os.Exit(run(os.Args[1:], os.Stdout, os.Stderr))
	}
	os.Exit(m.Run())
}

// reference writes the table pdbgen build writes for p into dir and
// returns its bytes: builder.Build, then the format package with
// pdbgen's generator string.
func reference(t *testing.T, p *puzzle.Pattern) []byte {
	t.Helper()
	values, err := builder.Build(context.Background(), p, builder.Options{Workers: 2})
	if err != nil {
		t.Fatal(err)
	}
	tb, err := format.NewTable(p, values, generator)
	if err != nil {
		t.Fatal(err)
	}
	var b bytes.Buffer
	if err := tb.Encode(&b, 2); err != nil {
		t.Fatal(err)
	}
	return b.Bytes()
}

func customPattern(t *testing.T, board, tiles string) *puzzle.Pattern {
	t.Helper()
	g, err := puzzle.ParseGeometry(board)
	if err != nil {
		t.Fatal(err)
	}
	list, err := puzzle.ParseTiles(tiles)
	if err != nil {
		t.Fatal(err)
	}
	p, err := puzzle.NewPattern(g, puzzle.BlankLastGoal(g), list)
	if err != nil {
		t.Fatal(err)
	}
	return p
}

// TestGeneratorMatchesPdbgen: the generator string is in every header, so
// byte-identical tables need pdbgen's (cmd/pdbgen/version.go).
func TestGeneratorMatchesPdbgen(t *testing.T) {
	src, err := os.ReadFile(filepath.Join("..", "..", "..", "cmd", "pdbgen", "version.go"))
	if err != nil {
		t.Skipf("pdbgen's source is not beside this module: %v", err)
	}
	m := regexp.MustCompile(`const Version = "([^"]+)"`).FindSubmatch(src)
	if m == nil {
		t.Fatal("cmd/pdbgen/version.go has no `const Version = \"...\"`")
	}
	if string(m[1]) != version {
		t.Fatalf("pdbgen is version %s, pdbgen-beam writes %s: update version in build.go", m[1], version)
	}
}

// TestBuildInProcess runs the command on Prism in-process: the exact
// 8-puzzle (built in the driver), a 15-puzzle 5-tile table (on Beam) and
// a set of two 8-puzzle tables searched in the same pipelines,
// byte-identical to the reference.
func TestBuildInProcess(t *testing.T) {
	out := t.TempDir()
	var stdout, stderr bytes.Buffer
	args := []string{"build", "--preset", "8puzzle", "-o", out, "--quiet", "-j", "1"}
	if code := run(args, &stdout, &stderr); code != 0 {
		t.Fatalf("exit %d: %s", code, stderr.String())
	}
	args = []string{"build", "--board", "4x4", "--tiles", "1,2,3,4,7", "-o", out, "--shards", "6", "--lanes", "2", "-j", "1"}
	if code := run(args, &stdout, &stderr); code != 0 {
		t.Fatalf("exit %d: %s", code, stderr.String())
	}
	args = []string{"build", "--board", "3x3", "--tiles", "1,2,3,4", "--tiles", "5,6,7,8", "-o", out, "--lanes", "2", "-j", "1", "--quiet"}
	if code := run(args, &stdout, &stderr); code != 0 {
		t.Fatalf("exit %d: %s", code, stderr.String())
	}
	g, _ := puzzle.NewGeometry(3, 3)
	exact, err := puzzle.NewPattern(g, puzzle.BlankLastGoal(g), []uint8{1, 2, 3, 4, 5, 6, 7, 8})
	if err != nil {
		t.Fatal(err)
	}
	add := customPattern(t, "4x4", "1,2,3,4,7")
	set1, set2 := customPattern(t, "3x3", "1,2,3,4"), customPattern(t, "3x3", "5,6,7,8")
	for _, c := range []struct {
		file string
		p    *puzzle.Pattern
	}{{"8puzzle.pdb", exact}, {preset.FileName("4x4", add), add}, {preset.FileName("3x3", set1), set1}, {preset.FileName("3x3", set2), set2}} {
		got, err := os.ReadFile(filepath.Join(out, c.file))
		if err != nil {
			t.Fatal(err)
		}
		if !bytes.Equal(got, reference(t, c.p)) {
			t.Errorf("%s differs from pdbgen build's", c.file)
		}
		if !strings.Contains(stdout.String(), filepath.Join(out, c.file)+"\n") {
			t.Errorf("stdout %q does not list %s", stdout.String(), c.file)
		}
	}
	if !strings.Contains(stderr.String(), "level 0:") || !strings.Contains(stderr.String(), "Beam overhead") {
		t.Errorf("no progress on stderr: %s", stderr.String())
	}
}

// TestUsageErrors: bad command lines exit 2 with one line and build
// nothing.
func TestUsageErrors(t *testing.T) {
	for _, c := range []struct {
		args []string
		want string
	}{
		{[]string{}, "usage:"},
		{[]string{"bogus"}, "unknown command"},
		{[]string{"build", "--preset", "nope"}, "unknown preset"},
		{[]string{"build", "--board", "4x4"}, "go together"},
		{[]string{"build", "--board", "4x4", "--tiles", "1,2", "--preset", "15-555"}, "either --preset"},
		{[]string{"build", "--board", "9x9", "--tiles", "1,2"}, "board"},
		{[]string{"build", "--preset", "24-best"}, "24-best_13-14-15-19-20-24_za.pdb is a zero-aware table: pdbgen-beam builds plain tables only"},
		{[]string{"build", "--format", "3"}, "--format"},
		{[]string{"build", "--shards", "-1"}, "--shards"},
		{[]string{"build", "--lanes", "0"}, "--lanes"},
		{[]string{"build", "--worker_pools", "localhost:1"}, "needs --endpoint"},
		{[]string{"build", "--preset", "15-555", "--worker_pools", "localhost:1", "--endpoint", "localhost:1"}, "job server (--endpoint) localhost:1"},
		{[]string{"build", "extra"}, "unexpected argument"},
		{[]string{"build", "--beam_log_level", "loud"}, "--beam_log_level"},
		{[]string{"worker-pool", "--port", "70000"}, "--port"},
		{[]string{"job-server", "--job_port", "0"}, "--job_port"},
	} {
		t.Run(strings.Join(c.args, " "), func(t *testing.T) {
			args := c.args
			if len(args) > 0 && args[0] == "build" {
				args = append(args, "-o", t.TempDir())
			}
			// A process of its own: Beam's flags are process-wide, and
			// an earlier in-process build sets some (--endpoint).
			cmd := exec.Command(os.Args[0], args...)
			cmd.Env = append(os.Environ(), "PDBGEN_BEAM_AS_COMMAND=1")
			var stderr bytes.Buffer
			cmd.Stderr = &stderr
			err := cmd.Run()
			if code := cmd.ProcessState.ExitCode(); code != exitUsage {
				t.Errorf("exit %d (%v), want %d; stderr %s", code, err, exitUsage, stderr.String())
			}
			if !strings.Contains(stderr.String(), c.want) {
				t.Errorf("stderr %q does not mention %q", stderr.String(), c.want)
			}
			if strings.Contains(stderr.String(), "goroutine ") {
				t.Errorf("stack trace on stderr: %s", stderr.String())
			}
		})
	}
}

// command starts the test binary as pdbgen-beam with args; the process is
// killed when the test ends. It returns the process and the first line
// it prints on stdout (the address it serves).
func command(t *testing.T, args ...string) (*exec.Cmd, string) {
	t.Helper()
	cmd := exec.Command(os.Args[0], args...)
	cmd.Env = append(os.Environ(), "PDBGEN_BEAM_AS_COMMAND=1")
	cmd.Stderr = &prefixWriter{t: t, prefix: args[0]}
	out, err := cmd.StdoutPipe()
	if err != nil {
		t.Fatal(err)
	}
	if err := cmd.Start(); err != nil {
		t.Fatal(err)
	}
	t.Cleanup(func() {
		_ = cmd.Process.Kill()
		_ = cmd.Wait()
	})
	line := make(chan string, 1)
	go func() {
		sc := bufio.NewScanner(out)
		if sc.Scan() {
			line <- strings.TrimSpace(sc.Text())
		}
		close(line)
		_, _ = io.Copy(io.Discard, out)
	}()
	select {
	case l, ok := <-line:
		if !ok {
			t.Fatalf("%v printed no address", args)
		}
		return cmd, l
	case <-time.After(60 * time.Second):
		t.Fatalf("%v: no address within 60 s", args)
	}
	return nil, ""
}

// prefixWriter logs a child's stderr through t.Log (seen with -v or on
// failure).
type prefixWriter struct {
	t      *testing.T
	prefix string
}

func (w *prefixWriter) Write(b []byte) (int, error) {
	w.t.Logf("%s: %s", w.prefix, strings.TrimRight(string(b), "\n"))
	return len(b), nil
}

func freePort(t *testing.T) int {
	t.Helper()
	l, err := net.Listen("tcp", "localhost:0")
	if err != nil {
		t.Fatal(err)
	}
	defer l.Close()
	return l.Addr().(*net.TCPAddr).Port
}

// TestExternalPrismTwoWorkerPools runs Prism as a separate job server
// process and two worker-pool processes, and the build as a fourth
// process with --runner universal: each level runs one job per pool, so
// shards run in two worker processes at once. The table must be
// byte-identical, and both pools' processes must have run steps.
func TestExternalPrismTwoWorkerPools(t *testing.T) {
	if testing.Short() {
		t.Skip("starts four processes; runs without -short (make beam-test)")
	}
	port := freePort(t)
	_, endpoint := command(t, "job-server", "--job_port", strconv.Itoa(port))
	pool1, addr1 := command(t, "worker-pool")
	pool2, addr2 := command(t, "worker-pool")
	out := t.TempDir()
	ctx, cancel := context.WithTimeout(context.Background(), 5*time.Minute)
	defer cancel()
	build := exec.CommandContext(ctx, os.Args[0], "build", "--board", "3x3", "--tiles", "1,2,3,4", "-o", out,
		"--shards", "8", "--lanes", "4", "-j", "1", "--work", t.TempDir(),
		"--runner", "universal", "--endpoint", endpoint, "--worker_pools", addr1+","+addr2)
	build.Env = append(os.Environ(), "PDBGEN_BEAM_AS_COMMAND=1")
	var stdout, stderr bytes.Buffer
	build.Stdout, build.Stderr = &stdout, &stderr
	if err := build.Run(); err != nil {
		t.Fatalf("build: %v\n%s", err, stderr.String())
	}
	t.Log(stderr.String())
	p := customPattern(t, "3x3", "1,2,3,4")
	got, err := os.ReadFile(filepath.Join(out, preset.FileName("3x3", p)))
	if err != nil {
		t.Fatal(err)
	}
	if !bytes.Equal(got, reference(t, p)) {
		t.Fatal("the table built on two worker pools differs from pdbgen build's")
	}
	m := regexp.MustCompile(`worker processes \[([0-9 ]*)\]`).FindStringSubmatch(stderr.String())
	if m == nil {
		t.Fatalf("no worker process list in %s", stderr.String())
	}
	var pids []int
	for _, f := range strings.Fields(m[1]) {
		n, _ := strconv.Atoi(f)
		pids = append(pids, n)
	}
	for _, pool := range []*exec.Cmd{pool1, pool2} {
		if !slices.Contains(pids, pool.Process.Pid) {
			t.Errorf("worker pool process %d ran no step (steps ran in %v)", pool.Process.Pid, pids)
		}
	}
	if slices.Contains(pids, build.Process.Pid) {
		t.Errorf("the driver process %d ran steps itself", build.Process.Pid)
	}
}
