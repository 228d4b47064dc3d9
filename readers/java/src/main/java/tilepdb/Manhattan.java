package tilepdb;

/**
 * Manhattan distance of every rank of a table in rank order (SPEC.md
 * section 8, "Computing m(r) fast"), for decoding format 2 codes:
 * value(r) = m(r) + 2 code(r).
 */
final class Manhattan {
    private Manhattan() {}

    /** Receives (rank, m) in increasing rank order; returns false to stop. */
    interface Visit { boolean visit(long rank, int m); }

    private static int[] distances(Pattern p) {
        int n = p.n, w = p.w;
        int[] d = new int[n * n];
        for (int t = 1; t < n; t++) {
            int g = p.goalPos[t];
            for (int c = 0; c < n; c++) d[t * n + c] = Math.abs(c / w - g / w) + Math.abs(c % w - g % w);
        }
        return d;
    }

    /** Calls v for every rank of p in order with the Manhattan distance of the table's tiles in that state. */
    static void forEach(Pattern p, Visit v) {
        new Walker(p, v).run();
    }

    private static final class Walker {
        final Pattern p;
        final Visit v;
        final int n;
        final int[] dist;
        long rank;
        boolean stop;
        // exact
        int goalParity;
        // additive
        int[] slotTile;

        Walker(Pattern p, Visit v) {
            this.p = p;
            this.v = v;
            this.n = p.n;
            this.dist = distances(p);
        }

        void run() {
            if (p.exact) {
                for (int i = 0; i < n; i++) for (int j = i + 1; j < n; j++) if (p.goalPos[j] < p.goalPos[i]) goalParity ^= 1;
                exact(0, 0, 0, 0, 0);
                return;
            }
            int k = p.tiles.length;
            long orders = p.size / p.comb;
            slotTile = new int[k];
            int[] digits = new int[k];
            for (long ord = 0; ord < orders && !stop; ord++) {
                long r = ord;
                for (int i = k - 1; i >= 0; i--) {
                    digits[i] = (int) (r % (k - i));
                    r /= k - i;
                }
                int used = 0;
                for (int i = 0; i < k; i++) {
                    int free = ~used;
                    for (int d = digits[i]; d > 0; d--) free &= free - 1;
                    int o = Integer.numberOfTrailingZeros(free);
                    used |= 1 << o;
                    slotTile[o] = p.tiles[i];
                }
                additive(k - 1, n, 0);
            }
        }

        void additive(int j, int hi, int partial) {
            int base = slotTile[j] * n;
            if (j == 0) {
                for (int s = 0; s < hi; s++) {
                    if (!v.visit(rank++, partial + dist[base + s])) {
                        stop = true;
                        return;
                    }
                }
                return;
            }
            for (int s = j; s < hi && !stop; s++) additive(j - 1, s, partial + dist[base + s]);
        }

        // exact tables have at most 2^36 entries, so N!/2 <= 2^36: N <= 14 cells, and an int mask holds them
        void exact(int d, int used, int partial, int parity, int blank) {
            if (d == n - 2) {
                int free = ~used & ((1 << n) - 1);
                int a = Integer.numberOfTrailingZeros(free);
                int b = Integer.numberOfTrailingZeros(free & (free - 1));
                int gb = p.goalPos[0], w = p.w;
                int bd = Math.abs(blank / w - gb / w) + Math.abs(blank % w - gb % w);
                int x = a, y = b;
                if ((parity ^ goalParity) != bd % 2) { x = b; y = a; }
                if (!v.visit(rank++, partial + dist[(n - 2) * n + x] + dist[(n - 1) * n + y])) stop = true;
                return;
            }
            int digit = 0;
            for (int c = 0; c < n && !stop; c++) {
                if ((used & (1 << c)) != 0) continue;
                exact(d + 1, used | (1 << c), partial + dist[d * n + c], parity ^ (digit & 1), d == 0 ? c : blank);
                digit++;
            }
        }
    }

    /** values[r] = m(r) + 2 codes[r] in place; null, or {rank, value} of the first value above 254. */
    static long[] decodeCodes(byte[] values, Pattern p) {
        long[][] bad = {null};
        forEach(p, (r, m) -> {
            int val = m + 2 * (values[(int) r] & 0xff);
            if (val > 254) {
                bad[0] = new long[] {r, val};
                return false;
            }
            values[(int) r] = (byte) val;
            return true;
        });
        return bad[0];
    }

    /**
     * decodeCodes for a zero-aware table (SPEC.md 11.2): the Manhattan
     * distance of index P·S + slot is that of its placement, rank
     * P·C(N,k) + M with M the cell set of the slot. Works one tile order at
     * a time, with the row of its C(N,k) placements.
     */
    static long[] decodeZeroAware(byte[] values, Regions r) {
        long[][] bad = {null};
        int comb = (int) r.comb;
        int[] row = new int[comb];
        forEach(r.pattern, (rank, m) -> {
            int set = (int) (rank % comb);
            row[set] = m;
            if (set < comb - 1) return true;
            long base = rank / comb * r.slots;
            for (int s = 0; s < comb; s++) {
                for (long i = base + r.slotStart(s), end = base + r.slotStart(s + 1); i < end; i++) {
                    int val = row[s] + 2 * (values[(int) i] & 0xff);
                    if (val > 254) {
                        bad[0] = new long[] {i, val};
                        return false;
                    }
                    values[(int) i] = (byte) val;
                }
            }
            return true;
        });
        return bad[0];
    }
}
