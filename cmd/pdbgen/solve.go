package main

import (
	"context"
	"encoding/json"
	"errors"
	"flag"
	"fmt"
	"math"
	"runtime"
	"strconv"
	"strings"
	"sync"
	"sync/atomic"
	"time"

	"github.com/tilepdb/tilepdb/format"
	"github.com/tilepdb/tilepdb/internal/sysmem"
	"github.com/tilepdb/tilepdb/puzzle"
	"github.com/tilepdb/tilepdb/solver"
)

// The algorithms of solve (--algorithm).
const (
	algIDA   = "ida"           // optimal: IDA* (or the walk down an exact table)
	algWA    = "wastar"        // weighted A*, solver.Solver.SolveWeighted
	algARA   = "anytime"       // ARA*, solver.Solver.SolveAnytime
	algBidir = "bidirectional" // breadth-first from both ends, solver.Bidirectional
)

// defaultWeight is the weight of --algorithm wastar without --weight.
const defaultWeight = 1.5

// solveConfig is the validated command line of solve.
type solveConfig struct {
	alg      string
	weight   float64
	schedule []float64 // nil: solver.DefaultSchedule
	lim      solver.Limits
	geom     puzzle.Geometry // without tables: --board
	goal     puzzle.Board    // without tables: --goal
}

// parseSolveConfig checks the algorithm and limit flags (all usage errors,
// exit 2). set is the flag names given on the command line.
func parseSolveConfig(set map[string]bool, alg, weight, schedule, maxNodes, timeLimit string) (solveConfig, error) {
	c := solveConfig{alg: alg}
	switch alg {
	case "", algIDA, algWA, algARA, algBidir:
	default:
		return c, usageErr("--algorithm %q: want one of ida, wastar, anytime, bidirectional", alg)
	}
	imply := func(flag, want string) error {
		if c.alg == "" || c.alg == want {
			c.alg = want
			return nil
		}
		return usageErr("%s goes with --algorithm %s, not %s", flag, want, c.alg)
	}
	if set["weight"] {
		if err := imply("--weight", algWA); err != nil {
			return c, err
		}
	}
	if set["anytime"] {
		if err := imply("--anytime", algARA); err != nil {
			return c, err
		}
	}
	if set["schedule"] {
		if err := imply("--schedule", algARA); err != nil {
			return c, err
		}
	}
	if c.alg == "" {
		c.alg = algIDA
	}
	if c.alg == algWA {
		c.weight = defaultWeight
		if set["weight"] {
			w, err := parseWeight(weight)
			if err != nil {
				return c, usageErr("--weight %q: %v", weight, err)
			}
			c.weight = w
		}
	}
	if set["schedule"] {
		for _, f := range strings.Split(schedule, ",") {
			w, err := parseWeight(strings.TrimSpace(f))
			if err != nil {
				return c, usageErr("--schedule %q: weight %q: %v", schedule, f, err)
			}
			if n := len(c.schedule); n > 0 && w >= c.schedule[n-1] {
				return c, usageErr("--schedule %q: the weights must strictly decrease", schedule)
			}
			c.schedule = append(c.schedule, w)
		}
	}
	if set["max-nodes"] {
		n, err := strconv.ParseUint(strings.TrimSpace(maxNodes), 10, 64)
		if err != nil || n == 0 {
			return c, usageErr("--max-nodes %q: want a whole number of states >= 1", maxNodes)
		}
		if c.alg == algIDA {
			return c, usageErr("--max-nodes bounds the states stored by wastar, anytime and bidirectional; IDA* stores none")
		}
		c.lim.MaxNodes = n
	}
	if set["time-limit"] {
		d, err := time.ParseDuration(strings.TrimSpace(timeLimit))
		if err != nil || d <= 0 {
			return c, usageErr("--time-limit %q: want a duration > 0 such as 500ms, 10s or 2m", timeLimit)
		}
		c.lim.TimeLimit = d
	}
	return c, nil
}

