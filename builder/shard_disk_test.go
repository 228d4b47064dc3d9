package builder_test

import (
	"bytes"
	"context"
	"errors"
	"io"
	"io/fs"
	"os"
	"path/filepath"
	"strings"
	"sync/atomic"
	"syscall"
	"testing"

	"github.com/tilepdb/tilepdb/builder"
	"github.com/tilepdb/tilepdb/internal/atomicfile"
	"github.com/tilepdb/tilepdb/internal/pdbtest"
	"github.com/tilepdb/tilepdb/puzzle"
)

// readAll reads an out-of-core build's values through its Source in
// pieces of n entries.
func readAll(t *testing.T, o *builder.OutOfCore, size uint64, n int) []uint8 {
	t.Helper()
	src := o.Source()
	out := make([]uint8, size)
	for lo := uint64(0); lo < size; lo += uint64(n) {
		if err := src(lo, out[lo:min(lo+uint64(n), size)]); err != nil {
			t.Fatal(err)
		}
	}
	return out
}

// TestBuildOutOfCore: the folder driver gives Build's table for several
// shard and resident counts, with empty shards, and leaves only its
// folder, which Remove deletes.
func TestBuildOutOfCore(t *testing.T) {
	ctx := context.Background()
	cases := shardCases[:4]
	if testing.Short() {
		cases = shardCases[2:3] // every level syncs its marker: seconds per build
	}
	for _, c := range cases {
		p := pdbtest.Pattern(t, c.w, c.h, c.goal, c.tiles...)
		want, err := builder.Build(ctx, p, builder.Options{Workers: 2})
		if err != nil {
			t.Fatal(err)
		}
		for _, sr := range [][2]int{{1, 0}, {3, 1}, {7, 7}, {25, 2}} {
			dir := filepath.Join(t.TempDir(), "shards")
			var steps int
			o, err := builder.BuildOutOfCore(ctx, p, builder.OutOfCoreOptions{Dir: dir, Shards: sr[0], Resident: sr[1], Workers: 2,
				Progress: func(e builder.OutOfCoreEvent) {
					if !e.LevelDone {
						steps++
					}
				}})
			if err != nil {
				t.Fatalf("%s, %v: %v", p, sr, err)
			}
			if got := readAll(t, o, p.Size(), 1000); !bytes.Equal(got, want) {
				t.Fatalf("%s, %d shards, %d resident: table differs from Build's", p, sr[0], sr[1])
			}
			if steps == 0 {
				t.Error("no progress")
			}
			if err := o.Remove(); err != nil {
				t.Fatal(err)
			}
			if _, err := os.Stat(dir); !os.IsNotExist(err) {
				t.Errorf("shard folder left: %v", err)
			}
		}
	}
}

// TestBuildOutOfCoreResume: a build interrupted after some levels resumes
// from its last complete level and gives Build's table; a folder of
// another plan, an empty one and a used one without Resume are refused
// with one line.
func TestBuildOutOfCoreResume(t *testing.T) {
	p := pdbtest.Pattern(t, 4, 4, "blank-last", 1, 2, 3, 4)
	want, err := builder.Build(context.Background(), p, builder.Options{Workers: 2})
	if err != nil {
		t.Fatal(err)
	}
	dir := filepath.Join(t.TempDir(), "shards")
	for _, stopAt := range []int{3, 9} {
		if testing.Short() && stopAt == 3 {
			continue
		}
		os.RemoveAll(dir)
		ctx, cancel := context.WithCancel(context.Background())
		opt := builder.OutOfCoreOptions{Dir: dir, Shards: 5, Resident: 2, Workers: 2, Progress: func(e builder.OutOfCoreEvent) {
			if e.Level == stopAt && e.Shard == 2 {
				cancel() // in the middle of a level
			}
		}}
		if _, err := builder.BuildOutOfCore(ctx, p, opt); !errors.Is(err, builder.ErrCanceled) {
			t.Fatalf("interrupted build: %v", err)
		}
		cancel()
		// Without Resume the folder is refused.
		opt.Progress = nil
		if _, err := builder.BuildOutOfCore(context.Background(), p, opt); err == nil || !strings.Contains(err.Error(), "--resume") {
			t.Errorf("used folder without resume: %v", err)
		}
		// Another plan (shard count) is refused.
		other := opt
		other.Resume, other.Shards = true, 4
		if _, err := builder.BuildOutOfCore(context.Background(), p, other); err == nil || !strings.Contains(err.Error(), "cannot resume") || strings.Contains(err.Error(), "\n") {
			t.Errorf("foreign folder: %v", err)
		}
		first := -1
		opt.Resume = true
		opt.Progress = func(e builder.OutOfCoreEvent) {
			if first < 0 {
				first = e.Level
				if !e.Resumed {
					t.Error("first event not marked Resumed")
				}
			}
		}
		o, err := builder.BuildOutOfCore(context.Background(), p, opt)
		if err != nil {
			t.Fatal(err)
		}
		if first != stopAt {
			t.Errorf("resumed at level %d, want %d", first, stopAt)
		}
		if got := readAll(t, o, p.Size(), 777); !bytes.Equal(got, want) {
			t.Fatalf("resumed at %d: table differs from Build's", stopAt)
		}
	}
	// A folder without a finished level (the plan written, level 0 not)
	// starts again.
	empty := t.TempDir()
	if err := os.WriteFile(filepath.Join(empty, "PLAN"), []byte(builder.MustPlan(t, p, 2).Fingerprint()+"\n"), 0o644); err != nil {
		t.Fatal(err)
	}
	o, err := builder.BuildOutOfCore(context.Background(), p, builder.OutOfCoreOptions{Dir: empty, Shards: 2, Resume: true})
	if err != nil {
		t.Fatal(err)
	}
	if got := readAll(t, o, p.Size(), 5000); !bytes.Equal(got, want) {
		t.Fatal("restarted build: table differs from Build's")
	}
}

