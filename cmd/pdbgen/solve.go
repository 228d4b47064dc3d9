package main

import (
	"context"
	"errors"
	"flag"
	"fmt"
	"io"
	"math"
	"runtime"
	"runtime/debug"
	"slices"
	"strconv"
	"strings"
	"sync"
	"sync/atomic"
	"time"

	"github.com/tilepdb/tilepdb/compact"
	"github.com/tilepdb/tilepdb/format"
	"github.com/tilepdb/tilepdb/internal/sysmem"
	"github.com/tilepdb/tilepdb/puzzle"
	"github.com/tilepdb/tilepdb/solver"
)

// solveConfig is the validated command line of solve: what Solver.Search
// takes for every board.
type solveConfig struct {
	opt solver.SearchOptions
}

// solveFlags are the values of solve's algorithm and limit flags as
// given; set holds the names of the flags given on the command line.
type solveFlags struct {
	set                                               map[string]bool
	alg, weight, schedule, maxNodes, timeLimit, width string
}

// solveAlias is a flag that chooses an algorithm by itself (today's
// spellings, kept as aliases of --algorithm): alone it chooses alg; with
// an algorithm of with (chosen by --algorithm or an earlier alias) it
// turns it into to[i]; with any other algorithm it is a usage error.
type solveAlias struct {
	flag string
	alg  solver.Algorithm
	with []solver.Algorithm
	to   []solver.Algorithm
}

// solveAliases are the alias flags, in the order they are applied:
// --weight W is --algorithm wastar, --anytime and --schedule are
// --algorithm anytime, --restarts (or --anytime --restarts) is
// --algorithm restarts, --beam (or --anytime --beam) is --algorithm
// anytime-beam.
var solveAliases = []solveAlias{
	{"weight", solver.AlgWeighted, []solver.Algorithm{solver.AlgWeighted}, []solver.Algorithm{solver.AlgWeighted}},
	{"anytime", solver.AlgAnytime, anytimeAlgs, anytimeAlgs},
	{"schedule", solver.AlgAnytime, anytimeAlgs, anytimeAlgs},
	{"restarts", solver.AlgRestarts, anytimeAlgs, []solver.Algorithm{solver.AlgRestarts, solver.AlgRestarts, solver.AlgAnytimeBeamSearch}},
	{"beam", solver.AlgAnytimeBeamSearch, anytimeAlgs, []solver.Algorithm{solver.AlgAnytimeBeamSearch, solver.AlgAnytimeBeamSearch, solver.AlgAnytimeBeamSearch}},
}

// anytimeAlgs are the algorithms --anytime names: ARA* and its two
// variants.
var anytimeAlgs = []solver.Algorithm{solver.AlgAnytime, solver.AlgRestarts, solver.AlgAnytimeBeamSearch}

// aliasesOf lists the alias spellings of alg for the help: "--weight W"
// and the like.
func aliasesOf(alg solver.Algorithm) []string {
	switch alg {
	case solver.AlgWeighted:
		return []string{"--weight W"}
	case solver.AlgAnytime:
		return []string{"--anytime", "--schedule W,W,..."}
	case solver.AlgRestarts:
		return []string{"--restarts", "--anytime --restarts"}
	case solver.AlgAnytimeBeamSearch:
		return []string{"--beam", "--anytime --beam"}
	}
	return nil
}

// parseSolveConfig checks the algorithm and limit flags (all usage errors,
// exit 2).
func parseSolveConfig(f solveFlags) (solveConfig, error) {
	var c solveConfig
	alg, err := chooseAlgorithm(f.set, f.alg)
	if err != nil {
		return c, err
	}
	c.opt.Algorithm = alg
	if c.opt.Params, err = solveParams(f, alg); err != nil {
		return c, err
	}
	if f.set["max-nodes"] {
		n, err := strconv.ParseUint(strings.TrimSpace(f.maxNodes), 10, 64)
		if err != nil || n == 0 {
			return c, usageErr("--max-nodes %q: want a whole number of states >= 1", f.maxNodes)
		}
		if alg == solver.AlgIDA {
			return c, usageErr("--max-nodes bounds the states stored by wastar, anytime and bidirectional; IDA* stores none")
		}
		c.opt.MaxNodes = n
	}
	if f.set["time-limit"] {
		d, err := time.ParseDuration(strings.TrimSpace(f.timeLimit))
		if err != nil || d <= 0 {
			return c, usageErr("--time-limit %q: want a duration > 0 such as 500ms, 10s or 2m", f.timeLimit)
		}
		c.opt.TimeLimit = d
	}
	return c, nil
}