// maxWeight is the largest weight of --weight and --schedule. The search
// orders states by f = g + W*h in a float64 with g and h below 65536
// (solver's uint16 fields): up to this W the products stay far below
// 2^53, so f keeps telling g apart by one move, and the bound "at most W
// times the optimum" still says something. A weight of 1e308 made every f
// infinite, and the search then wandered until a path of 65534 moves.
const maxWeight = 1000

// parseWeight parses one weight: a finite number in [1, maxWeight].
func parseWeight(s string) (float64, error) {
	w, err := strconv.ParseFloat(s, 64)
	if err != nil || math.IsNaN(w) || math.IsInf(w, 0) {
		return 0, errors.New("not a number")
	}
	if w < 1 {
		return 0, errors.New("must be >= 1")
	}
	if w > maxWeight {
		return 0, fmt.Errorf("must be <= %d", maxWeight)
	}
	return w, nil
}

// searchBytes is the byte budget of one search (solver.Limits.MaxBytes)
// when workers searches run at once beside tables needing tableNeed bytes
// (loadMemoryNeed): --max-memory (or the memory available) covers the
// tables and every search, so each search gets an equal share of what the
// tables leave; without --max-memory a share is at most
// solver.DefaultMaxBytes. Less than 1 MiB per search is refused.
func searchBytes(b sysmem.Budget, tableNeed uint64, workers int) (int64, error) {
	if !b.Known {
		return solver.DefaultMaxBytes, nil
	}
	var room uint64
	if b.Limit > tableNeed {
		room = b.Limit - tableNeed
	}
	share := room / uint64(workers)
	if !b.FromFlag {
		share = min(share, solver.DefaultMaxBytes)
	}
	if share < sysmem.MinSize {
		src := "the memory available"
		if b.FromFlag {
			src = "--max-memory"
		}
		return 0, usageErr("%s %s leaves %s for the search after %s for the tables: less than 1 MiB for each of the %d searches (-j)",
			src, sysmem.FormatSize(b.Limit), sysmem.FormatSize(room), sysmem.FormatSize(tableNeed), workers)
	}
	return int64(min(share, math.MaxInt64)), nil
}

