package solver

import (
	"context"
	"math"
	"math/rand/v2"
	"slices"
	"testing"
	"time"

	"github.com/tilepdb/tilepdb/puzzle"
)

// TestBeamBytes checks beamBytes, the estimate by which the anytime beam
// search sizes its last beam to the memory limit, against the peak the
// budget measures for beams of several widths on 15-puzzle states: without
// an upper bound within a factor of 1.5 either way; with one (no set of
// kept states, and a beam that often ends early) at least the peak and at
// most 4 times it; the estimate growing with the width.
func TestBeamBytes(t *testing.T) {
	s := newSolver(t, set(t, 4, 4, "blank-last", []uint8{1, 2, 3, 5, 6}, []uint8{4, 7, 8, 11, 12}, []uint8{9, 10, 13, 14, 15}), Options{})
	rng := rand.New(rand.NewPCG(41, 42))
	ctx := context.Background()
	for range 3 {
		x := randomState(s, rng)
		b := puzzle.Board(slices.Clone(x[:s.n]))
		first, err := s.solveBeam(ctx, b, 100, Limits{})
		if err != nil {
			t.Fatal(err)
		}
		for _, upper := range []int{first.Length + 2, 0} {
			var prev int64
			for _, w := range []int{1000, 4000, 16000} {
				res, err := s.runBeamSearch(ctx, b, w, Limits{}, upper)
				if err != nil && res.Stats.PeakBytes == 0 {
					t.Fatalf("%v width %d: %v", b, w, err)
				}
				est, peak := s.beamBytes(w, beamLevels(res.Lower, upper), usesKept(upper)), res.Stats.PeakBytes
				lo, hi := float64(peak)/1.5, 1.5*float64(peak)
				if upper > 0 {
					// Pruned below upper, a beam often ends early or
					// with levels below the width: the estimate, every
					// level full down to upper, is then above its peak.
					lo, hi = float64(peak), 4*float64(peak)
				}
				if float64(est) < lo || float64(est) > hi {
					t.Fatalf("%v width %d below %d: estimate %d bytes, peak %d", b, w, upper, est, peak)
				}
				if est <= prev {
					t.Fatalf("width %d: estimate %d, not above the narrower beam's %d", w, est, prev)
				}
				prev = est
				t.Logf("width %d below %d: estimate %d bytes, peak %d (%.2f)", w, upper, est, peak, float64(est)/float64(peak))
			}
		}
	}
}

// TestNextWidth checks the anytime beam search's schedule of widths:
// doubling without a time limit or while the room left is at least
// beamDoubleRoom beams; then one last beam whose time, grown as measured,
// fills beamFinalSafety percent of the room and whose arrays fit that
// share of the memory limit (the widest such width); none when it would
// not be a quarter wider; and the growth exponent taken from the last two
// beams, within [1.1, 1.5].
func TestNextWidth(t *testing.T) {
	s := newSolver(t, set(t, 4, 4, "blank-last", []uint8{1, 2, 3, 5, 6}, []uint8{4, 7, 8, 11, 12}, []uint8{9, 10, 13, 14, 15}), Options{})
	const T = 100 * time.Second
	mk := func(limit time.Duration, elapsed time.Duration, maxBytes int64) *beamAnytime {
		a := &beamAnytime{s: s, maxWidth: MaxBeamWidth, began: time.Now().Add(-elapsed),
			best: Bounded{Length: 140, Lower: 110}} // far: the reserve is a sixteenth
		a.opt.TimeLimit, a.opt.MaxBytes = limit, maxBytes
		return a
	}
	t.Run("no time limit", func(t *testing.T) {
		a := mk(0, 0, 0)
		if next, final, ok := a.nextWidth(4000, Stats{Elapsed: time.Hour}); next != 8000 || final || !ok {
			t.Fatalf("got %d %v %v, want 8000 false true", next, final, ok)
		}
	})
	t.Run("doubles with room", func(t *testing.T) {
		a := mk(T, 10*time.Second, 0)
		room := a.left() - a.reserve() // about 83.75 s
		last := room / (beamDoubleRoom + 1)
		if next, final, ok := a.nextWidth(4000, Stats{Elapsed: last}); next != 8000 || final || !ok {
			t.Fatalf("room %v, last %v: got %d %v %v, want 8000 false true", room, last, next, final, ok)
		}
	})
	t.Run("last beam fills the room", func(t *testing.T) {
		a := mk(T, 40*time.Second, 1<<40)
		room := a.left() - a.reserve()
		last := room / 3
		next, final, ok := a.nextWidth(4000, Stats{Elapsed: last})
		if !final || !ok {
			t.Fatalf("got %d %v %v, want a last beam", next, final, ok)
		}
		// Its time at the default growth is about the room's safe share.
		est := float64(last) * math.Pow(float64(next)/4000, 1.15)
		if want := float64(room) * beamFinalSafety / 100; math.Abs(est-want) > 0.01*want {
			t.Fatalf("width %d: estimated %v, want %v", next, time.Duration(est), time.Duration(want))
		}
	})
	t.Run("last beam fits the memory", func(t *testing.T) {
		const maxBytes = 16 << 20
		a := mk(T, 40*time.Second, maxBytes)
		next, final, ok := a.nextWidth(4000, Stats{Elapsed: (a.left() - a.reserve()) * 2 / 11})
		levels := beamLevels(a.best.Lower, a.best.Length)
		if !final || !ok || s.beamBytes(next, levels, false) > maxBytes*beamFinalSafety/100 || s.beamBytes(next+1, levels, false) <= maxBytes*beamFinalSafety/100 {
			t.Fatalf("got %d %v %v: %d bytes, the limit's share %d", next, final, ok, s.beamBytes(next, levels, false), maxBytes*beamFinalSafety/100)
		}
	})
	t.Run("no room", func(t *testing.T) {
		a := mk(T, 40*time.Second, 1<<40)
		room := a.left() - a.reserve()
		if next, final, ok := a.nextWidth(4000, Stats{Elapsed: room}); ok || final {
			t.Fatalf("got %d %v %v, want no last beam", next, final, ok)
		}
	})
	t.Run("time already past the reserve", func(t *testing.T) {
		a := mk(T, T-time.Second, 1<<40) // room about -5.25 s
		if next, final, ok := a.nextWidth(4000, Stats{Elapsed: time.Second}); ok || final {
			t.Fatalf("got %d %v %v, want no last beam", next, final, ok)
		}
	})
	t.Run("width cap just above the last", func(t *testing.T) {
		a := mk(T, 40*time.Second, 1<<40)
		a.maxWidth = 4400 // less than a quarter wider than 4000
		if next, final, ok := a.nextWidth(4000, Stats{Elapsed: (a.left() - a.reserve()) / 3}); next != 4400 || !final || !ok {
			t.Fatalf("got %d %v %v, want the cap 4400 as the last beam", next, final, ok)
		}
	})
	t.Run("huge memory limit", func(t *testing.T) {
		for _, maxBytes := range []int64{1 << 40, 1 << 57, 1 << 62, math.MaxInt64} {
			a := mk(T, 40*time.Second, maxBytes)
			room := a.left() - a.reserve()
			next, final, ok := a.nextWidth(4000, Stats{Elapsed: room / 3})
			if !final || !ok || next <= 5000 {
				t.Fatalf("memory limit %d: got %d %v %v, want a last beam sized by the time", maxBytes, next, final, ok)
			}
		}
	})
	t.Run("growth", func(t *testing.T) {
		a := mk(T, 10*time.Second, 0)
		if g := a.growth(2000, time.Second); g != 1.15 {
			t.Fatalf("growth before two beams %v, want 1.15", g)
		}
		a.nextWidth(1000, Stats{Elapsed: 400 * time.Millisecond})
		for _, c := range []struct {
			last time.Duration
			want float64
		}{{1000 * time.Millisecond, math.Log2(2.5)}, {800 * time.Millisecond, 1.1}, {4 * time.Second, 1.5}} {
			if g := a.growth(2000, c.last); math.Abs(g-c.want) > 1e-9 {
				t.Fatalf("1000 in 400ms, 2000 in %v: growth %v, want %v", c.last, g, c.want)
			}
		}
	})
	t.Run("reserve", func(t *testing.T) {
		a := mk(T, 0, 0)
		if r := a.reserve(); r != T/beamFarShare {
			t.Fatalf("far from the bound: reserve %v, want %v", r, T/beamFarShare)
		}
		a.best.Lower = a.best.Length - beamCloseGap
		if r := a.reserve(); r != T/beamBoundShare {
			t.Fatalf("close to the bound: reserve %v, want %v", r, T/beamBoundShare)
		}
	})
}

