// Type declarations of tilepdb.mjs, the package's main entry point
// ("tilepdb"): reads and verifies tilepdb table files of formats 1.x and
// 2.x (format/SPEC.md) and set files (SPEC.md section 10), ranks boards,
// looks them up and sums sets of disjoint additive tables. Functions marked
// Node read files with node:fs; the others run in browsers too.

import { Pattern, Board } from './rank.js';

export { Pattern, BoardError } from './rank.js';

/** Major versions read (any minor version of each): [1, 2]. */
export const MAJOR_VERSIONS: readonly number[];
/** "TILEPDB" 0x1A. */
export const MAGIC: Uint8Array;
/** Largest JSON header read: 16 MiB. */
export const MAX_HEADER_LEN: number;
export const MIN_FRAME_SIZE: number;
export const MAX_FRAME_SIZE: number;
export const BITS_PER_ENTRY: 8;
/** The reserved value of an unreached entry: 255. */
export const UNREACHED: 255;
/** Largest table held, in entries (= bytes): 2^32, one Uint8Array in V8. */
export const MAX_TABLE_BYTES: number;

/** Set files: the 8 board symmetries of SPEC.md section 10, in Go's order. */
export const SYMMETRIES: readonly ['identity', 'rot90', 'rot180', 'rot270', 'flip-lr', 'flip-tb', 'transpose', 'anti-transpose'];
export type Symmetry = (typeof SYMMETRIES)[number];
/** The newest set file version read: 2 (catalogues, SPEC.md section 12). */
export const SET_VERSION: number;
/** The set file versions read: 1 and 2. */
export const SET_VERSIONS: readonly number[];
/** Most partitions in a catalogue: 64. */
export const MAX_PARTITIONS: number;
/** Most parts over all partitions of a catalogue: 4096. */
export const MAX_CATALOGUE_PARTS: number;
/** Largest set file read: 1 MiB. */
export const MAX_SET_FILE_LEN: number;
/** ".set.json". */
export const SET_FILE_EXT: string;

/** Base class of the errors about a file's content (bad data: pdbgen's exit 1). */
export class TilepdbError extends Error {
  kind: 'format' | 'checksum' | 'unsupported' | 'unsupported-version' | 'set';
}
/** Not a table file, or a corrupt one (SPEC.md ErrFormat); offset is the byte offset. */
export class FormatError extends TilepdbError {
  constructor(offset: number, msg: string);
  kind: 'format';
  offset: number;
}
/** Stored and recomputed checksums differ (SPEC.md ErrChecksum). */
export class ChecksumError extends TilepdbError {
  constructor(what: string, want?: string, got?: string);
  kind: 'checksum';
  what: string;
}
/** A major version other than 1 and 2. */
export class UnsupportedVersionError extends TilepdbError {
  constructor(major: number, minor: number);
  kind: 'unsupported-version';
  major: number;
  minor: number;
}
/** A well-formed header asking for what this reader does not implement. */
export class UnsupportedError extends TilepdbError {
  constructor(offset: number, msg: string);
  kind: 'unsupported';
  offset: number;
}
/** A valid table too large for one typed array here. */
export class LimitError extends Error {
  kind: 'limit';
}
/** Tables given directly that do not form a set (not a file problem). */
export class SetError extends Error {}
/** A set file that is malformed or does not hold together with its tables (bad data). */
export class SetFileError extends TilepdbError {
  kind: 'set';
  /** The set file's name. */
  file: string | undefined;
  /** The part concerned, 1-based (within its partition for a catalogue), if any. */
  part: number | undefined;
  /** The partition of a catalogue concerned, 1-based, if any. */
  partition: number | undefined;
}
/** Node: a path that is not a regular file: "PATH: not a regular file (WHAT)", WHAT as in .what; refused before it is opened. */
export class NotRegularFileError extends Error {
  path: string;
  /** 'a directory', 'a named pipe', 'a socket', 'a character device', 'a device' or 'an irregular file'. */
  what: string;
}
/** A valid board that cannot reach the goal (the other parity class). */
export class UnsolvableError extends Error {}

/** The parsed JSON header of a table (format/SPEC.md section 2). */
export interface Header {
  width: number;
  height: number;
  goal: number[];
  goal_name: string;
  tiles: number[];
  kind: string;
  ranking: string;
  ranking_version: number;
  bits_per_entry: number;
  entries: number;
  max_value: number;
  /** Number of entries of each value 0..max_value. */
  histogram: number[];
  raw_sha256: string;
  generator: string;
  /** Format 2.x only. */
  payload_sha256?: string;
  /** Format 2.x only. */
  encoding?: string;
  frame_size: number;
  frames: number[];
  [key: string]: unknown;
}

export const KIND_ZERO_AWARE: 'zero-aware';
export const RANKING_CELLSET_ORDER_REGION: 'cellset-order-region';

/**
 * The index of a zero-aware table (SPEC.md section 11): the regions of the
 * free cells of every cell set M (colexicographic), numbered by their
 * smallest cell, and the prefix sums slotStart. Memory C(N,k)·(N+8) bytes.
 */
export class Regions {
  constructor(pattern: Pattern);
  readonly pattern: Pattern;
  /** C(N,k). */
  readonly comb: number;
  /** slotStart[M], M = 0..C(N,k). */
  readonly slotStart: Float64Array;
  /** regionOf[M·N + c]: region of cell c in cell set M, 255 for an occupied cell. */
  readonly regionOf: Uint8Array;
  /** S, the number of (cell set, region) slots. */
  readonly slots: number;
  /** k!·S, the entries of the zero-aware table. */
  readonly size: number;
  /** Number of regions of cell set m. */
  count(m: number): number;
  /** Zero-aware index of the state with position vector pos (pos[0] = the blank's cell). */
  index(pos: ArrayLike<number>): number;
  /** index given the cells of the pattern tiles (tiles ascending) and the blank's cell. */
  indexCells(cells: ArrayLike<number>, blank: number): number;
  /** Cell set M of slot s < S. */
  cellSetOfSlot(s: number): number;
}

