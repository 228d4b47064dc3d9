package tilepdb;

import java.util.ArrayList;
import java.util.List;
import java.util.Random;

/**
 * Timing of the Java reader: open+verify time of each file (best of 3), then
 * lookups/s over the set of all the files (checked and fast path).
 *   java -cp ... tilepdb.Bench FILE...
 */
public final class Bench {
    public static void main(String[] args) throws Exception {
        List<Table> tables = new ArrayList<>();
        for (String f : args) {
            long best = Long.MAX_VALUE;
            Table t = null;
            for (int r = 0; r < 3; r++) {
                long t0 = System.nanoTime();
                t = TableReader.readFile(f);
                best = Math.min(best, System.nanoTime() - t0);
            }
            tables.add(t);
            System.out.printf("open+verify\t%s\t%d\t%.1f ms%n", f, t.header.entries(), best / 1e6);
        }
        TableSet set;
        try {
            set = new TableSet(tables);
        } catch (IllegalArgumentException e) {
            return;
        }
        int n = set.n;
        Random rnd = new Random(1);
        int count = 100000;
        int[][] boards = new int[count][];
        byte[][] poss = new byte[count][];
        for (int k = 0; k < count;) {
            int[] a = new int[n];
            for (int i = 0; i < n; i++) a[i] = i;
            for (int i = n - 1; i > 0; i--) {
                int j = rnd.nextInt(i + 1);
                int x = a[i]; a[i] = a[j]; a[j] = x;
            }
            byte[] p = new byte[n];
            for (int c = 0; c < n; c++) p[a[c]] = (byte) c;
            if (!tables.get(0).pattern.solvablePositions(p)) continue; // lookup throws UnsolvableException for these
            boards[k] = a;
            poss[k++] = p;
        }
        long sink = 0;
        for (int pass = 0; pass < 2; pass++) {
            for (int mode = 0; mode < 2; mode++) {
                int reps = 10;
                long t0 = System.nanoTime();
                for (int r = 0; r < reps; r++)
                    for (int i = 0; i < count; i++) sink += mode == 0 ? set.lookup(boards[i]) : set.heuristic(poss[i]);
                double s = (System.nanoTime() - t0) / 1e9;
                if (pass == 1)
                    System.out.printf("lookups/s\t%s\t%d tables\t%d%n", mode == 0 ? "checked lookup(board)" : "fast heuristic(pos)", tables.size(), Math.round(reps * count / s));
            }
        }
        if (sink < 0) System.out.println(sink);
    }
}
