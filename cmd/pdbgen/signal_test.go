package main

import (
	"bufio"
	"bytes"
	"context"
	"errors"
	"fmt"
	"io"
	"os"
	"os/exec"
	"path/filepath"
	"runtime"
	"strconv"
	"strings"
	"syscall"
	"testing"
	"time"

	"github.com/tilepdb/tilepdb/format"
	"github.com/tilepdb/tilepdb/verify"
)

// The signal tests run pdbgen as a real process: the test binary itself,
// which runs main when this variable is set.
const asMainEnv = "PDBGEN_TEST_RUN_MAIN"

func init() {
	if os.Getenv(asMainEnv) == "1" {
		main() // exits
	}
}

// startPdbgen starts pdbgen args as a child process with piped stdin and
// stdout; stderr is collected.
func startPdbgen(t *testing.T, args ...string) (*exec.Cmd, io.WriteCloser, *bufio.Reader, *strings.Builder) {
	t.Helper()
	if runtime.GOOS == "windows" {
		t.Skip("no SIGINT to send on Windows")
	}
	exe, err := os.Executable()
	if err != nil {
		t.Fatal(err)
	}
	cmd := exec.Command(exe, args...)
	cmd.Env = append(os.Environ(), asMainEnv+"=1")
	stdin, err := cmd.StdinPipe()
	if err != nil {
		t.Fatal(err)
	}
	stdout, err := cmd.StdoutPipe()
	if err != nil {
		t.Fatal(err)
	}
	var stderr strings.Builder
	cmd.Stderr = &stderr
	if err := cmd.Start(); err != nil {
		t.Fatal(err)
	}
	t.Cleanup(func() { _ = cmd.Process.Kill() })
	return cmd, stdin, bufio.NewReader(stdout), &stderr
}

// waitExit waits at most d for cmd to exit and returns its status.
func waitExit(t *testing.T, cmd *exec.Cmd, d time.Duration) int {
	t.Helper()
	done := make(chan error, 1)
	go func() { done <- cmd.Wait() }()
	select {
	case err := <-done:
		// A status other than 0 is an *exec.ExitError; anything else is
		// a failure to wait, not an exit status.
		var ee *exec.ExitError
		if err != nil && !errors.As(err, &ee) {
			t.Fatalf("pdbgen %v: %v", cmd.Args[1:], err)
		}
		return cmd.ProcessState.ExitCode()
	case <-time.After(d):
		t.Fatalf("pdbgen %v still running %v after the signal", cmd.Args[1:], d)
	}
	return -1
}

// readLineWithin reads one line of r or fails after d.
func readLineWithin(t *testing.T, r *bufio.Reader, d time.Duration) string {
	t.Helper()
	got := make(chan string, 1)
	go func() {
		s, _ := r.ReadString('\n')
		got <- s
	}()
	select {
	case s := <-got:
		return s
	case <-time.After(d):
		t.Fatalf("no output line within %v", d)
	}
	return ""
}

// TestSolveInterruptedWaitingForInput: solve waiting on an idle pipe (a
// terminal nobody types into) stops at once on SIGINT, prints the answers
// already found, says "interrupted" and exits 130 (before the fix it
// ignored SIGINT until input came).
func TestSolveInterruptedWaitingForInput(t *testing.T) {
	p8 := fixture(t, fx8)
	cmd, stdin, stdout, stderr := startPdbgen(t, "solve", p8)
	defer stdin.Close()
	if _, err := io.WriteString(stdin, twoMoves8+"\n"); err != nil {
		t.Fatal(err)
	}
	if line := readLineWithin(t, stdout, 10*time.Second); !strings.HasPrefix(line, twoMoves8+" : length 2 moves rr") {
		t.Fatalf("answer %q", line)
	}
	if err := cmd.Process.Signal(os.Interrupt); err != nil {
		t.Fatal(err)
	}
	if code := waitExit(t, cmd, 5*time.Second); code != 130 {
		t.Errorf("exit status %d, want 130", code)
	}
	if stderr.String() != "pdbgen solve: interrupted\n" {
		t.Errorf("stderr %q, want %q", stderr.String(), "pdbgen solve: interrupted\n")
	}
}