// solveParams parses the parameter flags of alg (--weight, --schedule,
// --width) into its solver.Params; a parameter of another algorithm is a
// usage error.
func solveParams(f solveFlags, alg solver.Algorithm) (solver.Params, error) {
	if alg == solver.AlgAnytimeBeamSearch && (f.set["schedule"] || f.set["restarts"]) {
		if f.set["beam"] {
			return nil, usageErr("--beam replaces the weights of --anytime: it takes no --schedule and no --restarts")
		}
		return nil, usageErr("--algorithm anytime-beam takes no --schedule and no --restarts")
	}
	if f.set["width"] && alg != solver.AlgBeamSearch && alg != solver.AlgAnytimeBeamSearch {
		return nil, usageErr("--width goes with --algorithm beam or --anytime --beam")
	}
	switch alg.Params().(type) {
	case solver.WeightParams:
		if !f.set["weight"] {
			return nil, nil
		}
		w, err := solver.ParseWeight(f.weight)
		if err != nil {
			return nil, usageErr("--weight %q: %v", f.weight, err)
		}
		return solver.WeightParams{Weight: w}, nil
	case solver.ScheduleParams:
		if !f.set["schedule"] {
			return nil, nil
		}
		ws, err := parseSchedule(f.schedule)
		if err != nil {
			return nil, err
		}
		return solver.ScheduleParams{Schedule: ws}, nil
	case solver.WidthParams:
		if !f.set["width"] {
			return nil, nil
		}
		n, err := strconv.Atoi(strings.TrimSpace(f.width))
		if err != nil || n < 1 || n > solver.MaxBeamWidth {
			return nil, usageErr("--width %q: want a whole number of states from 1 to %d", f.width, solver.MaxBeamWidth)
		}
		return solver.WidthParams{Width: n}, nil
	}
	return nil, nil
}

// chooseAlgorithm returns the algorithm of --algorithm name, turned by
// the alias flags given (solveAliases), or the one the aliases choose,
// IDA* when none; an alias of another algorithm than the one chosen is a
// usage error.
func chooseAlgorithm(set map[string]bool, name string) (solver.Algorithm, error) {
	alg, chosen := solver.AlgIDA, name != ""
	if chosen {
		var err error
		if alg, err = solver.ParseAlgorithm(name); err != nil {
			return alg, usageErr("--algorithm %q: %v", name, err)
		}
	}
	for _, a := range solveAliases {
		if !set[a.flag] {
			continue
		}
		if !chosen {
			alg, chosen = a.alg, true
			continue
		}
		i := slices.Index(a.with, alg)
		if i < 0 {
			return alg, usageErr("--%s goes with --algorithm %s, not %s", a.flag, a.alg, alg)
		}
		alg = a.to[i]
	}
	return alg, nil
}

// parseSchedule parses --schedule: weights (solver.ParseWeight) separated
// by commas, strictly decreasing.
func parseSchedule(schedule string) ([]float64, error) {
	var ws []float64
	for _, f := range strings.Split(schedule, ",") {
		w, err := solver.ParseWeight(strings.TrimSpace(f))
		if err != nil {
			return nil, usageErr("--schedule %q: weight %q: %v", schedule, f, err)
		}
		if n := len(ws); n > 0 && w >= ws[n-1] {
			return nil, usageErr("--schedule %q: the weights must strictly decrease", schedule)
		}
		ws = append(ws, w)
	}
	return ws, nil
}