// TestAgain checks the width of one more last beam after a last beam that
// ended early: sized to the room left from the last beam's time (the same
// estimate as nextWidth's last beam, narrower or wider), never the same
// width again, none narrower than a quarter of the last, none without a
// time limit, with no room, or while the gap is close (the room is then
// IDA*'s).
func TestAgain(t *testing.T) {
	s := newSolver(t, set(t, 4, 4, "blank-last", []uint8{1, 2, 3, 5, 6}, []uint8{4, 7, 8, 11, 12}, []uint8{9, 10, 13, 14, 15}), Options{})
	const T = 100 * time.Second
	mk := func(limit, elapsed time.Duration, lower int) *beamAnytime {
		a := &beamAnytime{s: s, maxWidth: MaxBeamWidth, began: time.Now().Add(-elapsed),
			best: Bounded{Length: 140, Lower: lower}}
		a.opt.TimeLimit, a.opt.MaxBytes = limit, 1<<40
		return a
	}
	const w = 100000
	cases := []struct {
		name    string
		elapsed time.Duration // of the time limit, when the last beam ended
		last    time.Duration // the last beam's time
		lower   int
		ok      bool
	}{
		{"a third of the room left", 60 * time.Second, 40 * time.Second, 110, true},
		{"room for a wider beam", 30 * time.Second, 40 * time.Second, 110, true},
		{"too little room", 90 * time.Second, 40 * time.Second, 110, false},
		{"past the reserve", T - time.Second, 40 * time.Second, 110, false},
		{"close gap", 60 * time.Second, 40 * time.Second, 140 - beamCloseGap, false},
	}
	for _, c := range cases {
		t.Run(c.name, func(t *testing.T) {
			a := mk(T, c.elapsed, c.lower)
			room := a.left() - a.reserve()
			next, ok := a.again(w, Stats{Elapsed: c.last})
			if ok != c.ok {
				t.Fatalf("room %v after a beam of %v: got %d %v, want ok %v", room, c.last, next, ok, c.ok)
			}
			if !ok {
				return
			}
			if next == w || next < w/4 {
				t.Fatalf("got width %d, want another than %d and at least %d", next, w, w/4)
			}
			est := float64(c.last) * math.Pow(float64(next)/w, 1.15)
			if want := float64(room) * beamFinalSafety / 100; math.Abs(est-want) > 0.01*want {
				t.Fatalf("width %d: estimated %v, want %v", next, time.Duration(est), time.Duration(want))
			}
		})
	}
	t.Run("no time limit", func(t *testing.T) {
		if next, ok := mk(0, 0, 110).again(w, Stats{Elapsed: time.Second}); ok {
			t.Fatalf("got %d %v, want no beam", next, ok)
		}
	})
}