// TestSolveInterruptedEndlessInput: solve < /dev/zero (an endless line)
// stops on SIGINT.
func TestSolveInterruptedEndlessInput(t *testing.T) {
	p8 := fixture(t, fx8)
	cmd, stdin, _, stderr := startPdbgen(t, "solve", p8)
	go func() {
		zeros := make([]byte, 1<<16)
		for {
			if _, err := stdin.Write(zeros); err != nil {
				return
			}
		}
	}()
	time.Sleep(300 * time.Millisecond)
	if err := cmd.Process.Signal(os.Interrupt); err != nil {
		t.Fatal(err)
	}
	if code := waitExit(t, cmd, 5*time.Second); code != 130 {
		t.Errorf("exit status %d, want 130; stderr:\n%s", code, stderr)
	}
	stdin.Close()
	if !strings.HasSuffix(stderr.String(), "pdbgen solve: interrupted\n") {
		t.Errorf("stderr %q", stderr.String())
	}
}

// TestLookupAnswersEachLine: lookup answers a line while the input is
// still open (before the fix it held every answer until the end of the
// input), and SIGTERM stops it with status 143.
func TestLookupAnswersEachLine(t *testing.T) {
	p8 := fixture(t, fx8)
	cmd, stdin, stdout, stderr := startPdbgen(t, "lookup", p8)
	defer stdin.Close()
	for _, c := range []struct{ in, out string }{
		{hardest8, hardest8 + "\t31\n"},
		{swapped8, swapped8 + "\tunsolvable\n"},
		{twoMoves8, twoMoves8 + "\t2\n"},
	} {
		if _, err := io.WriteString(stdin, c.in+"\n"); err != nil {
			t.Fatal(err)
		}
		if got := readLineWithin(t, stdout, 10*time.Second); got != c.out {
			t.Fatalf("answer %q, want %q", got, c.out)
		}
	}
	if err := cmd.Process.Signal(syscall.SIGTERM); err != nil {
		t.Fatal(err)
	}
	if code := waitExit(t, cmd, 5*time.Second); code != 143 {
		t.Errorf("exit status %d, want 143", code)
	}
	if stderr.String() != "pdbgen lookup: interrupted\n" {
		t.Errorf("stderr %q", stderr.String())
	}
}

// TestBuildInterrupted: a build stopped by SIGINT in the middle of a
// search exits 130 saying "interrupted" (before: exit 2 with "context
// canceled"), keeps the tables it wrote and leaves no temporary file.
func TestBuildInterrupted(t *testing.T) {
	out := t.TempDir()
	// 15-663's 6-tile tables take seconds: long enough to interrupt.
	cmd, stdin, stdout, stderr := startPdbgen(t, "build", "--quiet", "-j", "1", "-o", out, "--preset", "8puzzle,15-663")
	stdin.Close()
	if line := readLineWithin(t, stdout, 60*time.Second); line != filepath.Join(out, "8puzzle.pdb")+"\n" {
		t.Fatalf("first path %q", line)
	}
	time.Sleep(200 * time.Millisecond)
	if err := cmd.Process.Signal(os.Interrupt); err != nil {
		t.Fatal(err)
	}
	if code := waitExit(t, cmd, 10*time.Second); code != 130 {
		t.Errorf("exit status %d, want 130; stderr:\n%s", code, stderr)
	}
	if stderr.String() != "pdbgen build: interrupted\n" {
		t.Errorf("stderr %q", stderr.String())
	}
	if got := dirEntries(t, out); len(got) == 0 || got[0] != "8puzzle.pdb" || strings.Contains(strings.Join(got, " "), ".tmp-") {
		t.Errorf("output directory holds %v", got)
	}
}