// The memory of a solve whose algorithm stores states (everything but
// IDA*) is bounded as a whole process: the tables, the runtime and the
// searches' arrays, and the garbage of their growth steps, which the
// collector is made to free in time by the Go runtime's memory limit
// (debug.SetMemoryLimit). Counting only the arrays let a bidirectional
// search under a 256 MiB budget (-j 1) peak at 306 MiB resident, and one
// under the default 1 GiB at 1.27 GiB.
//
// nonGoBytes is the part of the resident set the Go runtime's memory limit
// does not see (the binary's pages), at most an eighth of the budget.
const nonGoBytes = 8 << 20

// searchMemory is the memory plan of one solve command whose algorithm
// stores states.
type searchMemory struct {
	perSearch int64 // solver.Limits.MaxBytes of each search
	limit     int64 // the Go runtime's memory limit (debug.SetMemoryLimit)
}

// planSearchMemory is the memory plan when workers searches run at once
// beside tables needing tableNeed bytes (loadMemoryNeed, runtimeBase
// included) and the exact tail's goal ball, ball bytes (0 without). The process is bounded by --max-memory, or without it by
// the tables plus solver.DefaultMaxBytes per search (within the memory
// available, when known). Of what the tables leave, each search gets an
// equal share of 7/8 for its arrays (the rest is room for the runtime and
// the garbage of growth steps); the memory limit is the process bound
// less the pages the Go runtime does not see. Less than 1 MiB per search
// is refused.
func planSearchMemory(b sysmem.Budget, tableNeed, ball uint64, workers int) (searchMemory, error) {
	tableNeed = sysmem.SatAdd(tableNeed, ball)
	process := sysmem.SatAdd(tableNeed, sysmem.SatMul(uint64(workers), solver.DefaultMaxBytes))
	if b.Known && (b.FromFlag || b.Limit < process) {
		process = b.Limit
	}
	var room uint64
	if process > tableNeed {
		room = process - tableNeed
	}
	share := room / 8 * 7 / uint64(workers)
	if share < sysmem.MinSize {
		src := "the memory available"
		if b.FromFlag {
			src = "--max-memory"
		}
		what := "the tables"
		if ball > 0 {
			what = fmt.Sprintf("the tables and %s for --polish tail's goal ball", sysmem.FormatSize(ball))
		}
		return searchMemory{}, usageErr("%s %s leaves %s for the search after %s for %s: less than 1 MiB for each of the %d searches (-j)",
			src, sysmem.FormatSize(process), sysmem.FormatSize(room), sysmem.FormatSize(tableNeed), what, workers)
	}
	limit := process - min(process/8, nonGoBytes)
	return searchMemory{perSearch: int64(min(share, math.MaxInt64)), limit: int64(min(limit, math.MaxInt64))}, nil
}

