package tilepdb;

import java.util.ArrayList;
import java.util.HashMap;
import java.util.List;
import java.util.Map;
import java.util.StringJoiner;

/**
 * Parts forming one heuristic: one exact table, or additive parts on the
 * same board and goal with pairwise disjoint tiles (their sum is
 * admissible, Korf and Felner 2002), or a catalogue (format/SPEC.md
 * section 12): several such additive partitions, the heuristic being the
 * maximum over the partitions of their sums (Holte et al. 2006). Each part is looked up through a
 * table, for the table's own pattern or, from a set file (format/SPEC.md
 * section 10), for a pattern that a board symmetry maps onto the table's.
 */
public final class TableSet {
    /**
     * Tables given together that do not form one heuristic (different boards
     * or goals, an exact table in a set, shared tiles): not a file problem,
     * but bad data all the same (Go: puzzle.ErrNotAdditive; pdbgen exits 1).
     */
    public static final class SetException extends Exception {
        SetException(String msg) { super(msg); }
    }

    /**
     * One term of the heuristic: the tiles of pattern, looked up in table
     * after symmetry (a name of SPEC.md section 10); mapping is null for the
     * table's own pattern.
     */
    public record Part(Pattern pattern, Table table, String symmetry, SetFile.Mapping mapping) {
        /** The table's own pattern. */
        public Part(Table t) { this(t.pattern, t, "identity", null); }
    }

    /** The distinct tables behind the parts, in order of first use. */
    public final List<Table> tables;
    /** The parts, in order. */
    public final List<Part> parts;
    /**
     * For a catalogue (SPEC.md section 12), the indices into {@link #parts}
     * of each partition's parts, in file order; null for an additive set
     * (one partition of all the parts) or an exact table.
     */
    private final int[][] partitions;
    public final int w, h, n;
    public final byte[] goal;
    public final boolean exact;
    private final Pattern[] patterns;
    private final byte[][] values;
    private final Regions[] regions; // per part: its table's, null for a plain table
    private final byte[][] cellMaps, srcs;
    private final int[] ends; // catalogue: the end (exclusive) of each partition in the arrays above, which hold the parts partition by partition; null otherwise

    /** Groups tables, each for its own pattern (see the class comment); throws IllegalArgumentException with the reason. */
    public TableSet(List<Table> tables) {
        this(parts(tables), null, false, null);
    }

    private static List<Part> parts(List<Table> tables) {
        List<Part> out = new ArrayList<>();
        for (Table t : tables) out.add(new Part(t));
        return out;
    }

    private TableSet(List<Part> parts, List<String> names, boolean fromSetFile, int[][] partitions) {
        try {
            check(parts, names, fromSetFile, partitions);
        } catch (SetException | SetFileException e) {
            throw new IllegalArgumentException(e.getMessage(), e);
        }
        this.parts = List.copyOf(parts);
        if (partitions != null) {
            this.partitions = new int[partitions.length][];
            for (int i = 0; i < partitions.length; i++) this.partitions[i] = partitions[i].clone();
        } else {
            this.partitions = null;
        }
        List<Table> distinct = new ArrayList<>();
        for (Part p : parts) if (!distinct.contains(p.table())) distinct.add(p.table());
        this.tables = List.copyOf(distinct);
        Pattern first = parts.get(0).pattern();
        this.w = first.w;
        this.h = first.h;
        this.n = first.n;
        this.goal = first.goal.clone();
        this.exact = first.exact;
        int k = parts.size();
        this.patterns = new Pattern[k];
        this.values = new byte[k][];
        this.regions = new Regions[k];
        this.cellMaps = new byte[k][];
        this.srcs = new byte[k][];
        int[] order = new int[k];
        if (partitions == null) {
            for (int i = 0; i < k; i++) order[i] = i;
            this.ends = null;
        } else {
            this.ends = new int[partitions.length];
            int o = 0;
            for (int q = 0; q < partitions.length; q++) {
                for (int i : partitions[q]) order[o++] = i;
                ends[q] = o;
            }
        }
        for (int slot = 0; slot < k; slot++) {
            int i = slot;
            Part p = parts.get(order[slot]);
            patterns[i] = p.table().pattern;
            values[i] = p.table().values;
            regions[i] = p.table().regions;
            if (p.mapping() != null) {
                cellMaps[i] = p.mapping().cell();
                srcs[i] = p.mapping().src();
            }
        }
    }

