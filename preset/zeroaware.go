package preset

import (
	"fmt"
	"strings"

	"github.com/tilepdb/tilepdb/puzzle"
)

// ZeroAwareMark ends the base name of a zero-aware table or of a set file
// of zero-aware tables, before the extension: FileName's name with "_za"
// before ".pdb" (e.g. "24-6666_1-2-3-6-7-8_za.pdb"), SetFileName's with
// "_za" before ".set.json" ("24-6666_za.set.json"), so that a zero-aware
// table never takes the name of the additive table of the same pattern.
const ZeroAwareMark = "_za"

// ZeroAwareFileName is the conventional name of the zero-aware table of
// the additive pattern p: FileName with ZeroAwareMark before ".pdb".
func ZeroAwareFileName(prefix string, p *puzzle.Pattern) string {
	return strings.TrimSuffix(FileName(prefix, p), FileSuffix) + ZeroAwareMark + FileSuffix
}

// ZeroAwareSetFileName is SetFileName with ZeroAwareMark before
// ".set.json".
func ZeroAwareSetFileName(prefix string, p *puzzle.Pattern) string {
	return strings.TrimSuffix(SetFileName(prefix, p), ".set.json") + ZeroAwareMark + ".set.json"
}

// ParseZeroAwareFileName inverts ZeroAwareFileName: the pattern of the
// zero-aware table called name. It fails (one line) when name does not end
// in "_za.pdb" or what remains is not a table name ParseFileName accepts.
func ParseZeroAwareFileName(name string) (*puzzle.Pattern, error) {
	base, ok := strings.CutSuffix(name, ZeroAwareMark+FileSuffix)
	if !ok {
		return nil, fmt.Errorf("%s: not a zero-aware table file name (want a %s%s suffix)", name, ZeroAwareMark, FileSuffix)
	}
	p, err := ParseFileName(base + FileSuffix)
	if err != nil {
		return nil, fmt.Errorf("%s: %w", name, err)
	}
	if p.Exact {
		return nil, fmt.Errorf("%s: an exact table has no zero-aware form", name)
	}
	return p, nil
}
