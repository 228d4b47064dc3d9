// XXH64 (Yann Collet, https://github.com/Cyan4973/xxHash, doc/xxhash_spec.md),
// seed 0, in plain JavaScript with 32-bit halves (no BigInt in the loop).
// zstd (RFC 8878 section 3.1.1) stores the low 4 bytes of the XXH64 of a
// frame's content as its Content_Checksum; fzstd does not check it, so the
// reader does (test vectors from xxhsum 0.8.1 in test/testdata/xxh64.tsv).

// Primes as [hi, lo] 32-bit halves.
const P1H = 0x9e3779b1, P1L = 0x85ebca87;
const P2H = 0xc2b2ae3d, P2L = 0x27d4eb4f;
const P3H = 0x165667b1, P3L = 0x9e3779f9;
const P4H = 0x85ebca77, P4L = 0xc2b2ae63;
const P5H = 0x27d4eb2f, P5L = 0x165667c5;

const TWO32 = 4294967296;

// Scratch result of the 64-bit helpers: R[0] = hi, R[1] = lo (a typed
// array: V8 keeps stores to it fast and inlines the helpers).
const R = new Uint32Array(2);

// (ah,al) * (bh,bl) mod 2^64 into R[0], R[1].
function mul(ah, al, bh, bl) {
  const a0 = al & 0xffff, a1 = al >>> 16;
  const b0 = bl & 0xffff, b1 = bl >>> 16;
  const c00 = a0 * b0; // < 2^32
  const m1 = a1 * b0; // < 2^32
  const m2 = a0 * b1; // < 2^32
  const c16 = (c00 >>> 16) + (m1 & 0xffff) + (m2 & 0xffff); // < 3 * 2^16
  R[1] = ((c16 << 16) | (c00 & 0xffff)) >>> 0;
  const c32 = (c16 >>> 16) + (m1 >>> 16) + (m2 >>> 16) + a1 * b1; // < 2^32
  R[0] = (c32 + Math.imul(ah, bl) + Math.imul(al, bh)) >>> 0;
}

// (ah,al) + (bh,bl) mod 2^64 into R[0], R[1].
function add(ah, al, bh, bl) {
  const lo = al + bl;
  R[1] = lo >>> 0;
  R[0] = (ah + bh + (lo >= TWO32 ? 1 : 0)) >>> 0;
}

// rotate (h,l) left by r (0 < r < 64) into R[0], R[1].
function rotl(h, l, r) {
  if (r >= 32) {
    const t = h;
    h = l;
    l = t;
    r -= 32;
  }
  if (r === 0) {
    R[0] = h;
    R[1] = l;
    return;
  }
  R[0] = ((h << r) | (l >>> (32 - r))) >>> 0;
  R[1] = ((l << r) | (h >>> (32 - r))) >>> 0;
}

// round(acc, input) = rotl(acc + input*P2, 31) * P1, into R[0], R[1].
function round(ah, al, ih, il) {
  mul(ih, il, P2H, P2L);
  add(ah, al, R[0], R[1]);
  rotl(R[0], R[1], 31);
  mul(R[0], R[1], P1H, P1L);
}

/**
 * XXH64 of bytes (Uint8Array) with seed 0, as 16 lowercase hex digits.
 * See xxh64Low32 for the zstd checksum.
 */
export function xxh64Hex(bytes) {
  const [h, l] = xxh64(bytes);
  return h.toString(16).padStart(8, '0') + l.toString(16).padStart(8, '0');
}

/** The low 32 bits of XXH64(bytes), the value a zstd frame stores (little-endian) as its content checksum. */
export function xxh64Low32(bytes) {
  return xxh64(bytes)[1];
}