// fullDisk is a writer that fails with ENOSPC once the disk's bytes are
// used up (shared by every file, as a file system's space is).
type fullDisk struct {
	w    io.Writer
	left *atomic.Int64
}

func (f fullDisk) Write(p []byte) (int, error) {
	if f.left.Add(-int64(len(p))) < 0 {
		return 0, &os.PathError{Op: "write", Path: "stand-in", Err: syscall.ENOSPC}
	}
	return f.w.Write(p)
}

// TestBuildOutOfCoreDiskFull: a disk that fills in the middle of the
// search fails the build with an error naming the file and the cause,
// keeps the finished levels (a COMPLETE marker) and no temporary file,
// and --resume on a disk with room again finishes Build's table.
func TestBuildOutOfCoreDiskFull(t *testing.T) {
	p := pdbtest.Pattern(t, 4, 4, "blank-last", 1, 2, 3, 4)
	want, err := builder.Build(context.Background(), p, builder.Options{Workers: 2})
	if err != nil {
		t.Fatal(err)
	}
	dir := filepath.Join(t.TempDir(), "shards")
	opt := builder.OutOfCoreOptions{Dir: dir, Shards: 3, Resident: 1, Workers: 2}
	// The folder at the end; the disk then fills after twice that (a
	// build writes more: every level rewrites the states).
	if _, err := builder.BuildOutOfCore(context.Background(), p, opt); err != nil {
		t.Fatal(err)
	}
	var total int64
	_ = filepath.WalkDir(dir, func(_ string, d fs.DirEntry, err error) error {
		if err == nil && !d.IsDir() {
			fi, _ := d.Info()
			total += fi.Size()
		}
		return nil
	})
	os.RemoveAll(dir)
	left := new(atomic.Int64)
	left.Store(total * 2)
	builder.SetWriteHook(t, func(_ string, w io.Writer) io.Writer { return fullDisk{w, left} })
	_, err = builder.BuildOutOfCore(context.Background(), p, opt)
	if !errors.Is(err, syscall.ENOSPC) || !strings.Contains(err.Error(), dir) || strings.Contains(err.Error(), ".tmp-") {
		t.Fatalf("full disk: %v", err)
	}
	markers, _ := filepath.Glob(filepath.Join(dir, "L*", "COMPLETE"))
	temps, _ := filepath.Glob(filepath.Join(dir, "*", ".*.tmp-*"))
	if len(markers) == 0 || len(temps) != 0 {
		t.Fatalf("after the failure: markers %v, temporary files %v", markers, temps)
	}
	left.Store(1 << 40)
	opt.Resume = true
	o, err := builder.BuildOutOfCore(context.Background(), p, opt)
	if err != nil {
		t.Fatal(err)
	}
	if got := readAll(t, o, p.Size(), 4096); !bytes.Equal(got, want) {
		t.Fatal("resumed after a full disk: table differs from Build's")
	}
}