// runSolve solves each board on stdin with the algorithm chosen (package
// solver) and prints one line per board as text or JSON (solveText,
// solveJSON), boards solved in parallel and answered in input order
// (boards.go); --anytime also prints each improvement as soon as found.
func runSolve(e *env, args []string) error {
	fs := newFlags(e, "solve")
	reflect := fs.Bool("reflect", false, "also look up the state reflected about the main diagonal and take the maximum (beam searches on an additive set rank their children by the sum of the two sides)")
	workers := fs.Int("j", runtime.NumCPU(), "boards solved in parallel")
	threads := fs.Int("t", 1, "threads sharing each board's IDA* search, 1 to 256 (parallel IDA*; moves and node counts do not depend on it)")
	asJSON := fs.Bool("json", false, "one JSON object per line: board, length, moves, nodes, solvable (and bounds and statistics for the other algorithms)")
	from := fs.String("from", "", "convention of the input boards when it differs from the tables' goal: blank-first")
	maxMem := fs.String("max-memory", "", maxMemoryHelp+"; covers the tables, for IDA* their direct index copies (those that do not fit are left out), and for wastar, anytime and bidirectional the searches (an equal share each with -j; at most 1 GiB each without this flag)")
	alg := fs.String("algorithm", "", algorithmFlagHelp())
	weight := fs.String("weight", "", fmt.Sprintf("weighted A* with f = g + W*h, 1 <= W <= %d: a solution at most W times the optimum (implies --algorithm wastar; default %g)", solver.MaxWeight, solver.DefaultWeight))
	anytime := fs.Bool("anytime", false, "ARA*: print a first solution at once, then each better one, down to a proven optimum (same as --algorithm anytime; with --restarts or --beam, their algorithm)")
	schedule := fs.String("schedule", "", fmt.Sprintf("the weights of --anytime, strictly decreasing, each in [1, %d] (default 2.5,1.8,1.3,1; a last weight above 1 stops there with its proven bound)", solver.MaxWeight))
	restarts := fs.Bool("restarts", false, "same as --algorithm restarts: a fresh weighted A* per weight of the schedule instead of ARA* (restarting weighted A*, Richter, Thayer & Ruml 2010): better first solutions on big boards")
	anytimeBeam := fs.Bool("beam", false, fmt.Sprintf("same as --algorithm anytime-beam: beam searches of widths %d, twice that, and so on, the last one as wide as the time left allows, then IDA* for the lower bound; far shorter solutions than weighted A* on big boards", solver.FirstBeamWidth))
	width := fs.String("width", "", fmt.Sprintf("states kept per level by --algorithm beam (default %d), or the largest width of --algorithm anytime-beam; 1 to %d", solver.DefaultBeamWidth, solver.MaxBeamWidth))
	maxNodes := fs.String("max-nodes", "", "stop a search that would store more than N states (wastar, anytime, beam, bidirectional)")
	timeLimit := fs.String("time-limit", "", "stop each board's search after this long, e.g. 500ms, 10s, 2m (answers the best solution found, if any)")
	board := fs.String("board", "", "board size WxH for --algorithm bidirectional without table files")
	goal := fs.String("goal", "", "goal of --board: blank-last (default), blank-first or a board")
	zaBytes := fs.Bool("zero-aware-bytes", false, zeroAwareBitsHelp)
	compact := fs.Bool("compact-index", false, "IDA*: look the tables up through their compact index only, without the direct copy (N^k bytes per table of k tiles on N cells) that IDA* otherwise makes when it fits in memory: less memory and set-up time, a slower search")
	polish := fs.String("polish", "windows", "--algorithm anytime-beam: the path improvement after the beams, a comma-separated list of windows (windows of 16 to 128 moves re-solved by IDA*, cycles cut) and tail (an exact tail: IDA* from ever further back along the path, meeting a ball of the states within about 14 moves of the goal), or none")
	rankWeights := fs.String("rank-weights", "", fmt.Sprintf("beam searches: rank each level's children by W1*h1 + W2*h2 + ... over the additive set's parts (one weight per part, in the set's order, each 0 to %d; scripts/fit-rank-weights.py fits them to solutions) instead of by h; bounds still come from h", solver.MaxRankWeight))
	files, err := parseFlags(fs, args)
	if err != nil {
		return err
	}
	set := map[string]bool{}
	fs.Visit(func(f *flag.Flag) { set[f.Name] = true })
	if !*anytime {
		delete(set, "anytime") // --anytime=false
	}
	if !*restarts {
		delete(set, "restarts")
	}
	if !*anytimeBeam {
		delete(set, "beam")
	}
	cfg, err := parseSolveConfig(solveFlags{set: set, alg: *alg, weight: *weight, schedule: *schedule, maxNodes: *maxNodes, timeLimit: *timeLimit, width: *width})
	if err != nil {
		return err
	}
	if *from != "" && *from != puzzle.GoalBlankFirst {
		return usageErr("--from: only %q is supported", puzzle.GoalBlankFirst)
	}
	weights, err := parseRankWeights(*rankWeights, cfg.opt.Algorithm)
	if err != nil {
		return err
	}
	steps, err := parsePolish(*polish, set["polish"], cfg.opt.Algorithm)
	if err != nil {
		return err
	}
	if err := checkWorkers(*workers); err != nil {
		return err
	}
	if err := checkThreads(*threads); err != nil {
		return err
	}
	budget, err := memoryBudget(*maxMem)
	if err != nil {
		return err
	}
	src := solveSource{files: files, board: *board, goal: *goal, from: *from, budget: budget,
		opt: solver.Options{Reflect: *reflect, Threads: *threads, Compact: *compact, ZeroAwareBits: !*zaBytes, RankWeights: weights, Polish: steps}}
	s, err := src.open(e, cfg.opt.Algorithm)
	if err != nil {
		return err
	}
	if cfg.opt.Algorithm != solver.AlgIDA {
		need := uint64(runtimeBase)
		if len(files) > 0 {
			need = heldLoadMemoryNeed(e, files, false)
		}
		var ball uint64
		if cfg.opt.Algorithm == solver.AlgAnytimeBeamSearch {
			ball = s.GoalBallBytes() // one per process, shared by the searches
		}
		mem, err := planSearchMemory(budget, need, ball, *workers)
		if err != nil {
			return err
		}
		cfg.opt.MaxBytes = mem.perSearch
		defer debug.SetMemoryLimit(debug.SetMemoryLimit(mem.limit))
	}
	return solveBoards(e, &solveRun{opt: cfg.opt, s: s, json: *asJSON,
		hint: newConventionHint(e.stderr, "solve", s.Geometry(), s.Goal(), *from != "")}, *workers)
}

