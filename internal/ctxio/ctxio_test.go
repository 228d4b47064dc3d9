package ctxio

import (
	"bytes"
	"context"
	"errors"
	"io"
	"os"
	"testing"
	"testing/iotest"
	"time"
)

// TestReadAll: data passes through unchanged, in small and large reads,
// with the underlying reader's EOF at the end.
func TestReadAll(t *testing.T) {
	data := bytes.Repeat([]byte("0123456789abcdef\n"), 10000) // 170 kB: several buffers
	for name, r := range map[string]io.Reader{
		"plain":    bytes.NewReader(data),
		"onebyte":  iotest.OneByteReader(bytes.NewReader(data)),
		"dataeof":  iotest.DataErrReader(bytes.NewReader(data)),
		"halfread": iotest.HalfReader(bytes.NewReader(data)),
	} {
		got, err := io.ReadAll(NewReader(context.Background(), r))
		if err != nil || !bytes.Equal(got, data) {
			t.Errorf("%s: read %d bytes, err %v; want %d bytes", name, len(got), err, len(data))
		}
	}
	if err := iotest.TestReader(NewReader(context.Background(), bytes.NewReader(data)), data); err != nil {
		t.Error(err)
	}
}

// TestErrorSticks: an error of the underlying reader comes after its data
// and again on every later Read.
func TestErrorSticks(t *testing.T) {
	boom := errors.New("boom")
	r := NewReader(context.Background(), io.MultiReader(bytes.NewReader([]byte("abc")), iotest.ErrReader(boom)))
	got, err := io.ReadAll(r)
	if string(got) != "abc" || !errors.Is(err, boom) {
		t.Fatalf("ReadAll = %q, %v", got, err)
	}
	if _, err := r.Read(make([]byte, 1)); !errors.Is(err, boom) {
		t.Errorf("second Read: %v", err)
	}
}

// TestCancelWhileBlocked: a Read waiting on a reader that never returns
// (an idle pipe) returns context.Canceled promptly after cancel.
func TestCancelWhileBlocked(t *testing.T) {
	pr, pw, err := os.Pipe()
	if err != nil {
		t.Fatal(err)
	}
	defer pw.Close()
	defer pr.Close()
	ctx, cancel := context.WithCancel(context.Background())
	r := NewReader(ctx, pr)
	if _, err := pw.Write([]byte("line\n")); err != nil {
		t.Fatal(err)
	}
	buf := make([]byte, 100)
	if n, err := r.Read(buf); err != nil || string(buf[:n]) != "line\n" {
		t.Fatalf("Read = %q, %v", buf[:n], err)
	}
	done := make(chan error, 1)
	go func() {
		_, err := r.Read(buf)
		done <- err
	}()
	time.Sleep(50 * time.Millisecond)
	cancel()
	select {
	case err := <-done:
		if !errors.Is(err, context.Canceled) {
			t.Errorf("Read after cancel: %v", err)
		}
	case <-time.After(5 * time.Second):
		t.Fatal("Read still blocked 5 s after cancel")
	}
}

// TestCancelEndlessInput: an endless stream (like /dev/zero) stops at
// cancel even though data keeps coming.
func TestCancelEndlessInput(t *testing.T) {
	ctx, cancel := context.WithCancel(context.Background())
	r := NewReader(ctx, zeros{})
	buf := make([]byte, 4096)
	for range 10 {
		if _, err := r.Read(buf); err != nil {
			t.Fatal(err)
		}
	}
	cancel()
	if _, err := r.Read(buf); !errors.Is(err, context.Canceled) {
		t.Errorf("Read after cancel: %v", err)
	}
}

type zeros struct{}

func (zeros) Read(p []byte) (int, error) { clear(p); return len(p), nil }