// TestBuildOutOfCoreCanceledAtStart: a canceled context stops the
// creation of the shard files (a million shards take a while) with
// ErrCanceled, before every shard's file is written.
func TestBuildOutOfCoreCanceledAtStart(t *testing.T) {
	p := pdbtest.Pattern(t, 4, 4, "blank-last", 1, 2, 3, 4)
	dir := filepath.Join(t.TempDir(), "shards")
	ctx, cancel := context.WithCancel(context.Background())
	cancel()
	_, err := builder.BuildOutOfCore(ctx, p, builder.OutOfCoreOptions{Dir: dir, Shards: 64, Workers: 1})
	if !errors.Is(err, builder.ErrCanceled) {
		t.Fatalf("got %v, want ErrCanceled", err)
	}
	states, _ := os.ReadDir(filepath.Join(dir, "states"))
	if len(states) != 0 {
		t.Errorf("%d shard files written after the cancel", len(states))
	}
}

// interruptedFolder runs an out-of-core build of p with 3 shards into a new
// folder and cancels it in level 6, leaving finished levels to resume.
func interruptedFolder(t *testing.T, p *puzzle.Pattern) (string, builder.OutOfCoreOptions) {
	t.Helper()
	dir := filepath.Join(t.TempDir(), "shards")
	ctx, cancel := context.WithCancel(context.Background())
	defer cancel()
	opt := builder.OutOfCoreOptions{Dir: dir, Shards: 3, Workers: 1, Progress: func(e builder.OutOfCoreEvent) {
		if e.Level == 6 && e.Shard == 1 {
			cancel()
		}
	}}
	if _, err := builder.BuildOutOfCore(ctx, p, opt); !errors.Is(err, builder.ErrCanceled) {
		t.Fatalf("interrupted build: %v", err)
	}
	opt.Progress, opt.Resume = nil, true
	return dir, opt
}

// TestBuildOutOfCoreResumeDamaged: a resumed build refuses a shard folder
// with a batch file or a state file missing (ErrShardData) instead of
// finishing a wrong table, and a folder another build holds (ErrShardFolder);
// the folder untouched resumes to Build's table.
func TestBuildOutOfCoreResumeDamaged(t *testing.T) {
	p := pdbtest.Pattern(t, 4, 4, "blank-last", 1, 2, 3, 4)
	want, err := builder.Build(context.Background(), p, builder.Options{Workers: 1})
	if err != nil {
		t.Fatal(err)
	}
	last := func(dir string) string { // the last finished level's folder
		t.Helper()
		ls, _ := filepath.Glob(filepath.Join(dir, "L*", "COMPLETE"))
		if len(ls) != 1 {
			t.Fatalf("finished levels: %v", ls)
		}
		return filepath.Dir(ls[0])
	}
	t.Run("batch missing", func(t *testing.T) {
		dir, opt := interruptedFolder(t, p)
		batches, _ := filepath.Glob(filepath.Join(last(dir), "batch-*"))
		if len(batches) == 0 {
			t.Fatal("no batch file to remove")
		}
		os.Remove(batches[len(batches)/2])
		if _, err := builder.BuildOutOfCore(context.Background(), p, opt); !errors.Is(err, builder.ErrShardData) {
			t.Fatalf("got %v, want ErrShardData", err)
		}
	})
	t.Run("state missing", func(t *testing.T) {
		dir, opt := interruptedFolder(t, p)
		states, _ := filepath.Glob(filepath.Join(dir, "states", "*"))
		if len(states) == 0 {
			t.Fatal("no state file to remove")
		}
		os.Remove(states[0])
		if _, err := builder.BuildOutOfCore(context.Background(), p, opt); !errors.Is(err, builder.ErrShardData) {
			t.Fatalf("got %v, want ErrShardData", err)
		}
	})
	t.Run("in use", func(t *testing.T) {
		dir, opt := interruptedFolder(t, p)
		lock, err := atomicfile.LockDir(dir)
		if err != nil {
			t.Fatal(err)
		}
		if lock == nil {
			t.Skip("no directory locks on this system")
		}
		_, err = builder.BuildOutOfCore(context.Background(), p, opt)
		lock.Close()
		if !errors.Is(err, builder.ErrShardFolder) || !strings.Contains(err.Error(), "in use by another build") {
			t.Fatalf("got %v, want the folder refused as in use", err)
		}
		o, err := builder.BuildOutOfCore(context.Background(), p, opt)
		if err != nil {
			t.Fatal(err)
		}
		if got := readAll(t, o, p.Size(), 777); !bytes.Equal(got, want) {
			t.Fatal("resumed table differs from Build's")
		}
		if err := o.Remove(); err != nil {
			t.Fatal(err)
		}
	})
}
