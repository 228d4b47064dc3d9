// Package manifest reads, writes and checks table manifests: text files
// naming the tables of a set with the identity of each (entry count,
// maximum value and SHA-256 of the raw table), so that a folder of table
// files can be checked against the set it should hold.
//
// # Format
//
// A manifest is UTF-8 text, one line per table; blank lines and lines
// starting with '#' are ignored, a trailing "\r" is dropped (CRLF files),
// columns are separated by tabs or spaces:
//
//	# tilepdb manifest: file, entries, max value, SHA-256 of the raw table
//	8puzzle.pdb	181440	31	caf2a81c8ec43d3b22c52a95d4eabb673a8bc3774eb51f0bdc5d27b425862470
//
// The columns are: the file, a base name ending in ".pdb" (no directory,
// no '/', '\' or ':', not starting with '.', no control characters),
// unique within the manifest; the number of table entries, a decimal
// integer >= 1; the largest entry, a decimal integer 0..254; the SHA-256
// of the raw table (one byte per entry) as 64 lowercase hex digits, which
// is the header's raw_sha256. Unlike a hash of the file, it depends neither
// on the compression library's version nor on the file format's encoding.
//
// Parse is strict: a line with another number of columns, a number that
// does not parse or is out of range, a malformed hash or a repeated name is
// a *ParseError naming the file and line, and a manifest listing no table
// at all is an error too.
//
// # Reading, writing, checking
//
// Parse and ReadFile read a manifest; Manifest.WriteFile writes one
// atomically (package internal/atomicfile). Entry.Diff compares a table's
// identity with its line, and CheckDir compares a folder of table files with
// a manifest, one FileStatus per listed or unlisted file (ok, missing,
// mismatch, corrupt, unreadable, unlisted), reading only the tables'
// headers. The package depends on format (headers), preset (file names) and
// puzzle, and on the internal packages atomicfile and regular.
package manifest