/** One decoded, verified table. */
export class Table {
  readonly header: Header;
  readonly pattern: Pattern;
  /** values[index] = moves; header.entries bytes (index: the rank, or Regions.index for a zero-aware table). */
  readonly values: Uint8Array;
  /** A zero-aware table's region numbering (SPEC.md section 11), else null. */
  readonly regions: Regions | null;
  /** Whether header.kind is "zero-aware". */
  readonly zeroAware: boolean;
  /** [major, minor]. */
  readonly version: [number, number];
  /** "raw bytes" (format 1) or the format 2 encoding. */
  readonly encoding: string;
  /** Value of the state with position vector pos; nothing checked. */
  value(pos: ArrayLike<number>): number;
  /** Checked lookup of a board: BoardError, UnsolvableError. */
  lookup(board: Board): number;
}

export interface ReadOptions {
  /** Called after every zstd frame: done of total frames. */
  onProgress?: (p: { done: number; total: number }) => void;
}

/** A source of bytes for readTable. */
export interface Source {
  size: number;
  read(offset: number, length: number): Promise<Uint8Array>;
}

/** SHA-256 of bytes (node:crypto in Node, WebCrypto elsewhere). */
export function sha256(bytes: Uint8Array): Promise<Uint8Array>;
export function memorySource(bytes: Uint8Array): Source;
/** Node: a source over a fs/promises FileHandle of size bytes. */
export function fileHandleSource(fh: unknown, size: number): Source;
/** Reads and verifies a whole table in the order of SPEC.md section 3. */
export function readTable(src: Source, opts?: ReadOptions): Promise<Table>;
/** Reads and verifies a table held in memory (the whole file). */
export function readBytes(bytes: Uint8Array, opts?: ReadOptions): Promise<Table>;
/** Node: reads and verifies the table file at path (refused unless a regular file). */
export function readFile(path: string, opts?: ReadOptions): Promise<Table>;

/** How a part of a set is looked up through a table. */
export interface Part {
  /** The tiles the part covers. */
  pattern: Pattern;
  table: Table;
  symmetry: Symmetry;
  /** null for the table's own pattern; else cell[c] = σ(c), tile[t] = π(t), src[j] = the tile looked up as table tile j. */
  map: { cell: Uint8Array; tile: Uint8Array; src: Uint8Array } | null;
}

/**
 * Disjoint additive parts (or one exact table) forming one admissible
 * heuristic, or a catalogue (SPEC.md section 12): the maximum over
 * partitions of such sums.
 */
export class TableSet {
  constructor(tables: Table[], names?: string[]);
  /** partitions: for a catalogue, the indices into parts of each partition's parts. */
  static fromParts(parts: Part[], names?: string[], makeError?: (msg: string) => Error, partitions?: number[][]): TableSet;
  readonly parts: Part[];
  /** For a catalogue, the indices into parts of each partition's parts; null otherwise. */
  readonly partitions: number[][] | null;
  /** Whether this set is a catalogue. */
  catalogue(): boolean;
  /** The distinct tables behind the parts, in order of first use. */
  readonly tables: Table[];
  readonly w: number;
  readonly h: number;
  readonly n: number;
  readonly goal: Uint8Array;
  readonly exact: boolean;
  /** Sum of the parts' values for position vector pos (a catalogue: the maximum over its partitions of their sums); nothing checked, no allocation. */
  heuristic(pos: ArrayLike<number>): number;
  /** Checked lookup of a board: BoardError, UnsolvableError. */
  lookup(board: Board): number;
  heuristicBoard(board: Board): number;
}

export interface SetBytesOptions extends ReadOptions {
  /** Names the set file in errors (default "set file"). */
  name?: string;
  /** Returns the table file of that name (bytes, or a Table already read). */
  table: (name: string) => Promise<Uint8Array | Table> | Uint8Array | Table;
}

/** The set of a set file given as bytes or text (browsers and Node). */
export function openSetBytes(data: Uint8Array | string, opts: SetBytesOptions): Promise<TableSet>;
/** Node: whether the file at path is a set file (false for a non-regular file). */
export function isSetFile(path: string): Promise<boolean>;
/** Node: tables and set files grouped into one heuristic, as `pdbgen lookup` takes them. */
export function openSet(paths: string[], opts?: ReadOptions): Promise<TableSet>;
/** Node: the set of one set file. */
export function openSetFile(path: string, opts?: ReadOptions): Promise<TableSet>;
/** A Node I/O error's message worded as Go's *os.PathError. */
export function ioMessage(e: unknown): string;

/** Parses a set file's bytes: { set } or { error, part, partition }. */
export function parseSetFile(data: Uint8Array | string): { set: unknown; error?: undefined } | { error: string; part: number; partition: number; set?: undefined };
/** Checks that the table of pattern `to` serves `from` through sym (puzzle.MapPattern). */
export function mapPattern(from: Pattern, to: Pattern, sym: Symmetry): { map: NonNullable<Part['map']>; error?: undefined } | { error: string; map?: undefined };
/** The cell a symmetry maps cell to on a w x h board. */
export function symmetryCell(name: Symmetry, w: number, h: number, cell: number): number;
