// Type declarations of board.mjs (tilepdb/board): the board syntax of
// `pdbgen lookup`: N numbers in reading order separated by spaces, tabs
// and/or commas; "0", "x", "X" or "_" is the blank.

/** Longest board line accepted, in bytes: 4096. */
export const MAX_LINE_LEN: number;
export const LINE_TOO_LONG: string;

/** A line of board input: its bytes (valid until the generator resumes), or too long. */
export type Line = { no: number; text: Uint8Array; tooLong?: undefined } | { no: number; tooLong: true; text?: undefined };
export type ParsedBoard = { board: Uint8Array; error?: undefined } | { error: string; board?: undefined };

/** Splits board input given in chunks of any size into numbered lines as pdbgen reads them; bounded memory. */
export class LineSplitter {
  constructor();
  push(chunk: Uint8Array): Generator<Line>;
  end(): Generator<Line>;
}

/** null for a skipped line (blank or a '#' comment), else the board or pdbgen's error message. */
export function boardOfLine(line: Line, n: number): ParsedBoard | null;
/** puzzle.ParseBoard on a byte line of n cells. */
export function parseBoardBytes(line: Uint8Array, n: number): ParsedBoard;
/** puzzle.ParseBoard on a string (trimmed, UTF-8). */
export function parseBoard(text: string, n: number): ParsedBoard;
/** Go's %q of bytes. */
export function goQuote(b: Uint8Array): string;
export function decodeRune(b: Uint8Array, i: number): [number, number];
export function isSpace(r: number): boolean;
export function isPrint(r: number): boolean;
export function trimSpace(b: Uint8Array): Uint8Array;