// solveSource is what solve's Solver is made from: the table files, or
// without them the --board and --goal of a bidirectional search; opt holds
// the -t, --reflect, --compact-index, --zero-aware-bytes, --rank-weights
// and --polish flags.
type solveSource struct {
	files             []string
	board, goal, from string
	budget            sysmem.Budget
	opt               solver.Options
}

// open returns the Solver for alg: from the tables (openTables), or
// without tables for the bidirectional search.
func (src solveSource) open(e *env, alg solver.Algorithm) (*solver.Solver, error) {
	if len(src.files) > 0 {
		return src.openTables(e, alg)
	}
	if alg.UsesTables() {
		return nil, usageErr("no table files given (usage: pdbgen solve [flags] FILE... < boards; only --algorithm bidirectional solves without tables, with --board WxH)")
	}
	if src.board == "" {
		return nil, usageErr("--algorithm bidirectional without table files needs --board WxH (and optionally --goal)")
	}
	if src.from != "" {
		return nil, usageErr("--from needs table files; without them give the goal with --goal %s", puzzle.GoalBlankFirst)
	}
	g, err := puzzle.ParseGeometry(src.board)
	if err != nil {
		return nil, usageErr("--board: %v", err)
	}
	goal := src.goal
	if goal == "" {
		goal = puzzle.GoalBlankLast
	}
	gb, err := puzzle.ParseGoal(goal, g)
	if err != nil {
		return nil, usageErr("--goal: %v", err)
	}
	s, err := solver.NewBoard(g, gb)
	if err != nil {
		return nil, usageErr("--goal: %v", err)
	}
	return s, nil
}

// openTables loads the table files (within the memory budget, refusing
// --board and --goal that differ from the tables') and returns the Solver
// for alg: the algorithms other than IDA* search through the compact
// index, bidirectional without reflection; IDA*'s direct index copies are
// made while they fit in the budget (a warning says when not all do).
func (src solveSource) openTables(e *env, alg solver.Algorithm) (*solver.Solver, error) {
	// IDA* carries each zero-aware part's value along its path; the other
	// searches would walk to the goal at every state they load.
	bits := src.opt.ZeroAwareBits && alg == solver.AlgIDA && catalogueFiles(e, src.files)
	need := heldLoadMemoryNeed(e, src.files, bits)
	if err := checkLoadMemoryNeed(src.budget, src.files, need); err != nil {
		return nil, err
	}
	if err := e.context().Err(); err != nil {
		return nil, err
	}
	var tset *format.Set
	var err error
	packed := map[*format.Table]*compact.Table{}
	if bits {
		// The automaton the catalogue's IDA* prunes with (1.4 CPU-s),
		// compiled beside the load instead of after it.
		go solver.PrepareCatalogue()
	}
	if bits || anyHeldAsCodes(e, src.files) {
		tset, err = openTablesHeld(e, src.files, packed, bits)
	} else {
		tset, err = openTables(e, src.files) // Ctrl-C ends the wait at once
	}
	if err != nil {
		return nil, err
	}
	if err := checkBoardFlags(src.board, src.goal, tset); err != nil {
		return nil, err
	}
	opt := src.opt
	opt.Reflect = opt.Reflect && alg.UsesTables()
	opt.FromBlankFirst = src.from != ""
	opt.Compact = opt.Compact || alg != solver.AlgIDA
	opt.ZeroAwareBits, opt.Packed = bits, packed
	if !opt.Compact && src.budget.Known {
		// The direct copies that fit beside the tables; the other
		// tables are searched through their compact index.
		opt.MaxDirectBytes = 1 // none
		if src.budget.Limit > need+1 {
			opt.MaxDirectBytes = src.budget.Limit - need
		}
	}
	s, err := solver.NewContext(e.context(), tset, opt)
	if err != nil {
		return nil, usageErr("%v", err)
	}
	if want := solver.DirectIndexBytes(tset); !opt.Compact && s.DirectBytes() < want {
		fmt.Fprintf(e.stderr, "pdbgen solve: the direct index copies of the tables (%s) do not all fit in the memory budget (%s); the search uses %s of them and the compact index for the rest (slower; --compact-index silences this)\n",
			sysmem.FormatSize(want), sysmem.FormatSize(src.budget.Limit), sysmem.FormatSize(s.DirectBytes()))
	}
	return s, nil
}