// TestSolveInterruptedKeepsFinishedAnswers: with -j 2, an answer finished
// before SIGINT is printed although the board after it is still being
// searched (before the fix the writer dropped it: empty stdout), then the
// search in progress is reported and solve exits 130.
func TestSolveInterruptedKeepsFinishedAnswers(t *testing.T) {
	const oneMove = "1 0 2 3 4 5 6 7 8 9 10 11 12 13 14 15" // blank-first: one move
	k := korf10(t)[0]                                       // bidirectional search takes far longer than the test
	cmd, stdin, stdout, stderr := startPdbgen(t, "solve", "-j", "2", "--algorithm", "bidirectional", "--board", "4x4", "--goal", "blank-first")
	defer stdin.Close()
	if _, err := io.WriteString(stdin, oneMove+"\n"+k.board+"\n"); err != nil {
		t.Fatal(err)
	}
	out := make(chan string, 1)
	go func() {
		b, _ := io.ReadAll(stdout)
		out <- string(b)
	}()
	// The first board is answered in microseconds, but its answer waits
	// (in order) behind the second's, so it cannot be waited for: the
	// signal goes once the process has used a second of CPU, when it is
	// surely searching the second board (a fixed second of wall time
	// failed on a loaded machine: the process had not started solving).
	waitCPU(t, cmd.Process.Pid, time.Second)
	if err := cmd.Process.Signal(os.Interrupt); err != nil {
		t.Fatal(err)
	}
	if code := waitExit(t, cmd, 10*time.Second); code != 130 {
		t.Errorf("exit status %d, want 130; stderr:\n%s", code, stderr)
	}
	got := lines(<-out)
	if len(got) != 1 || !strings.HasPrefix(got[0], oneMove+" : length 1 ") {
		t.Errorf("stdout %q, want the answer of %q only", got, oneMove)
	}
	el := lines(stderr.String())
	if len(el) != 2 || !strings.HasPrefix(el[0], "pdbgen solve: interrupted while solving "+k.board) || el[1] != "pdbgen solve: interrupted" {
		t.Errorf("stderr %q", stderr.String())
	}
}

// TestSolveInterruptedIDA: SIGINT during IDA* reports what the search had
// proven (the bound of the iteration under way) and exits 130.
func TestSolveInterruptedIDA(t *testing.T) {
	dir := t.TempDir()
	r := pdbgen(t, "", "build", "--quiet", "-j", "2", "-o", dir, "--board", "4x4", "--tiles", "1-4", "--tiles", "5-8", "--tiles", "9-12", "--tiles", "13-15")
	wantCode(t, r, 0)
	k := korf10(t)[0] // far longer than the test with these weak tables
	cmd, stdin, stdout, stderr := startPdbgen(t, append([]string{"solve", "-j", "1", "--from", "blank-first"}, lines(r.stdout)...)...)
	defer stdin.Close()
	// A one-move board first: its answer says the search of Korf's board
	// is under way when the signal goes.
	const oneMove = "1 0 2 3 4 5 6 7 8 9 10 11 12 13 14 15"
	if _, err := io.WriteString(stdin, oneMove+"\n"+k.board+"\n"); err != nil {
		t.Fatal(err)
	}
	if line := readLineWithin(t, stdout, 60*time.Second); !strings.HasPrefix(line, oneMove+" : length 1 ") {
		t.Fatalf("first answer %q, want the answer of %q", line, oneMove)
	}
	go func() {
		// Only drained, so that pdbgen never blocks on a full pipe: its
		// error (the pipe closed at exit) says nothing.
		_, _ = io.Copy(io.Discard, stdout)
	}()
	if err := cmd.Process.Signal(os.Interrupt); err != nil {
		t.Fatal(err)
	}
	if code := waitExit(t, cmd, 10*time.Second); code != 130 {
		t.Errorf("exit status %d, want 130; stderr:\n%s", code, stderr)
	}
	el := lines(stderr.String())
	prefix := "pdbgen solve: interrupted while solving " + k.board + ": no solution yet, proven optimum >= "
	if len(el) != 2 || !strings.HasPrefix(el[0], prefix) || el[1] != "pdbgen solve: interrupted" {
		t.Fatalf("stderr %q", stderr.String())
	}
	if lower, err := strconv.Atoi(strings.TrimPrefix(el[0], prefix)); err != nil || lower < 1 || lower > k.opt {
		t.Errorf("proven bound %q, optimum %d", strings.TrimPrefix(el[0], prefix), k.opt)
	}
}

