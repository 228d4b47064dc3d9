// The value-decoding step of a table file: from the stored bytes of each
// frame (verified zstd content) to one value (moves) per rank. Kept apart
// from the container code (frames, checksums) and the ranking so that an
// encoding can be added here alone. A codec is chosen by the major version
// and, in format 2, the header key `encoding` (SPEC.md section 8).
// No dependencies beyond the Manhattan walk.

import { decodeCodes, decodeZeroAwareCodes } from './manhattan.mjs';

/** Major versions this reader implements. */
export const SUPPORTED_MAJORS = [1, 2];

/** Format 1.x: the stored bytes are the values, one byte per entry. */
export const bytesCodec = {
  name: 'raw bytes',
  storedSize: (e) => e,
  /** Writes the e entries of one frame from its stored bytes into dst; '' or what is wrong. */
  unpack(stored, dst) {
    dst.set(stored);
    return '';
  },
  /**
   * Turns the unpacked table into values (pattern: its rank.mjs Pattern;
   * regions: a zero-aware table's regions.mjs Regions, else null); null or
   * { rank, value } of an invalid value.
   */
  finish: () => null,
};

// value = m + 2*code, m of the entry's placement (SPEC.md 8 and 11.2).
const finishCodes = (values, pattern, regions) => (regions ? decodeZeroAwareCodes(values, regions) : decodeCodes(values, pattern));

/** Format 2, manhattan-half-4bit: two codes per byte, low nibble first; value = m(r) + 2*code. */
export const halfNibbleCodec = {
  name: 'manhattan-half-4bit',
  storedSize: (e) => Math.ceil(e / 2),
  unpack(stored, dst) {
    const e = dst.length;
    const full = e >> 1;
    for (let j = 0; j < full; j++) {
      const b = stored[j];
      dst[2 * j] = b & 15;
      dst[2 * j + 1] = b >> 4;
    }
    if (e & 1) {
      const b = stored[full];
      if (b >> 4) return `padding nibble of the last byte is ${b >> 4}, want 0`;
      dst[e - 1] = b & 15;
    }
    return '';
  },
  finish: finishCodes,
};

/** Format 2, manhattan-half-8bit: one code per byte; value = m(r) + 2*code. */
export const halfByteCodec = {
  name: 'manhattan-half-8bit',
  storedSize: (e) => e,
  unpack(stored, dst) {
    dst.set(stored);
    return '';
  },
  finish: finishCodes,
};

/** The encodings of format 2 this reader implements. */
export const ENCODINGS = { 'manhattan-half-4bit': halfNibbleCodec, 'manhattan-half-8bit': halfByteCodec };

/** Codec for a major version (and format 2 encoding), or null when not implemented. */
export function codecFor(major, encoding) {
  if (major === 1) return bytesCodec;
  if (major === 2) return ENCODINGS[encoding] ?? null;
  return null;
}
