// Package format reads and writes tilepdb table files (".pdb") and set files
// (".set.json"), and combines tables into the heuristic a solver looks up.
//
// # Table files
//
// A table file holds one pattern database or exact distance table of a
// sliding-tile puzzle: a self-describing JSON header, a SHA-256 over the
// header, and the table compressed as independent zstd frames. Format 2.0
// (the default) stores each entry as (value - Manhattan distance of the
// table's tiles)/2 in 4 bits, about half the size of format 1.0, which
// stores one raw byte per entry; both decode to the same values with the
// same raw_sha256, and the reader reads both. The byte layout, every header
// key, the strict reading order with its error classes, the ranking
// functions, the format 2 encoding, zero-aware tables, set files,
// catalogues and test vectors are specified in SPEC.md in this directory,
// written so that the format can be implemented from it in any language;
// testdata/conformance and testdata/conformance-zero-aware are kits of good
// and broken files for such readers.
//
// A table's Kind says what it computes: KindExact, KindAdditive or
// KindZeroAware in a header (Header.Kind, Table.TableKind), and
// KindCatalogue for a set only (Set.Kind); it is the one value the other
// packages dispatch on.
//
// # Writing
//
// Build the values for a *puzzle.Pattern (Values[rank] = distance), wrap
// them with NewTable (NewZeroAwareTable for a zero-aware table) and call
// WriteFile, which writes atomically (a temporary file, then a rename), or
// Table.Encode; set Header.Major to MajorVersion1 for a 1.0 file.
// EncodeStream writes a table whose values are never whole in memory, from a
// ValueSource (the out-of-core and Beam builds).
//
// # Reading
//
// ReadFile and Decode verify everything and fail on the first problem;
// ReadHeaderFile and ReadHeader check only the header (Header.DecodeMemory
// says what decoding the table would allocate, for a memory check before
// it); ScanFile checks a file frame by frame and hands its values over in
// rank order, for tables larger than the memory; Inspect and
// InspectHeaderFile report every integrity problem they find instead of
// stopping. Problems in the data are a *FormatError (ErrFormat), a
// *ChecksumError (ErrChecksum), an *UnsupportedError or an
// *UnsupportedVersionError, for which IsBadData is true; I/O errors are
// returned as they are. Only regular files are opened (a named pipe or a
// directory is refused at once, package internal/regular).
//
// # Sets
//
// A Set combines tables into one heuristic: one exact table, or additive
// (and zero-aware) tables with disjoint tiles on one board and goal, whose
// lookups add up (NewSet); parts looked up through a table built for a
// symmetric pattern (Part, NewSetParts); or a catalogue, the maximum over
// several additive partitions of their sums (NewCatalogue). Set.Lookup and
// Set.HeuristicBoard check a board; Set.Heuristic is the fast path on a
// position vector. A set file (SetFile: ParseSetFile, WriteSetFile;
// version 1 a set of parts, version 2 a catalogue) names the tables,
// symmetries and tile relabellings of a set's parts; OpenSet opens table
// and set files together as pdbgen's commands take them, and CheckSetFile
// lists every problem of a set file.
//
// # Planning, then opening
//
// A front end that checks its memory before it loads plans first:
// PlanSet reads each set file once and each table's header once, and
// SetPlan.Memory says what the distinct tables will take decoded; then
// SetPlan.Open decodes each table once, with OpenSet's checks and first
// error. pdbgen's lookup, solve and info keep one plan per command, so a
// table file is opened at most twice (header, then table).
//
// # One pipeline each way
//
// Every frame is written by one pipeline (pipeFrames, behind Table.Encode
// and EncodeStream) and read by one frame loop (frameSet, behind Decode,
// Inspect and ScanFile); headers and set files share one strict JSON
// parser; the decoder keeps its first problem (sticky), and a table's kind
// is dispatched on once. A new encoding or format version is taught to one
// writer and one reader (codec.go: the codecs and the versions).
//
// In memory a table is always decoded to one byte per entry (Table.Values),
// whatever the file version. Keeping the 4-bit codes and adding the
// Manhattan distance at lookup would halve the memory at about the same
// lookup speed (measured on a 5,765,760-entry table: 54 ns per random
// lookup decoded, 58 ns from codes; TestMeasureLookup), but every consumer
// of Table.Values (verify, solver) would change; decoded bytes are kept.
//
// The package depends on puzzle (patterns, ranking, symmetries) and on the
// internal packages atomicfile, regular and sysmem; zstd is
// github.com/klauspost/compress/zstd.
package format