    /** Groups tables named in errors by names (file paths). */
    public static TableSet of(List<Table> tables, List<String> names) throws SetException {
        List<Part> ps = parts(tables);
        try {
            check(ps, names, false, null);
        } catch (SetFileException e) {
            throw new IllegalStateException(e);
        }
        return new TableSet(ps, names, false, null);
    }

    /**
     * Groups parts named in errors by names, checked like {@link #of}; the
     * errors are SetFileExceptions (bad data, "tilepdb: invalid set: ...")
     * when fromSetFile, else IllegalArgumentException wrapping a SetException.
     */
    static TableSet ofParts(List<Part> parts, List<String> names, boolean fromSetFile) throws SetFileException {
        return ofParts(parts, names, fromSetFile, null);
    }

    /**
     * Groups parts as {@link #ofParts(List, List, boolean)}; partitions, if
     * not null, makes a catalogue: the indices into parts of each
     * partition's parts (each part in one partition), the parts of each
     * partition pairwise disjoint.
     */
    static TableSet ofParts(List<Part> parts, List<String> names, boolean fromSetFile, int[][] partitions) throws SetFileException {
        try {
            check(parts, names, fromSetFile, partitions);
        } catch (SetException e) {
            throw new IllegalArgumentException(e.getMessage(), e);
        }
        return new TableSet(parts, names, fromSetFile, partitions);
    }

    /** A catalogue (SPEC.md section 12) of partitions of parts; see {@link #ofParts(List, List, boolean, int[][])}. Throws IllegalArgumentException with the reason. */
    public static TableSet catalogue(List<Part> parts, int[][] partitions) {
        return new TableSet(parts, null, false, partitions);
    }

    /** Whether this set is a catalogue (SPEC.md section 12): the maximum over partitions of additive sums. */
    public boolean catalogue() {
        return partitions != null;
    }

    /** The number of partitions: of a catalogue, else 1. */
    public int partitionCount() {
        return partitions == null ? 1 : partitions.length;
    }

    /** The indices into {@link #parts} of partition i's parts (0-based i); for a set that is not a catalogue, partition 0 is every part. */
    public int[] partition(int i) {
        if (partitions == null) {
            if (i != 0) throw new IndexOutOfBoundsException(i);
            int[] all = new int[parts.size()];
            for (int j = 0; j < all.length; j++) all[j] = j;
            return all;
        }
        return partitions[i].clone();
    }

    private static void check(List<Part> parts, List<String> names, boolean fromSetFile, int[][] partitions) throws SetException, SetFileException {
        try {
            check(parts, names, partitions);
        } catch (SetException e) {
            if (fromSetFile) throw new SetFileException("tilepdb: invalid set: " + e.getMessage().substring("tilepdb: ".length()), null, 0);
            throw e;
        }
    }

