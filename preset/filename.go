package preset

import (
	"fmt"
	"strconv"
	"strings"

	"github.com/tilepdb/tilepdb/puzzle"
)

// FileSuffix ends every table file name (FileName, ParseFileName).
const FileSuffix = ".pdb"

// ParseFileName inverts FileName: the pattern of the table called
// name ("<prefix>[-bf|-goalC.C...][_t-t-...].pdb", the prefix a preset
// name or a board size WxH). A preset prefix must name one of the preset's
// tables; any name must be the canonical one of its pattern. The error is
// one line saying why (a name that is not a table file name, an unknown
// preset, a table the preset does not have, a bad goal or tile list).
func ParseFileName(name string) (*puzzle.Pattern, error) {
	base, ok := strings.CutSuffix(name, FileSuffix)
	if !ok {
		return nil, fmt.Errorf("%s: not a table file name (want a %s suffix)", name, FileSuffix)
	}
	head, tilesText, additive := strings.Cut(base, "_")
	prefix, goal := head, puzzle.GoalBlankLast
	if i := strings.Index(head, "-goal"); i >= 0 {
		prefix, goal = head[:i], strings.ReplaceAll(head[i+len("-goal"):], ".", ",")
	} else if p, ok := strings.CutSuffix(head, "-bf"); ok {
		prefix, goal = p, puzzle.GoalBlankFirst
	}

	if pr, err := Find(prefix); err == nil {
		ps, err := pr.Patterns(goal)
		if err != nil {
			return nil, fmt.Errorf("%s: %w", name, err)
		}
		var names []string
		for _, p := range ps {
			fn := FileName(pr.Name, p)
			if fn == name {
				return p, nil
			}
			names = append(names, fn)
		}
		return nil, fmt.Errorf("%s is not a table of preset %s (its tables: %s)", name, pr.Name, strings.Join(names, ", "))
	}
	g, err := puzzle.ParseGeometry(prefix)
	if err != nil {
		var known []string
		for _, pr := range All {
			known = append(known, pr.Name)
		}
		return nil, fmt.Errorf("%s names preset %q, which does not exist (known: %s; or a board size such as 4x4)", name, prefix, strings.Join(known, ", "))
	}
	gb, err := puzzle.ParseGoal(goal, g)
	if err != nil {
		return nil, fmt.Errorf("%s: goal: %w", name, err)
	}
	var tiles []uint8
	if additive {
		for _, s := range strings.Split(tilesText, "-") {
			t, err := strconv.ParseUint(s, 10, 8)
			if err != nil {
				return nil, fmt.Errorf("%s: tiles %q: want numbers joined by '-'", name, tilesText)
			}
			tiles = append(tiles, uint8(t))
		}
	} else {
		for t := 1; t < g.N(); t++ {
			tiles = append(tiles, uint8(t))
		}
	}
	p, err := puzzle.NewPattern(g, gb, tiles)
	if err != nil {
		return nil, fmt.Errorf("%s: %w", name, err)
	}
	if fn := FileName(g.String(), p); fn != name {
		return nil, fmt.Errorf("%s is not the conventional name of its table (%s)", name, fn)
	}
	return p, nil
}
