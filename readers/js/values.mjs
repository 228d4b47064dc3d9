// The value-decoding step of a table file: from the verified, decompressed
// payload to one value (moves) per rank. It is kept apart so that another
// encoding of the values can be added without touching the container code
// (frames, checksums) or the ranking: a codec is chosen by the file's major
// version and header, and turns the raw payload into a Uint8Array of
// `entries` values. No dependencies.

/**
 * Format 1.x: the payload is the table itself, one unsigned byte per entry
 * (bits_per_entry 8), byte r = value of the state of rank r.
 */
export const bytesCodec = {
  name: 'bytes (format 1)',
  /** Payload length in bytes for a header (must equal entries). */
  payloadLength(header) {
    return header.entries;
  },
  /** Values of the table: the payload itself, not copied. */
  decode(payload /* , header, pattern */) {
    return payload;
  },
};

/** Codec for a parsed header of the given major version, or null when none. */
export function codecFor(major /* , header */) {
  if (major === 1) return bytesCodec;
  return null;
}

/** Major versions this reader implements. */
export const SUPPORTED_MAJORS = [1];
