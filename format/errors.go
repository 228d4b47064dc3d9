package format

import (
	"errors"
	"fmt"
)

// ErrFormat is wrapped by every error saying that the input is not a tilepdb
// table file or that its structure is corrupt (bad magic, truncation, an
// impossible header, undecodable payload, trailing bytes...). The concrete
// error is a *FormatError carrying the byte offset.
var ErrFormat = errors.New("tilepdb: invalid table file")

// ErrChecksum is wrapped by every error saying that stored and recomputed
// checksums differ: the header SHA-256, the SHA-256 of the raw table, or a
// zstd frame's content checksum. The concrete error is a *ChecksumError.
var ErrChecksum = errors.New("tilepdb: checksum mismatch")

// FormatError describes a structural problem at a byte offset of the file.
// Offset is the absolute file offset of the offending field (for header
// fields, the start of the JSON header, 16). Unwrap returns ErrFormat.
type FormatError struct {
	Offset int64  // byte offset in the file, >= 0
	Msg    string // what is wrong, without the "tilepdb" prefix
}

// Error returns "tilepdb: invalid table file at byte <Offset>: <Msg>".
func (e *FormatError) Error() string {
	return fmt.Sprintf("tilepdb: invalid table file at byte %d: %s", e.Offset, e.Msg)
}

// Unwrap returns ErrFormat.
func (e *FormatError) Unwrap() error { return ErrFormat }

func formatErr(off int64, format string, args ...any) error {
	return &FormatError{Offset: off, Msg: fmt.Sprintf(format, args...)}
}

// ChecksumError reports a checksum mismatch. What names the checksum
// ("header sha256", "raw_sha256", "zstd frame 3 content checksum"); Want is
// the stored value and Got the recomputed one, both lowercase hex (empty when
// the library does not expose them, as for zstd frame checksums). Unwrap
// returns ErrChecksum.
type ChecksumError struct {
	What      string
	Want, Got string
}

// Error names the checksum and, when known, both values.
func (e *ChecksumError) Error() string {
	if e.Want == "" && e.Got == "" {
		return fmt.Sprintf("tilepdb: %s mismatch", e.What)
	}
	return fmt.Sprintf("tilepdb: %s mismatch: file says %s, content hashes to %s", e.What, e.Want, e.Got)
}

// Unwrap returns ErrChecksum.
func (e *ChecksumError) Unwrap() error { return ErrChecksum }

// UnsupportedVersionError is returned for a file whose major version is
// neither MajorVersion1 nor MajorVersion (files with a known major and a
// newer minor version are accepted). It matches errors.ErrUnsupported with errors.Is.
type UnsupportedVersionError struct {
	Major, Minor uint16 // version found in the file
}

// Error says which version the file has and which this reader supports.
func (e *UnsupportedVersionError) Error() string {
	return fmt.Sprintf("tilepdb: table file format version %d.%d is not supported (this reader supports %d.x and %d.x)",
		e.Major, e.Minor, MajorVersion1, MajorVersion)
}

// Is reports whether target is errors.ErrUnsupported.
func (e *UnsupportedVersionError) Is(target error) bool { return target == errors.ErrUnsupported }

// IsBadData reports whether err says that the input is not a table this
// reader accepts: not a tilepdb file or corrupt (ErrFormat), a checksum
// mismatch (ErrChecksum), a major version this reader does not support
// (*UnsupportedVersionError), or a set file that is malformed or does not
// hold together (ErrSet), however deeply wrapped. Anything else, such
// as a missing file, a permission error or a failed read, is trouble
// getting at the data and says nothing about it. Front ends use it to
// choose between "bad data" (exit code 1) and "trouble" (exit code 2).
func IsBadData(err error) bool {
	var uv *UnsupportedVersionError
	return errors.Is(err, ErrFormat) || errors.Is(err, ErrChecksum) || errors.Is(err, ErrSet) || errors.As(err, &uv)
}

// UndecodedFrameError is the finding of Inspect for a frame that could not
// be decoded: its entries in the table returned are placeholders
// (puzzle.Unreached), so checks of the values mean nothing there. Error
// and Unwrap are those of Err (a *FormatError or *ChecksumError).
type UndecodedFrameError struct {
	Frame int   // index of the frame, from 0
	Err   error // why it could not be decoded
}

func (e *UndecodedFrameError) Error() string { return e.Err.Error() }
func (e *UndecodedFrameError) Unwrap() error { return e.Err }

// UnsupportedError is returned for a well-formed header that asks for
// something this reader does not implement: a ranking_version other than
// puzzle.RankingVersion, a bits_per_entry other than 8, or an unknown
// format 2 encoding. It matches errors.ErrUnsupported with errors.Is and
// also wraps ErrFormat, so callers that only tell good files from bad ones
// need not know it.
type UnsupportedError struct {
	Offset int64  // byte offset of the JSON header, 16
	Msg    string // what is not supported
}

// Error returns "tilepdb: unsupported table file at byte <Offset>: <Msg>".
func (e *UnsupportedError) Error() string {
	return fmt.Sprintf("tilepdb: unsupported table file at byte %d: %s", e.Offset, e.Msg)
}

// Unwrap returns ErrFormat.
func (e *UnsupportedError) Unwrap() error { return ErrFormat }

// Is reports whether target is errors.ErrUnsupported.
func (e *UnsupportedError) Is(target error) bool { return target == errors.ErrUnsupported }