// solveBoards answers the boards on stdin with r's searches, workers at a
// time, in input order (answerBoardsStream; --anytime also prints each
// improvement as soon as found), then says what stopped early.
func solveBoards(e *env, r *solveRun, workers int) error {
	// On a terminal, a status line says how many boards are answered and
	// how long the search has run, since one board can take minutes.
	// It shows only while a search has run for a second without an answer,
	// so that it stays out of the way of interactive use.
	var started, finished, lastAnswer atomic.Int64
	begin := time.Now()
	lastAnswer.Store(int64(time.Since(begin)))
	status := startStatus(e, func() (string, int64, int64) {
		busy := started.Load() - finished.Load()
		quiet := time.Since(begin) - time.Duration(lastAnswer.Load())
		if busy == 0 || quiet < time.Second {
			return "", 0, 0
		}
		return fmt.Sprintf("solving: %d answered, %d searching for %s", finished.Load(), busy, quiet.Round(time.Second)), 0, 0
	})
	defer status.stop()
	stdout, stderr := e.stdout, e.stderr
	if status != nil {
		stdout, stderr = clearingWriter{e.stdout, status}, clearingWriter{e.stderr, status}
	}
	err := answerBoardsStream(e.context(), e.stdin, stdout, stderr, r.s.Geometry().N(), workers, r.opt.Algorithm.Anytime(), func(ctx context.Context, b puzzle.Board, emit func(string)) (string, error) {
		if !r.enter() { // every search says what it proved when interrupted
			return "", ctx.Err()
		}
		defer r.wg.Done()
		if started.Add(1)-finished.Load() == 1 {
			lastAnswer.Store(int64(time.Since(begin))) // the clock starts when a search does
		}
		defer func() {
			finished.Add(1)
			lastAnswer.Store(int64(time.Since(begin)))
		}()
		return r.answer(ctx, b, emit)
	})
	r.close()
	return r.summary(e, stderr, err)
}

// summary is the end of solve: after an interruption, what the searches in
// progress had proven (on stderr); else the boards with bad lines and
// those a limit stopped without a solution, as one exit-1 error.
func (r *solveRun) summary(e *env, stderr io.Writer, err error) error {
	if e.context().Err() != nil {
		for _, p := range r.interrupted {
			fmt.Fprintf(stderr, "pdbgen solve: interrupted while solving %s\n", p)
		}
		return err
	}
	var msgs []string
	if errors.Is(err, errBadLines) {
		msgs = append(msgs, err.Error())
		err = nil
	}
	if err != nil {
		return err
	}
	if n := r.unanswered.Load(); n > 0 {
		if n == 1 {
			msgs = append(msgs, "no solution within the limits: "+r.firstStop)
		} else {
			msgs = append(msgs, fmt.Sprintf("%d boards stopped by a limit before a solution was found", n))
		}
	}
	if len(msgs) > 0 {
		return dataErr(errors.New(strings.Join(msgs, "; ")))
	}
	return nil
}