// TestInterruptedWhileLoading (issue 22 item 1): Ctrl-C while the tables
// load ends lookup and solve within 100 ms with "interrupted", however long
// the load would still take (it was 1.6 s late on the 15-puzzle tables).
func TestInterruptedWhileLoading(t *testing.T) {
	release := make(chan struct{})
	defer close(release)
	old := openPlan
	defer func() { openPlan = old }()
	openPlan = func(plan *format.SetPlan) (*format.Set, error) {
		<-release // a load that never ends during the test
		return old(plan)
	}
	table := fixture(t, fx8) // built before the clock starts
	for _, cmd := range []string{"lookup", "solve"} {
		wantInterruptedAtOnce(t, goal8+"\n", cmd, table)
	}
}

// TestVerifySetInterrupted: Ctrl-C while verify loads a set file's tables
// ends it within 100 ms with "interrupted" and 130 (it ran to the end and
// exited 0, found by a fresh-user trial on 24-6666.set.json).
func TestVerifySetInterrupted(t *testing.T) {
	release := make(chan struct{})
	defer close(release)
	old := checkSetFile
	defer func() { checkSetFile = old }()
	checkSetFile = func(ctx context.Context, path string, opts verify.Options) (*format.Set, []error, error) {
		<-release // a check that never ends during the test
		return old(ctx, path, opts)
	}
	wantInterruptedAtOnce(t, "", "verify", filepath.Join("..", "..", "readers", "testdata", "sets", "good-a.set.json"))
}

// wantInterruptedAtOnce runs pdbgen args in-process, cancels its context
// (Ctrl-C) 50 ms in, and fails unless it exits within 100 ms with 130 and
// "interrupted".
func wantInterruptedAtOnce(t *testing.T, stdin string, args ...string) {
	t.Helper()
	ctx, cancel := context.WithCancel(context.Background())
	defer cancel()
	var out, errb bytes.Buffer
	e := &env{stdin: strings.NewReader(stdin), stdout: &out, stderr: &errb, ctx: ctx}
	done := make(chan int, 1)
	go func() { done <- run(e, args) }()
	time.Sleep(50 * time.Millisecond)
	start := time.Now()
	cancel()
	select {
	case code := <-done:
		if d := time.Since(start); d > 100*time.Millisecond {
			t.Errorf("%s: exited %v after Ctrl-C, want within 100 ms", args[0], d)
		}
		if code != 130 || !strings.Contains(errb.String(), "interrupted") {
			t.Errorf("%s: exit %d, stderr %q; want 130 and interrupted", args[0], code, errb.String())
		}
	case <-time.After(5 * time.Second):
		t.Fatalf("%s: still running 5 s after Ctrl-C", args[0])
	}
}

// waitCPU waits until process pid has used cpu of CPU time (user+system,
// read from /proc/PID/stat), at most a minute; where there is no /proc
// (macOS) it waits cpu of wall time instead.
func waitCPU(t *testing.T, pid int, cpu time.Duration) {
	t.Helper()
	const ticks = 100 // USER_HZ: the unit of /proc/PID/stat's times on Linux
	deadline := time.Now().Add(time.Minute)
	for time.Now().Before(deadline) {
		b, err := os.ReadFile(fmt.Sprintf("/proc/%d/stat", pid))
		if err != nil {
			time.Sleep(cpu)
			return
		}
		// Fields after the command (which may hold spaces) start after
		// the last ')': state is field 3, utime 14 and stime 15.
		f := strings.Fields(string(b[bytes.LastIndexByte(b, ')')+1:]))
		if len(f) < 13 {
			t.Fatalf("/proc/%d/stat: %q", pid, b)
		}
		u, _ := strconv.ParseInt(f[11], 10, 64)
		s, _ := strconv.ParseInt(f[12], 10, 64)
		if time.Duration(u+s)*time.Second/ticks >= cpu {
			return
		}
		time.Sleep(50 * time.Millisecond)
	}
	t.Fatalf("process %d used less than %v of CPU in a minute", pid, cpu)
}
