package shardbeam

import (
	"context"
	"crypto/rand"
	"encoding/hex"
	"fmt"
	"io"
	"strings"

	"github.com/apache/beam/sdks/v2/go/pkg/beam/io/filesystem"
	// The file systems a work folder may live on: a local folder (tests,
	// Prism on one machine), gs:// (Dataflow, or any runner on Google
	// Cloud) and s3:// (AWS, or an S3-compatible store).
	_ "github.com/apache/beam/sdks/v2/go/pkg/beam/io/filesystem/gcs"
	_ "github.com/apache/beam/sdks/v2/go/pkg/beam/io/filesystem/local"
	_ "github.com/apache/beam/sdks/v2/go/pkg/beam/io/filesystem/s3"
)

// workFolder is a folder on any file system Beam's filesystem package
// reaches ("/tmp/w", "gs://bucket/w", "s3://bucket/w"), holding the shard
// data of one table between levels. Names inside it are joined with "/",
// which every registered file system accepts (the local one included, on
// Windows too).
//
// Layout (L: the level whose Step wrote the file, 3+ digits; s, t: shard
// numbers, 5+ digits):
//
//	FINGERPRINT              the plan's Fingerprint, written first
//	L<L>/state-<s>           shard s's state after level L, the input of its next Step
//	L<L>/batch-<t>-from-<s>  the batch shard s sent shard t at level L (only non-empty ones)
//	L<L>/vlog-<s>            shard s's value log of level L (only when it had states at L)
//	L<L>/stats-<s>.json      shard s's stepRecord of level L, written last
//
// A shard with nothing pending and no batch coming runs no Step at a
// level (its state serves the next level it runs). The driver removes a
// state and the batches once the Step that reads them has finished, the
// stats records once read, and everything else when the table is written.
type workFolder struct {
	root string
	fs   filesystem.Interface
}

// openWork opens the work folder at root (no trailing slash needed).
func openWork(ctx context.Context, root string) (*workFolder, error) {
	if strings.TrimSpace(root) == "" {
		return nil, fmt.Errorf("shardbeam: empty work folder")
	}
	fs, err := filesystem.New(ctx, root)
	if err != nil {
		return nil, fmt.Errorf("shardbeam: work folder %s: %w", root, err)
	}
	return &workFolder{root: strings.TrimRight(root, "/"), fs: fs}, nil
}

func (w *workFolder) Close() error { return w.fs.Close() }

// path is the full name of name inside the folder.
func (w *workFolder) path(name string) string { return w.root + "/" + name }

func levelDir(level int) string { return fmt.Sprintf("L%03d", level) }

func stateName(level, s int) string { return fmt.Sprintf("%s/state-%05d", levelDir(level), s) }
func batchName(level, to, from int) string {
	return fmt.Sprintf("%s/batch-%05d-from-%05d", levelDir(level), to, from)
}
func vlogName(level, s int) string  { return fmt.Sprintf("%s/vlog-%05d", levelDir(level), s) }
func statsName(level, s int) string { return fmt.Sprintf("%s/stats-%05d.json", levelDir(level), s) }

const fingerprintName = "FINGERPRINT"

// read returns the whole file name.
func (w *workFolder) read(ctx context.Context, name string) ([]byte, error) {
	r, err := w.fs.OpenRead(ctx, w.path(name))
	if err != nil {
		return nil, fmt.Errorf("shardbeam: read %s: %w", w.path(name), err)
	}
	defer r.Close()
	b, err := io.ReadAll(r)
	if err != nil {
		return nil, fmt.Errorf("shardbeam: read %s: %w", w.path(name), err)
	}
	return b, nil
}

// write stores data under name so that a reader sees either the old file
// or the whole new one: on a file system that renames (the local one) it
// writes a temporary name and renames it; object stores (gs://, s3://)
// publish an object only when its upload is closed. Writing the same
// name twice with the same bytes (a retried bundle) leaves the same file.
func (w *workFolder) write(ctx context.Context, name string, data []byte) error {
	full := w.path(name)
	rn, canRename := w.fs.(filesystem.Renamer)
	if !canRename || strings.Contains(w.root, "://") {
		return w.put(ctx, full, data)
	}
	var rnd [6]byte
	_, _ = rand.Read(rnd[:])
	tmp := full + ".tmp-" + hex.EncodeToString(rnd[:])
	if err := w.put(ctx, tmp, data); err != nil {
		w.remove(ctx, tmp)
		return err
	}
	if err := rn.Rename(ctx, tmp, full); err != nil {
		w.remove(ctx, tmp)
		return fmt.Errorf("shardbeam: write %s: %w", full, err)
	}
	return nil
}

func (w *workFolder) put(ctx context.Context, full string, data []byte) error {
	wc, err := w.fs.OpenWrite(ctx, full)
	if err != nil {
		return fmt.Errorf("shardbeam: write %s: %w", full, err)
	}
	if _, err := wc.Write(data); err != nil {
		wc.Close()
		return fmt.Errorf("shardbeam: write %s: %w", full, err)
	}
	if err := wc.Close(); err != nil {
		return fmt.Errorf("shardbeam: write %s: %w", full, err)
	}
	return nil
}

// remove deletes a file when the file system can; errors are ignored
// (clean-up is best effort: a leftover file does not change a result).
func (w *workFolder) remove(ctx context.Context, full string) {
	if rm, ok := w.fs.(filesystem.Remover); ok {
		_ = rm.Remove(ctx, full)
	}
}

// removeLevel deletes the files of one level, and its local directory.
func (w *workFolder) removeLevel(ctx context.Context, level int) error {
	names, err := w.fs.List(ctx, w.path(levelDir(level))+"/*")
	if err != nil {
		return fmt.Errorf("shardbeam: list %s: %w", w.path(levelDir(level)), err)
	}
	for _, n := range names {
		w.remove(ctx, n)
	}
	if !strings.Contains(w.root, "://") {
		w.remove(ctx, w.path(levelDir(level))) // the local directory, now empty
	}
	return nil
}
