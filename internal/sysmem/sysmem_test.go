package sysmem

import (
	"errors"
	"strings"
	"testing"
)

func TestParseSize(t *testing.T) {
	for _, c := range []struct {
		in   string
		want uint64 // when err is ""
		err  string // the error must contain it
	}{
		{"4G", 4 << 30, ""},
		{"4g", 4 << 30, ""},
		{"4GiB", 4 << 30, ""},
		{"4gib", 4 << 30, ""},
		{"4Gi", 4 << 30, ""},
		{"4GB", 4 << 30, ""},
		{"1.5G", 3 << 29, ""},
		{" 512M ", 512 << 20, ""},
		{"512 MiB", 512 << 20, ""},
		{"2048K", 2 << 20, ""},
		{"1T", 1 << 40, ""},
		{"1048576", 1 << 20, ""},
		{"1048576B", 1 << 20, ""},
		{"0.5", 0, "less than the minimum"},
		{"0.5K", 0, "less than the minimum"},
		{"0", 0, "less than the minimum"},
		{"1", 0, "less than the minimum"},
		{"NaN", 0, "not a size"},
		{"nan", 0, "not a size"},
		{"Inf", 0, "not a size"},
		{"-4G", 0, "not a size"},
		{"+4G", 0, "not a size"},
		{"1e9", 0, "not a size"},
		{"0x100000", 0, "not a size"},
		{"4X", 0, "not a size"},
		{"G", 0, "not a size"},
		{"", 0, "not a size"},
		{"4 G B", 0, "not a size"},
		{"99999999999T", 0, "too large"},
		{"8388608T", 1 << 63, ""},
		{"8388609T", 0, "too large"}, // 2^63 + 2^40
	} {
		got, err := ParseSize(c.in)
		if c.err == "" {
			if err != nil || got != c.want {
				t.Errorf("ParseSize(%q) = %d, %v; want %d", c.in, got, err, c.want)
			}
			continue
		}
		if err == nil {
			t.Errorf("ParseSize(%q) = %d, want an error containing %q", c.in, got, c.err)
			continue
		}
		if msg := err.Error(); !strings.Contains(msg, c.err) || !strings.Contains(msg, "--max-memory") || strings.Contains(msg, "\n") {
			t.Errorf("ParseSize(%q) error %q: want one line naming --max-memory and saying %q", c.in, msg, c.err)
		}
	}
}

func TestFormatSize(t *testing.T) {
	for _, c := range []struct {
		n    uint64
		want string
	}{
		{0, "0 B"},
		{1023, "1023 B"},
		{1024, "1.0 KiB"},
		{1536, "1.5 KiB"},
		{512 << 20, "512.0 MiB"},
		{43_608_000_000, "40.6 GiB"},
		{3 << 40, "3.0 TiB"},
		{1 << 52, "4096.0 TiB"},
	} {
		if got := FormatSize(c.n); got != c.want {
			t.Errorf("FormatSize(%d) = %q, want %q", c.n, got, c.want)
		}
	}
}

func TestBudget(t *testing.T) {
	b, err := NewBudget("1G")
	if err != nil || !b.Known || !b.FromFlag || b.Limit != 1<<30 {
		t.Fatalf("NewBudget(1G) = %+v, %v", b, err)
	}
	if err := b.Check("x.pdb", 1<<30); err != nil {
		t.Errorf("need = limit refused: %v", err)
	}
	err = b.Check("x.pdb", 1<<30+1)
	var tl *TooLargeError
	if !errors.As(err, &tl) || tl.Need != 1<<30+1 || tl.Limit != 1<<30 {
		t.Fatalf("need > limit: got %v", err)
	}
	if msg := err.Error(); msg != "x.pdb needs 1.0 GiB of memory, more than --max-memory 1.0 GiB" {
		t.Errorf("message %q", msg)
	}
	if _, err := NewBudget("0.5"); err == nil {
		t.Error("NewBudget(0.5) accepted")
	}
	auto, err := NewBudget("")
	if err != nil || auto.FromFlag {
		t.Fatalf("NewBudget(\"\") = %+v, %v", auto, err)
	}
	// Two reads of the available memory, moments apart while other
	// processes (the other test packages) allocate: equal within 1/16.
	if n, ok := Available(); auto.Known != ok || absDiff(auto.Limit, n) > max(auto.Limit, n)/16 {
		t.Errorf("NewBudget(\"\") = %+v, Available = %d, %v", auto, n, ok)
	}
	if err := (Budget{}).Check("x", 1<<62); err != nil {
		t.Errorf("unknown budget refused: %v", err)
	}
	avail := Budget{Limit: 21 << 30, Known: true}
	if msg := avail.Check("big.pdb", 43_608_000_000).Error(); msg != "big.pdb needs 40.6 GiB of memory, 21.0 GiB available (--max-memory overrides)" {
		t.Errorf("message %q", msg)
	}
}

func absDiff(a, b uint64) uint64 {
	if a > b {
		return a - b
	}
	return b - a
}
