package solver

import (
	"context"
	"flag"
	"strings"
	"testing"

	"github.com/tilepdb/tilepdb/format"
	"github.com/tilepdb/tilepdb/puzzle"
)

var (
	beamSet   = flag.String("beamset", "", "set file or comma-separated tables for BenchmarkBeam (e.g. the 35-puzzle preset's; the benchmark skips without it)")
	beamBoard = flag.String("beamboard", "8,10,7,18,0,6,13,12,23,22,5,4,2,9,15,14,1,20,31,35,11,21,17,16,34,3,26,33,19,24,27,29,25,28,32,30", "board of BenchmarkBeam, cells in row order, blank 0 (default: DeepCubeA's 35-puzzle instance 0)")
	beamWidth = flag.Int("beamwidth", 32000, "width of BenchmarkBeam's beam search")
	beamRefl  = flag.Bool("beamreflect", false, "BenchmarkBeam with --reflect")
	beamUpper = flag.Int("beamupper", 0, "BenchmarkBeam's upper bound on the length (0: none); the anytime beam search's beams after the first have one")
)

// BenchmarkBeam runs one beam search of -beamwidth on -beamboard with the
// tables of -beamset (with -beamreflect as solve --reflect, below
// -beamupper moves when it is set) per iteration and reports generated
// nodes per second:
// the cost per node of the beam search on big boards (go test -run '^$'
// -bench Beam -beamset data/35-puzzle.set.json ./solver, with -cpuprofile
// for where it goes).
func BenchmarkBeam(b *testing.B) {
	if *beamSet == "" {
		b.Skip("use -beamset SET")
	}
	s, err := format.OpenSet(strings.Split(*beamSet, ",")...)
	if err != nil {
		b.Fatal(err)
	}
	board, err := puzzle.ParseBoard(*beamBoard, s.Geom.N())
	if err != nil {
		b.Fatal(err)
	}
	sv := newSolver(b, s, Options{Reflect: *beamRefl})
	var nodes uint64
	for b.Loop() {
		res, err := sv.runBeamSearch(context.Background(), board, *beamWidth, Limits{MaxBytes: 8 << 30}, *beamUpper)
		if err != nil {
			b.Fatal(err)
		}
		nodes += res.Stats.Generated
	}
	b.ReportMetric(float64(nodes)/b.Elapsed().Seconds()/1e6, "Mnodes/s")
}
