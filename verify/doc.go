// Package verify checks table files and set files independently of the code
// that built them, and reports every problem it finds.
//
// File and Table run a fixed series of checks (the Check* constants, in the
// order of the report) and report every inconsistency each one finds, with
// a count per check, instead of stopping at the first (the bbolt checker's
// model). The checks are exact rules that every correct table satisfies,
// each stated at its Check* constant and argued in the comment of the
// function implementing it; they take three parallel passes over the
// entries (ranking; goal, unreached, manhattan, descent and step;
// symmetry). On an exact table each costs one Unrank and a few RankCells
// per entry; on an additive table the passes walk the index in order and
// look neighbours and images up in per-cell-set tables (sweep.go), and only
// the ranking pass calls RankCells, once per entry. With Options.Deep the
// table is also rebuilt by Reference, a deliberately simple second builder
// written without package builder, and compared entry by entry.
//
// A zero-aware table (format.KindZeroAware) is first checked as the
// breadth-first distances of its (placement, blank region) states
// (CheckZeroAware, with regions computed here by a flood fill of its own);
// every check of an additive table then runs on the minimum over each
// placement's regions, and Deep compares with ReferenceZeroAware. FileFrames
// checks a table too large for the memory frame by frame, with the checks
// that read one entry at a time; MemoryNeed and FramesMemory say what File
// and FileFrames need, so that a caller refuses what does not fit before it
// starts. SetFile checks a set file or catalogue as a whole: every table it
// names, its symmetries, tile maps and disjointness, every problem listed.
//
// A Report prints as text (Report.WriteText) or as the JSON object of
// schema JSONVersion (Report.WriteJSON, JSONReport; docs/ci.md lists its
// keys).
//
// Definitions used below. An additive entry V(P), for a placement P of the
// pattern tiles S, is the fewest moves of tiles of S that bring them to
// their goal cells when the other tiles are indistinguishable and the blank
// moves among them at no cost, minimised over the blank's cell; formally
// V(P) = min_b D(P,b), where D is the 0-1 distance in the graph of abstract
// states (placement, blank cell) to (goal placement, goal blank cell), a
// move of a pattern tile costing 1 and any other move 0. An exact entry is
// the true number of moves from a solvable state to the goal.
//
// The package depends on format (reading and integrity), puzzle (ranking
// and geometry) and the internal packages regular and sysmem; not on
// builder or solver.
package verify