// runSolve solves each board on stdin with the algorithm chosen (package
// solver) and prints one line per board as text or JSON (solveText,
// solveJSON), boards solved in parallel and answered in input order
// (boards.go); --anytime also prints each improvement as soon as found.
func runSolve(e *env, args []string) error {
	fs := newFlags(e, "solve")
	reflect := fs.Bool("reflect", false, "also look up the state reflected about the main diagonal and take the maximum")
	workers := fs.Int("j", runtime.NumCPU(), "boards solved in parallel")
	threads := fs.Int("t", 1, "threads sharing each board's IDA* search, 1 to 256 (parallel IDA*; moves and node counts do not depend on it)")
	asJSON := fs.Bool("json", false, "one JSON object per line: board, length, moves, nodes, solvable (and bounds and statistics for the other algorithms)")
	from := fs.String("from", "", "convention of the input boards when it differs from the tables' goal: blank-first")
	maxMem := fs.String("max-memory", "", maxMemoryHelp+"; covers the tables, for IDA* their direct index copies (those that do not fit are left out), and for wastar, anytime and bidirectional the searches (an equal share each with -j; at most 1 GiB each without this flag)")
	alg := fs.String("algorithm", "", "ida (optimal, default), wastar (weighted A*), anytime (ARA*) or bidirectional (breadth-first from both ends, no table needed)")
	weight := fs.String("weight", "", fmt.Sprintf("weighted A* with f = g + W*h, 1 <= W <= %d: a solution at most W times the optimum (implies --algorithm wastar; default %g)", maxWeight, defaultWeight))
	anytime := fs.Bool("anytime", false, "ARA*: print a first solution at once, then each better one, down to a proven optimum (same as --algorithm anytime)")
	schedule := fs.String("schedule", "", fmt.Sprintf("the weights of --anytime, strictly decreasing, each in [1, %d] (default 2.5,1.8,1.3,1; a last weight above 1 stops there with its proven bound)", maxWeight))
	maxNodes := fs.String("max-nodes", "", "stop a search that would store more than N states (wastar, anytime, bidirectional)")
	timeLimit := fs.String("time-limit", "", "stop each board's search after this long, e.g. 500ms, 10s, 2m (answers the best solution found, if any)")
	board := fs.String("board", "", "board size WxH for --algorithm bidirectional without table files")
	goal := fs.String("goal", "", "goal of --board: blank-last (default), blank-first or a board")
	compact := fs.Bool("compact-index", false, "IDA*: look the tables up through their compact index only, without the direct copy (N^k bytes per table of k tiles on N cells) that IDA* otherwise makes when it fits in memory: less memory and set-up time, a slower search")
	files, err := parseFlags(fs, args)
	if err != nil {
		return err
	}
	set := map[string]bool{}
	fs.Visit(func(f *flag.Flag) { set[f.Name] = true })
	if !*anytime {
		delete(set, "anytime") // --anytime=false
	}
	cfg, err := parseSolveConfig(set, *alg, *weight, *schedule, *maxNodes, *timeLimit)
	if err != nil {
		return err
	}
	if *from != "" && *from != puzzle.GoalBlankFirst {
		return usageErr("--from: only %q is supported", puzzle.GoalBlankFirst)
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
	var s *solver.Solver
	var geom puzzle.Geometry
	if len(files) == 0 {
		if cfg.alg != algBidir {
			return usageErr("no table files given (usage: pdbgen solve [flags] FILE... < boards; only --algorithm bidirectional solves without tables, with --board WxH)")
		}
		if *board == "" {
			return usageErr("--algorithm bidirectional without table files needs --board WxH (and optionally --goal)")
		}
		if *from != "" {
			return usageErr("--from needs table files; without them give the goal with --goal %s", puzzle.GoalBlankFirst)
		}
		if cfg.geom, err = puzzle.ParseGeometry(*board); err != nil {
			return usageErr("--board: %v", err)
		}
		g := *goal
		if g == "" {
			g = puzzle.GoalBlankLast
		}
		if cfg.goal, err = puzzle.ParseGoal(g, cfg.geom); err != nil {
			return usageErr("--goal: %v", err)
		}
		geom = cfg.geom
	} else {
		if err := checkLoadMemory(budget, files); err != nil {
			return err
		}
		tset, err := openTables(e, files)
		if err != nil {
			return err
		}
		if err := checkBoardFlags(*board, *goal, tset); err != nil {
			return err
		}
		opt := solver.Options{Reflect: *reflect && cfg.alg != algBidir, FromBlankFirst: *from != "", Threads: *threads, Compact: *compact || cfg.alg != algIDA}
		if need := loadMemoryNeed(files); !opt.Compact && budget.Known {
			// The direct copies that fit beside the tables; the other
			// tables are searched through their compact index.
			opt.MaxDirectBytes = 1 // none
			if budget.Limit > need+1 {
				opt.MaxDirectBytes = budget.Limit - need
			}
		}
		s, err = solver.New(tset, opt)
		if err != nil {
			return usageErr("%v", err)
		}
		if want := solver.DirectIndexBytes(tset); !opt.Compact && s.DirectBytes() < want {
			fmt.Fprintf(e.stderr, "pdbgen solve: the direct index copies of the tables (%s) do not all fit in the memory budget (%s); the search uses %s of them and the compact index for the rest (slower; --compact-index silences this)\n",
				sysmem.FormatSize(want), sysmem.FormatSize(budget.Limit), sysmem.FormatSize(s.DirectBytes()))
		}
		geom = tset.Geom
	}
	if cfg.alg != algIDA {
		need := uint64(runtimeBase)
		if len(files) > 0 {
			need = loadMemoryNeed(files)
		}
		if cfg.lim.MaxBytes, err = searchBytes(budget, need, *workers); err != nil {
			return err
		}
	}

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
	sv := &solveRun{cfg: cfg, s: s, json: *asJSON}
	err = answerBoardsStream(e.context(), e.stdin, stdout, stderr, geom.N(), *workers, cfg.alg == algARA, func(ctx context.Context, b puzzle.Board, emit func(string)) (string, error) {
		if !sv.enter() { // every search says what it proved when interrupted
			return "", ctx.Err()
		}
		defer sv.wg.Done()
		if started.Add(1)-finished.Load() == 1 {
			lastAnswer.Store(int64(time.Since(begin))) // the clock starts when a search does
		}
		defer func() {
			finished.Add(1)
			lastAnswer.Store(int64(time.Since(begin)))
		}()
		return sv.answer(ctx, b, emit)
	})
	sv.close()
	if e.context().Err() != nil {
		// Interrupted: say what the searches in progress had proven.
		for _, r := range sv.interrupted {
			fmt.Fprintf(stderr, "pdbgen solve: interrupted while solving %s\n", r)
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
	if n := sv.unanswered.Load(); n > 0 {
		if n == 1 {
			msgs = append(msgs, "no solution within the limits: "+sv.firstStop)
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
	cfg  solveConfig
	s    *solver.Solver // nil: bidirectional without tables
	json bool

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

// stopReason names the limit in err for the output ("" for other errors).
func stopReason(err error) string {
	switch {
	case errors.Is(err, solver.ErrTimeLimit), errors.Is(err, context.DeadlineExceeded):
		return "time-limit"
	case errors.Is(err, solver.ErrNodeLimit):
		return "node-limit"
	case errors.Is(err, solver.ErrMemoryLimit):
		return "memory-limit"
	case errors.Is(err, context.Canceled):
		return "interrupted"
	}
	return ""
}

// answer solves one board with the configured algorithm.
func (r *solveRun) answer(ctx context.Context, b puzzle.Board, emit func(string)) (string, error) {
	var out solver.Bounded
	var err error
	switch r.cfg.alg {
	case algIDA:
		sctx := ctx
		if r.cfg.lim.TimeLimit > 0 {
			var cancel context.CancelFunc
			sctx, cancel = context.WithTimeout(ctx, r.cfg.lim.TimeLimit)
			defer cancel()
		}
		res, ierr := r.s.SolveContext(sctx, b)
		if ierr == nil {
			if r.json {
				j, err := res.MarshalJSON()
				return string(j), err
			}
			return res.String(), nil
		}
		err = ierr
		if ctx.Err() == nil && errors.Is(err, context.DeadlineExceeded) {
			err = fmt.Errorf("IDA*: %w: %v", solver.ErrTimeLimit, r.cfg.lim.TimeLimit)
		}
		out = solver.Bounded{Board: b, Searched: b, Converted: r.s.Options().FromBlankFirst, Solvable: true, Length: -1, Lower: -1}
		var se *solver.StoppedError
		if errors.As(ierr, &se) { // what the stopped search had proven
			out.Lower, out.Stats.Generated, out.Stats.Elapsed = se.Lower, se.Nodes, se.Elapsed
		}
		if out.Converted {
			out.Searched = puzzle.BlankFirstToLast(b)
		}
	case algWA:
		out, err = r.s.SolveWeighted(ctx, b, r.cfg.weight, r.cfg.lim)
	case algARA:
		opt := solver.AnytimeOptions{Schedule: r.cfg.schedule, Limits: r.cfg.lim, OnSolution: func(a solver.Bounded) {
			emit(r.format(a, "", false))
		}}
		out, err = r.s.SolveAnytime(ctx, b, opt)
	case algBidir:
		var res solver.Result
		var st solver.Stats
		if r.s != nil {
			res, st, err = r.s.SolveBidirectional(ctx, b, r.cfg.lim)
		} else {
			res, st, err = solver.Bidirectional(ctx, r.cfg.geom, b, r.cfg.goal, r.cfg.lim)
		}
		if res.Board == nil { // an error before the search
			return "", err
		}
		out = solver.Bounded{Board: res.Board, Searched: res.Searched, Converted: res.Converted, Solvable: res.Solvable,
			Length: res.Length, Moves: res.Moves, Lower: -1, Stats: st}
		if res.Solvable && err == nil {
			out.Lower, out.Bound, out.Optimal = res.Length, 1, true
		}
	}
	if err == nil {
		return r.format(out, "", true), nil
	}
	reason := stopReason(err)
	if reason == "" || out.Board == nil {
		return "", err // bad input: the line's problem
	}
	if reason == "interrupted" {
		r.mu.Lock()
		r.interrupted = append(r.interrupted, proven(out))
		r.mu.Unlock()
		return "", err
	}
	if out.Length < 0 {
		if r.unanswered.Add(1) == 1 {
			r.mu.Lock()
			r.firstStop = fmt.Sprintf("%s: %v", out.Board, err)
			if out.Lower >= 0 {
				r.firstStop += fmt.Sprintf("; proven: optimum >= %d moves", out.Lower)
			}
			r.mu.Unlock()
		}
	}
	return r.format(out, reason, true), nil
}

// proven describes what an interrupted search had proven.
func proven(b solver.Bounded) string {
	var sb strings.Builder
	sb.WriteString(b.Board.String())
	switch {
	case b.Length >= 0:
		fmt.Fprintf(&sb, ": best solution %d moves %s, proven optimum >= %d (bound %s)", b.Length, movesOrDash(b.Moves), b.Lower, boundText(b))
	case b.Lower >= 0:
		fmt.Fprintf(&sb, ": no solution yet, proven optimum >= %d", b.Lower)
	default:
		sb.WriteString(": no solution yet, nothing proven")
	}
	return sb.String()
}

func movesOrDash(m string) string {
	if m == "" {
		return "-"
	}
	return m
}

// boundText is Length/Lower rounded UP to 3 decimals (never claiming a
// tighter factor than proven), computed in integers.
func boundText(b solver.Bounded) string {
	if b.Lower <= 0 {
		return "1.000"
	}
	v := (int64(b.Length)*1000 + int64(b.Lower) - 1) / int64(b.Lower)
	return fmt.Sprintf("%d.%03d", v/1000, v%1000)
}

// format writes the answer of an algorithm other than IDA* as one line:
// text (solveText) or JSON (solveJSON). final is false for the
// improvements --anytime prints before its answer.
func (r *solveRun) format(b solver.Bounded, stopped string, final bool) string {
	if r.json {
		return solveJSON(b, r.cfg.alg, stopped, final)
	}
	return solveText(b, r.cfg.alg, stopped, final)
}

// solveText is the text line of wastar, anytime and bidirectional:
//
//	<board> : [improved ]length L moves M nodes K [weight W ]lower LB bound B[ optimal][ stopped REASON][ converted-from blank-first]
//	<board> : stopped REASON[ lower LB][ nodes K][ converted-from blank-first]
//	<board> : unsolvable[ converted-from blank-first]
//
// "improved" marks an --anytime improvement printed before the final line;
// W is the weight that found the solution (wastar, anytime); LB a proven
// lower bound on the optimal length; B = L/LB rounded up to 3 decimals, the
// proven factor over the optimum (at most W); "optimal" when L = LB;
// REASON is time-limit, node-limit or memory-limit.
func solveText(b solver.Bounded, alg, stopped string, final bool) string {
	var sb strings.Builder
	sb.WriteString(b.Board.String())
	sb.WriteString(" : ")
	switch {
	case !b.Solvable:
		sb.WriteString("unsolvable")
	case b.Length < 0:
		sb.WriteString("stopped " + stopped)
		if b.Lower >= 0 {
			fmt.Fprintf(&sb, " lower %d", b.Lower)
		}
		fmt.Fprintf(&sb, " nodes %d", b.Stats.Generated)
	default:
		if !final {
			sb.WriteString("improved ")
		}
		fmt.Fprintf(&sb, "length %d moves %s nodes %d", b.Length, movesOrDash(b.Moves), b.Stats.Generated)
		if alg == algWA || alg == algARA {
			fmt.Fprintf(&sb, " weight %s", strconv.FormatFloat(b.Weight, 'g', -1, 64))
		}
		fmt.Fprintf(&sb, " lower %d bound %s", b.Lower, boundText(b))
		if b.Optimal {
			sb.WriteString(" optimal")
		}
		if stopped != "" {
			sb.WriteString(" stopped " + stopped)
		}
	}
	if b.Converted {
		sb.WriteString(" converted-from " + solver.ConvertedFrom)
	}
	return sb.String()
}

// jsonAnswer is the JSON line of wastar, anytime and bidirectional.
type jsonAnswer struct {
	Board         []int    `json:"board"`
	Algorithm     string   `json:"algorithm"`
	Weight        *float64 `json:"weight"`
	Solvable      bool     `json:"solvable"`
	Length        *int     `json:"length"`
	Moves         *string  `json:"moves"`
	Lower         *int     `json:"lower"`
	Bound         *float64 `json:"bound"`
	Optimal       bool     `json:"optimal"`
	Nodes         uint64   `json:"nodes"`
	Expanded      uint64   `json:"expanded"`
	Stored        uint64   `json:"stored"`
	PeakBytes     int64    `json:"peak_bytes"`
	ElapsedMS     float64  `json:"elapsed_ms"`
	Final         bool     `json:"final"`
	Stopped       *string  `json:"stopped"`
	ConvertedFrom string   `json:"converted_from,omitempty"`
	SolvedAs      []int    `json:"solved_as,omitempty"`
}

// solveJSON is the JSON line of wastar, anytime and bidirectional: the keys
// of IDA*'s (board, solvable, length, moves, nodes = states generated,
// converted_from, solved_as) and algorithm, weight (null for
// bidirectional), lower and bound (null when unknown), optimal, expanded,
// stored, peak_bytes (the search's arrays), elapsed_ms, final (false for
// an --anytime improvement) and stopped (null, or the limit's name).
func solveJSON(b solver.Bounded, alg, stopped string, final bool) string {
	j := jsonAnswer{Board: intsOf(b.Board), Algorithm: alg, Solvable: b.Solvable, Optimal: b.Optimal,
		Nodes: b.Stats.Generated, Expanded: b.Stats.Expanded, Stored: b.Stats.Stored, PeakBytes: b.Stats.PeakBytes,
		ElapsedMS: float64(b.Stats.Elapsed.Microseconds()) / 1000, Final: final}
	if (alg == algWA || alg == algARA) && b.Weight > 0 {
		w := b.Weight
		j.Weight = &w
	}
	if b.Solvable && b.Length >= 0 {
		l, m, bd := b.Length, b.Moves, b.Bound
		j.Length, j.Moves, j.Bound = &l, &m, &bd
	}
	if b.Solvable && b.Lower >= 0 {
		lb := b.Lower
		j.Lower = &lb
	}
	if stopped != "" {
		j.Stopped = &stopped
	}
	if b.Converted {
		j.ConvertedFrom = solver.ConvertedFrom
		j.SolvedAs = intsOf(b.Searched)
	}
	out, err := json.Marshal(j)
	if err != nil { // only plain values: cannot happen
		return fmt.Sprintf(`{"error":%q}`, err)
	}
	return string(out)
}

func intsOf(b puzzle.Board) []int {
	out := make([]int, len(b))
	for i, t := range b {
		out[i] = int(t)
	}
	return out
}
