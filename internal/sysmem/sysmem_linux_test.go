//go:build linux

package sysmem

import "testing"

func TestMemAvailable(t *testing.T) {
	for _, c := range []struct {
		in   string
		want uint64
		ok   bool
	}{
		{"MemTotal:       24683584 kB\nMemFree:  1 kB\nMemAvailable:   23793820 kB\n", 23793820 << 10, true},
		{"MemAvailable: 0 kB\n", 0, true},
		{"MemTotal: 5 kB\n", 0, false}, // kernels before 3.14
		{"MemAvailable: 12 MB\n", 0, false},
		{"MemAvailable: x kB\n", 0, false},
		{"MemAvailable: 99999999999999999999 kB\n", 0, false},
		{"", 0, false},
	} {
		got, ok := memAvailable(c.in)
		if got != c.want || ok != c.ok {
			t.Errorf("memAvailable(%q) = %d, %v; want %d, %v", c.in, got, ok, c.want, c.ok)
		}
	}
}

func TestRoom(t *testing.T) {
	for _, c := range []struct {
		limit, usage, want uint64
		ok                 bool
	}{
		{1 << 30, 1 << 28, 3 << 28, true},
		{1 << 30, 1 << 31, 0, true},
		{9223372036854771712, 1 << 30, 0, false}, // cgroup v1 "no limit"
	} {
		got, ok := room(c.limit, c.usage)
		if got != c.want || ok != c.ok {
			t.Errorf("room(%d, %d) = %d, %v; want %d, %v", c.limit, c.usage, got, ok, c.want, c.ok)
		}
	}
}

func TestAvailableOnLinux(t *testing.T) {
	n, ok := Available()
	if !ok || n == 0 {
		t.Fatalf("Available() = %d, %v on Linux", n, ok)
	}
}