/** XXH64 of bytes with seed 0 as [hi32, lo32] (unsigned). */
export function xxh64(bytes) {
  const len = bytes.length;
  const dv = new DataView(bytes.buffer, bytes.byteOffset, bytes.byteLength);
  let p = 0;
  let hh, hl;
  if (len >= 32) {
    // v1 = P1 + P2, v2 = P2, v3 = 0, v4 = -P1
    add(P1H, P1L, P2H, P2L);
    let v1h = R[0], v1l = R[1];
    let v2h = P2H, v2l = P2L;
    let v3h = 0, v3l = 0;
    add(~P1H >>> 0, ~P1L >>> 0, 0, 1);
    let v4h = R[0], v4l = R[1];
    const limit = len - 32;
    if (p <= limit) {
      const v = Uint32Array.of(v1h, v1l, v2h, v2l, v3h, v3l, v4h, v4l);
      while (p <= limit) {
        for (let j = 0; j < 8; j += 2, p += 8) {
          // acc = rotl(acc + input * P2, 31) * P1, inlined (see mul, add)
          const il = dv.getUint32(p, true), ih = dv.getUint32(p + 4, true);
          let a0 = il & 0xffff, a1 = il >>> 16;
          let c00 = a0 * 0xeb4f, m1 = a1 * 0xeb4f, m2 = a0 * 0x27d4;
          let c16 = (c00 >>> 16) + (m1 & 0xffff) + (m2 & 0xffff);
          const tl = ((c16 << 16) | (c00 & 0xffff)) >>> 0;
          const th = ((c16 >>> 16) + (m1 >>> 16) + (m2 >>> 16) + a1 * 0x27d4 + Math.imul(ih, P2L) + Math.imul(il, P2H)) >>> 0;
          const sl = v[j + 1] + tl;
          const sh = (v[j] + th + (sl >= TWO32 ? 1 : 0)) >>> 0;
          const ul = sl >>> 0;
          const xh = ((sh << 31) | (ul >>> 1)) >>> 0;
          const xl = ((ul << 31) | (sh >>> 1)) >>> 0;
          a0 = xl & 0xffff; a1 = xl >>> 16;
          c00 = a0 * 0xca87; m1 = a1 * 0xca87; m2 = a0 * 0x85eb;
          c16 = (c00 >>> 16) + (m1 & 0xffff) + (m2 & 0xffff);
          v[j + 1] = (c16 << 16) | (c00 & 0xffff);
          v[j] = (c16 >>> 16) + (m1 >>> 16) + (m2 >>> 16) + a1 * 0x85eb + Math.imul(xh, P1L) + Math.imul(xl, P1H);
        }
      }
      v1h = v[0]; v1l = v[1]; v2h = v[2]; v2l = v[3]; v3h = v[4]; v3l = v[5]; v4h = v[6]; v4l = v[7];
    }
    rotl(v1h, v1l, 1);
    hh = R[0]; hl = R[1];
    rotl(v2h, v2l, 7);
    add(hh, hl, R[0], R[1]);
    hh = R[0]; hl = R[1];
    rotl(v3h, v3l, 12);
    add(hh, hl, R[0], R[1]);
    hh = R[0]; hl = R[1];
    rotl(v4h, v4l, 18);
    add(hh, hl, R[0], R[1]);
    hh = R[0]; hl = R[1];
    for (const [vh, vl] of [[v1h, v1l], [v2h, v2l], [v3h, v3l], [v4h, v4l]]) {
      round(0, 0, vh, vl);
      hh = (hh ^ R[0]) >>> 0;
      hl = (hl ^ R[1]) >>> 0;
      mul(hh, hl, P1H, P1L);
      add(R[0], R[1], P4H, P4L);
      hh = R[0]; hl = R[1];
    }
  } else {
    hh = P5H;
    hl = P5L;
  }
  add(hh, hl, Math.floor(len / TWO32), len >>> 0);
  hh = R[0]; hl = R[1];
  while (p + 8 <= len) {
    round(0, 0, dv.getUint32(p + 4, true), dv.getUint32(p, true));
    hh = (hh ^ R[0]) >>> 0;
    hl = (hl ^ R[1]) >>> 0;
    rotl(hh, hl, 27);
    mul(R[0], R[1], P1H, P1L);
    add(R[0], R[1], P4H, P4L);
    hh = R[0]; hl = R[1];
    p += 8;
  }
  if (p + 4 <= len) {
    mul(0, dv.getUint32(p, true), P1H, P1L);
    hh = (hh ^ R[0]) >>> 0;
    hl = (hl ^ R[1]) >>> 0;
    rotl(hh, hl, 23);
    mul(R[0], R[1], P2H, P2L);
    add(R[0], R[1], P3H, P3L);
    hh = R[0]; hl = R[1];
    p += 4;
  }
  while (p < len) {
    mul(0, bytes[p], P5H, P5L);
    hh = (hh ^ R[0]) >>> 0;
    hl = (hl ^ R[1]) >>> 0;
    rotl(hh, hl, 11);
    mul(R[0], R[1], P1H, P1L);
    hh = R[0]; hl = R[1];
    p++;
  }
  // avalanche: h ^= h >> 33; h *= P2; h ^= h >> 29; h *= P3; h ^= h >> 32
  hl = (hl ^ (hh >>> 1)) >>> 0;
  mul(hh, hl, P2H, P2L);
  hh = R[0]; hl = R[1];
  hl = (hl ^ ((hl >>> 29) | (hh << 3))) >>> 0;
  hh = (hh ^ (hh >>> 29)) >>> 0;
  mul(hh, hl, P3H, P3L);
  hh = R[0]; hl = R[1];
  hl = (hl ^ hh) >>> 0;
  return [hh, hl];
}
