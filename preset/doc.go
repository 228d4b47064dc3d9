// Package preset names the tables tilepdb ships and builds, and plans how a
// set of patterns is served by tables.
//
// All lists the presets: for each its board, its disjoint partition of the
// tiles (Korf & Felner 2002), or for a catalogue its partitions, whether its
// tables are zero-aware, and whether `make data` builds it (Defaults). Find
// looks one up by name and Preset.Patterns gives its patterns for a goal
// convention. Preset.Plan and Preset.PlanCatalogue choose the tables a
// preset needs: each pattern is looked up through an earlier table that a
// board symmetry maps onto it when there is one (Korf & Felner's 24-puzzle
// partition: 2 tables for 4 parts), and SetFile and CatalogueFile write the
// set file (a format.SetFile) that records those parts. FileName,
// SetFileName, their zero-aware forms and ParseFileName give and read the
// conventional file names ("15-663_1-5-6-9-10-13.pdb", "_za" before the
// extension for a zero-aware table).
//
// Resolve is the one reading of a build's --preset or --board/--tiles
// flags into the tables (Table: pattern, file name, kind) and set files
// (Set) to write, shared by pdbgen build and pdbgen-beam build.
//
// It depends on puzzle (patterns and symmetries) and on format, for set
// files and a table's kind; package builder computes the tables and the
// commands write them.
package preset