// checkBoardFlags refuses --board or --goal that differ from the tables'.
func checkBoardFlags(board, goal string, set *format.Set) error {
	if board != "" {
		g, err := puzzle.ParseGeometry(board)
		if err != nil {
			return usageErr("--board: %v", err)
		}
		if g != set.Geom {
			return usageErr("--board %s, but the tables are for the %s board", g, set.Geom)
		}
	}
	if goal != "" {
		gb, err := puzzle.ParseGoal(goal, set.Geom)
		if err != nil {
			return usageErr("--goal: %v", err)
		}
		if !gb.Equal(set.Goal) {
			return usageErr("--goal %s, but the tables' goal is %s", goal, puzzle.GoalName(set.Geom, set.Goal))
		}
	}
	return nil
}

// solveRun is the state shared by the answers of one solve command.
type solveRun struct {
	opt  solver.SearchOptions
	s    *solver.Solver
	json bool
	hint *conventionHint // said once for an unsolvable board solvable in the other goal convention

	mu          sync.Mutex
	wg          sync.WaitGroup // searches in progress
	done        bool           // no new search may start
	interrupted []string       // what the searches stopped by a signal had proven
	firstStop   string         // the first limit that left a board without a solution
	unanswered  atomic.Int64   // boards stopped by a limit without a solution
}

// enter registers a search; false once close was called.
func (r *solveRun) enter() bool {
	r.mu.Lock()
	defer r.mu.Unlock()
	if r.done {
		return false
	}
	r.wg.Add(1)
	return true
}

// close waits for the searches in progress, which stop at once when the
// context has ended (answerBoards does not wait for the reading goroutine,
// which answers the boards itself with -j 1).
func (r *solveRun) close() {
	r.mu.Lock()
	r.done = true
	r.mu.Unlock()
	r.wg.Wait()
}

// answer solves one board with the configured algorithm.
func (r *solveRun) answer(ctx context.Context, b puzzle.Board, emit func(string)) (string, error) {
	opt := r.opt
	if opt.Algorithm.Anytime() {
		opt.OnSolution = func(a solver.Bounded) { emit(r.format(a, false)) }
	}
	out, err := r.s.Search(ctx, b, opt)
	switch {
	case err == nil:
		if !out.Solvable {
			r.hint.unsolvable(b)
		}
		return r.format(out, true), nil
	case out.Stopped == "":
		return "", err // bad input: the line's problem
	case out.Stopped == solver.StopInterrupted:
		r.mu.Lock()
		r.interrupted = append(r.interrupted, out.Proven())
		r.mu.Unlock()
		return "", err
	}
	if out.Length < 0 && r.unanswered.Add(1) == 1 {
		r.mu.Lock()
		r.firstStop = fmt.Sprintf("%s: %v", out.Board, err)
		if out.Lower >= 0 {
			r.firstStop += fmt.Sprintf("; proven: optimum >= %d moves", out.Lower)
		}
		r.mu.Unlock()
	}
	return r.format(out, true), nil
}

// format writes an answer as one line of text or JSON (solver.Bounded's
// Text and JSON: a complete IDA* answer in solver.Result's form). final is
// false for the improvements an anytime algorithm prints before its
// answer.
func (r *solveRun) format(b solver.Bounded, final bool) string {
	if r.json {
		return b.JSON(final)
	}
	return b.Text(final)
}

// algorithmFlagHelp is the help of --algorithm, from the registry.
func algorithmFlagHelp() string {
	var parts []string
	for _, name := range solver.Algorithms() {
		alg, _ := solver.ParseAlgorithm(name)
		parts = append(parts, fmt.Sprintf("%s (%s)", name, alg.Summary()))
	}
	return strings.Join(parts[:len(parts)-1], ", ") + " or " + parts[len(parts)-1]
}