    private static void check(List<Part> parts, List<String> names, int[][] partitions) throws SetException {
        if (parts.isEmpty()) throw new SetException("tilepdb: empty set: need at least one table");
        List<String> nm = names;
        if (nm == null) {
            nm = new ArrayList<>();
            for (int i = 0; i < parts.size(); i++) nm.add("table " + (i + 1));
        }
        Pattern first = parts.get(0).pattern();
        // per partition the part holding each tile: the parts of each
        // partition are pairwise disjoint (SPEC.md 12 step 8)
        int[] partitionOf = new int[parts.size()];
        List<Map<Integer, Integer>> owners = new ArrayList<>();
        owners.add(new HashMap<>());
        if (partitions != null) {
            for (int q = 0; q < partitions.length; q++) {
                if (q > 0) owners.add(new HashMap<>());
                for (int i : partitions[q]) partitionOf[i] = q;
            }
        }
        for (int i = 0; i < parts.size(); i++) {
            Map<Integer, Integer> owner = owners.get(partitionOf[i]);
            Pattern p = parts.get(i).pattern();
            String desc = nm.get(i) + " (" + p + ")";
            if (p.w != first.w || p.h != first.h)
                throw new SetException("tilepdb: " + desc + " is for a " + p.w + "x" + p.h + " board, " + nm.get(0) + " (" + first + ") for " + first.w + "x" + first.h);
            if (!java.util.Arrays.equals(p.goal, first.goal))
                throw new SetException("tilepdb: " + desc + " has goal \"" + Boards.format(p.goal) + "\", " + nm.get(0) + " has goal \"" + Boards.format(first.goal) + "\"");
            if (p.exact && parts.size() > 1)
                throw new SetException("tilepdb: " + desc + " is an exact table and must be used alone, not in a set of " + parts.size());
            StringJoiner shared = new StringJoiner(",");
            int other = -1;
            // the earlier part holding the smallest shared tile, and the
            // tiles shared with that part (not those shared with others)
            for (byte t : p.tiles) {
                Integer j = owner.get((int) t);
                if (j != null && (other < 0 || j == other)) {
                    shared.add(Integer.toString(t));
                    other = j;
                }
            }
            if (other >= 0)
                throw new SetException("tilepdb: " + desc + " and " + nm.get(other) + " (" + parts.get(other).pattern() + ") are not disjoint: both hold tile(s) " + shared);
            for (byte t : p.tiles) owner.put((int) t, i);
        }
    }

    /**
     * Fast path: sum of the parts' values for position vector pos (pos[t] =
     * cell of tile t); nothing checked, no allocation. A symmetric part reads
     * its table at the cellset-order rank of the cells σ(pos[t]) of its tiles
     * t, in the order of the table tiles π(t) they are looked up as (SPEC.md
     * section 10). A zero-aware table (SPEC.md section 11) is read at the
     * index of those cells and of the blank's cell σ(pos[0]). For a
     * catalogue: the maximum over the partitions of the sums of their
     * parts. Safe for concurrent use.
     */
    public int heuristic(byte[] pos) {
        if (ends == null) return sum(pos, 0, patterns.length);
        int best = 0, start = 0;
        for (int end : ends) {
            best = Math.max(best, sum(pos, start, end));
            start = end;
        }
        return best;
    }

    /** The sum of the values of the parts in slots start..end-1 of the arrays. */
    private int sum(byte[] pos, int start, int end) {
        int sum = 0;
        for (int i = start; i < end; i++) {
            byte[] src = srcs[i];
            Regions za = regions[i];
            if (src == null) {
                sum += values[i][(int) (za != null ? za.index(pos) : patterns[i].rank(pos))] & 0xff;
                continue;
            }
            sum += values[i][(int) (za != null ? za.indexMapped(pos, src, cellMaps[i]) : patterns[i].rankMapped(pos, src, cellMaps[i]))] & 0xff;
        }
        return sum;
    }

    /**
     * Checked lookup of a board (tile per cell, 0 = blank), in moves, with the
     * rule of format.Set.Lookup (what {@code pdbgen lookup} prints): throws
     * BoardException for a malformed board, and UnsolvableException for one
     * that cannot reach the goal, for exact and additive sets alike (an exact
     * table has no entry for it; additive tables hold every placement of their
     * tiles, but a sum for a board with no distance would mislead). Otherwise
     * returns {@link #heuristic} of the board's positions.
     */
    public int lookup(int[] board) throws BoardException, UnsolvableException {
        String err = Boards.validate(board, n);
        if (err != null) throw new BoardException(err);
        byte[] pos = new byte[n];
        for (int c = 0; c < n; c++) pos[board[c]] = (byte) c;
        if (!parts.get(0).pattern().solvablePositions(pos)) throw new UnsolvableException(Boards.goalName(goal));
        return heuristic(pos);
    }

    /** Same as {@link #lookup} (its former name). */
    public int heuristicBoard(int[] board) throws BoardException, UnsolvableException {
        return lookup(board);
    }
}