// algorithmsHelp is the paragraph of solve's help on the algorithms,
// from the registry: each one's description, its parameter flag and its
// alias spellings.
func algorithmsHelp() string {
	var sb strings.Builder
	sb.WriteString("Algorithms (--algorithm NAME; the spellings in brackets are aliases):\n")
	for _, name := range solver.Algorithms() {
		alg, _ := solver.ParseAlgorithm(name)
		line := name + ": " + alg.About()
		if p := paramHelp(alg); p != "" {
			line += "; " + p
		}
		if a := aliasesOf(alg); len(a) > 0 {
			line += " [" + strings.Join(a, ", ") + "]"
		}
		wrapHelp(&sb, line+".", "  ", "    ", 76)
	}
	return sb.String()
}

// wrapHelp writes text's words in lines of at most width columns (a
// longer word stands alone), the first indented by first, the others by
// rest.
func wrapHelp(sb *strings.Builder, text, first, rest string, width int) {
	col := 0
	for i, w := range strings.Fields(text) {
		switch {
		case i == 0:
			sb.WriteString(first)
			col = len(first)
		case col+1+len(w) > width:
			sb.WriteString("\n" + rest)
			col = len(rest)
		default:
			sb.WriteByte(' ')
			col++
		}
		sb.WriteString(w)
		col += len(w)
	}
	sb.WriteByte('\n')
}

// paramHelp says which flag gives alg's parameters (solver.Params).
func paramHelp(alg solver.Algorithm) string {
	switch alg.Params().(type) {
	case solver.WeightParams:
		return fmt.Sprintf("--weight W, 1 <= W <= %d (default %g)", solver.MaxWeight, solver.DefaultWeight)
	case solver.ScheduleParams:
		return fmt.Sprintf("--schedule W,W,...: strictly decreasing weights in [1, %d] (default 2.5,1.8,1.3,1)", solver.MaxWeight)
	case solver.WidthParams:
		if alg == solver.AlgBeamSearch {
			return fmt.Sprintf("--width W (default %d)", solver.DefaultBeamWidth)
		}
		return "--width W, the largest width (default: no bound but memory and time)"
	}
	if alg == solver.AlgBidirectional {
		return `"pdbgen solve --algorithm bidirectional --board 4x4 [--goal G]" (files given: their board and goal are used; --reflect does not apply)`
	}
	return ""
}

// parsePolish parses --polish (given: set on the command line): a
// comma-separated list of the steps windows and tail, or none, for the
// anytime beam search only; it returns the steps (solver.Options.Polish).
func parsePolish(list string, given bool, alg solver.Algorithm) (solver.PolishSteps, error) {
	if given && alg != solver.AlgAnytimeBeamSearch {
		return 0, usageErr("--polish: only for --algorithm anytime-beam, not %s", alg)
	}
	if list == "none" {
		return solver.PolishNone, nil
	}
	var steps solver.PolishSteps
	for _, f := range strings.Split(list, ",") {
		switch f = strings.TrimSpace(f); f {
		case "windows":
			steps |= solver.PolishWindows
		case "tail":
			steps |= solver.PolishTail
		case "none":
			return 0, usageErr("--polish: none goes alone, not with other steps")
		default:
			return 0, usageErr("--polish: %q is not windows, tail or none", f)
		}
	}
	return steps, nil
}

// parseRankWeights parses --rank-weights (a comma-separated list of
// numbers, "" for none) for the algorithm alg, which must be a beam
// search. The solver checks the count and the range (0 to
// solver.MaxRankWeight, NaN refused).
func parseRankWeights(list string, alg solver.Algorithm) ([]float64, error) {
	if list == "" {
		return nil, nil
	}
	if alg != solver.AlgBeamSearch && alg != solver.AlgAnytimeBeamSearch {
		return nil, usageErr("--rank-weights: only for the beam searches (--algorithm beam or anytime-beam), not %s", alg)
	}
	var w []float64
	for _, f := range strings.Split(list, ",") {
		v, err := strconv.ParseFloat(strings.TrimSpace(f), 64)
		if err != nil {
			return nil, usageErr("--rank-weights: %q is not a number", f)
		}
		w = append(w, v)
	}
	return w, nil
}
