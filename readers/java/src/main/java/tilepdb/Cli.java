package tilepdb;

import java.io.BufferedOutputStream;
import java.io.FileDescriptor;
import java.io.FileOutputStream;
import java.io.IOException;
import java.io.InputStream;
import java.io.OutputStream;
import java.io.PrintStream;
import java.nio.charset.StandardCharsets;
import java.util.ArrayList;
import java.util.Arrays;
import java.util.List;

/**
 * Command line of the Java reader, with the contract of {@code pdbgen lookup}
 * (cmd/pdbgen/lookup.go, boards.go):
 *
 * <pre>
 * tilepdb lookup FILE... &lt; boards    one "board TAB value" line per board; "line N: ..." errors on stderr
 * tilepdb verify FILE...             read and verify each table or set file
 * </pre>
 *
 * FILE: table files and set files ({@code <name>.set.json}, format/SPEC.md
 * section 10), as pdbgen takes them ({@link TableReader#openSet}); a
 * malformed set file, or one that does not hold together with its tables,
 * is bad data (exit 1).
 *
 * lookup answers each board as soon as it is known: the sum over the tables
 * (or the exact distance), or "unsolvable" for a board that cannot reach the
 * goal (exact and additive tables alike; not an error). Blank lines, lines
 * whose first non-space character is '#' and a UTF-8 byte-order mark at the
 * start are skipped; a bad line, one longer than 4096 bytes included (of any
 * length), gives "line N: problem" and is skipped.
 *
 * Exit status: 0 all good; 1 bad data (some bad lines, a corrupt table,
 * tables that do not combine: shared tiles, an exact table in a set, other
 * boards or goals); 2
 * usage or I/O trouble (a missing file, a write error on stdout); 130/143
 * interrupted by SIGINT/SIGTERM (the JVM's status; "interrupted" is printed).
 */
public final class Cli {
    private Cli() {}

    private static final String PROG = "tilepdb-java";

    static final class Exit extends Exception {
        final int code;

        Exit(int code, String msg) {
            super(msg);
            this.code = code;
        }
    }

    /** The command main runs, until it returns; named by the shutdown hook on a signal. */
    private static volatile String running;

    public static void main(String[] args) {
        // SIGINT and SIGTERM end the JVM with 130 and 143 after running the
        // shutdown hooks; the answers so far are already written.
        Runtime.getRuntime().addShutdownHook(new Thread(() -> {
            String cmd = running;
            if (cmd != null) {
                System.err.println(PROG + " " + cmd + ": interrupted");
                System.err.flush();
            }
        }));
        running = args.length > 0 ? args[0] : null;
        // Unbuffered: lookup buffers and flushes itself, and write errors
        // arrive as IOExceptions with their reason (PrintStream hides them).
        int code = run(args, System.in, new FileOutputStream(FileDescriptor.out), System.err);
        running = null;
        System.exit(code);
    }

    static String usage() {
        return "usage: tilepdb lookup FILE... < boards   (FILE: tables and set files)\n       tilepdb verify FILE...";
    }

    /** Runs one command line and returns the exit status. */
    public static int run(String[] args, InputStream in, OutputStream out, PrintStream err) {
        if (args.length == 0 || args[0].equals("-h") || args[0].equals("--help") || args[0].equals("help")) {
            err.println(usage());
            return args.length == 0 ? 2 : 0;
        }
        String cmd = args[0];
        String[] rest = Arrays.copyOfRange(args, 1, args.length);
        try {
            switch (cmd) {
                case "lookup" -> lookup(rest, in, out, err);
                case "verify" -> verify(rest, out, err);
                default -> {
                    err.println(PROG + ": unknown command \"" + cmd + "\"\n" + usage());
                    return 2;
                }
            }
            flush(out);
            return 0;
        } catch (Exit e) {
            if (!e.getMessage().isEmpty()) err.println(PROG + " " + cmd + ": " + e.getMessage());
            return e.code;
        } catch (IOException | RuntimeException e) {
            err.println(PROG + " " + cmd + ": " + e.getMessage());
            return 2;
        }
    }

    private static List<String> files(String cmd, String[] args, OutputStream out) throws Exit {
        List<String> files = new ArrayList<>();
        for (int i = 0; i < args.length; i++) {
            String a = args[i];
            if (a.equals("--")) {
                files.addAll(Arrays.asList(args).subList(i + 1, args.length));
                break;
            }
            if (a.equals("-h") || a.equals("--help") || a.equals("-help")) {
                print(out, usage() + "\n");
                throw new Exit(0, "");
            }
            if (a.startsWith("-") && !a.equals("-")) throw new Exit(2, "flag provided but not defined: " + a);
            files.add(a);
        }
        if (files.isEmpty()) throw new Exit(2, "no table files given (usage: tilepdb " + cmd + " FILE...)");
        return files;
    }

    /** Writes text to out (UTF-8) and flushes; a write error is trouble, exit 2. */
    private static void print(OutputStream out, String text) throws Exit {
        try {
            out.write(text.getBytes(StandardCharsets.UTF_8));
        } catch (IOException e) {
            throw new Exit(2, "writing output: " + e.getMessage());
        }
        flush(out);
    }

    private static void lookup(String[] args, InputStream in, OutputStream rawOut, PrintStream err) throws Exit, IOException {
        List<String> files = files("lookup", args, rawOut);
        TableSet set;
        try {
            set = TableReader.openSet(files);
        } catch (TilepdbException | TableSet.SetException e) {
            throw new Exit(1, e.getMessage()); // tables that do not combine are bad data too (Go: puzzle.ErrNotAdditive)
        } catch (LimitException e) {
            throw new Exit(2, e.getMessage());
        } catch (IOException e) {
            throw new Exit(2, systemMessage(e));
        }
        int n = set.n;
        byte[] pos = new byte[n];
        Pattern p0 = set.parts.get(0).pattern();
        OutputStream o = new BufferedOutputStream(rawOut, 1 << 16);
        // Answers of the lines of one input chunk go out together, before the
        // next read may block: an answer never waits for more input (pdbgen
        // flushes when no later answer is ready).
        LineReader lines = new LineReader(in, () -> flush(o));
        int bad = 0;
        for (;;) {
            int no;
            try {
                no = lines.next();
            } catch (IOException e) {
                flush(o);
                throw new Exit(2, "reading boards: " + e.getMessage());
            }
            if (no < 0) break;
            String error;
            Boards.Parsed r = null;
            if (lines.tooLong) {
                error = "line longer than " + Boards.MAX_LINE_LEN + " bytes";
            } else {
                byte[] b = lines.buf;
                int[] se = Boards.trimSpace(b, lines.len);
                if (se[0] == se[1] || b[se[0]] == '#') continue;
                r = Boards.parse(b, 0, lines.len, n);
                error = r.error();
            }
            if (error != null) {
                flush(o);
                err.println("line " + no + ": " + error);
                bad++;
                continue;
            }
            Boards.positions(r.board(), pos);
            // format.Set.Lookup's rule (TableSet.lookup), on the fast path.
            String value = p0.solvablePositions(pos) ? Integer.toString(set.heuristic(pos)) : "unsolvable";
            try {
                o.write((Boards.format(r.board()) + "\t" + value + "\n").getBytes(StandardCharsets.US_ASCII));
            } catch (IOException e) {
                throw new Exit(2, "writing output: " + e.getMessage());
            }
        }
        flush(o);
        if (bad > 0) throw new Exit(1, bad + " bad line(s)");
    }

    /**
     * An I/O error worded as Go's *os.PathError ("open PATH: no such file or
     * directory"), so the final error line is pdbgen's; others keep their message.
     */
    static String systemMessage(IOException e) {
        String m = e.getMessage() == null ? e.toString() : e.getMessage();
        if (e instanceof java.io.FileNotFoundException) {
            java.util.regex.Matcher x = java.util.regex.Pattern.compile("(?s)(.*) \\((.+)\\)").matcher(m);
            if (x.matches()) {
                String why = x.group(2);
                return "open " + x.group(1) + ": " + Character.toLowerCase(why.charAt(0)) + why.substring(1);
            }
        }
        return m;
    }

    interface IOAction {
        void run() throws IOException, Exit;
    }

    /** Flushes o; a write error (a full disk, a closed pipe) is trouble, exit 2. */
    private static void flush(OutputStream o) throws Exit {
        try {
            o.flush();
        } catch (IOException e) {
            throw new Exit(2, "writing output: " + e.getMessage());
        }
        if (o instanceof PrintStream ps && ps.checkError()) throw new Exit(2, "writing output: write error");
    }

    /**
     * Board input split into numbered lines as pdbgen lookup reads it
     * (cmd/pdbgen/boards.go readBoards): lines end at '\n', one trailing '\r'
     * is dropped, a last line without '\n' counts, a UTF-8 byte-order mark at
     * the start of the input is skipped. A line longer than MAX_LINE_LEN bytes
     * (of any length) is flagged tooLong; at most READ_BUF_LEN bytes of a line
     * are kept. pdbgen reads through a bufio.Reader of READ_BUF_LEN bytes
     * (readBufLen: room for "\r\n" and a byte-order mark): a line whose raw
     * bytes fill it is too long whatever it holds; a shorter one is judged
     * by its length without the '\r' and, on line 1, the byte-order mark;
     * mirrored byte for byte.
     */
    static final class LineReader {
        static final int READ_BUF_LEN = Boards.MAX_LINE_LEN + 2 + 3;
        final InputStream in;
        final IOAction beforeBlockingRead;
        /** The current line: buf[0..len), or tooLong. */
        byte[] buf = new byte[READ_BUF_LEN];
        int len;
        boolean tooLong;
        private final byte[] chunk = new byte[1 << 16];
        private int cpos, clen, no;
        private boolean eof;

        LineReader(InputStream in, IOAction beforeBlockingRead) {
            this.in = in;
            this.beforeBlockingRead = beforeBlockingRead;
        }

        /** Reads the next line and returns its number (from 1), or -1 at the end of the input. */
        int next() throws IOException, Exit {
            len = 0;
            tooLong = false;
            int raw = 0;
            for (;;) {
                if (cpos == clen) {
                    if (eof) break;
                    beforeBlockingRead.run();
                    clen = in.read(chunk);
                    cpos = 0;
                    if (clen <= 0) {
                        clen = 0;
                        eof = true;
                        break;
                    }
                }
                byte c = chunk[cpos++];
                if (c == '\n') return take(raw);
                if (raw < READ_BUF_LEN) buf[raw++] = c;
                else tooLong = true;
                if (raw == READ_BUF_LEN) tooLong = true;
            }
            return raw > 0 || tooLong ? take(raw) : -1;
        }

        private int take(int raw) {
            no++;
            if (tooLong) return no;
            int s = 0;
            if (no == 1 && raw >= 3 && buf[0] == (byte) 0xef && buf[1] == (byte) 0xbb && buf[2] == (byte) 0xbf) s = 3;
            int e = raw;
            if (e > s && buf[e - 1] == '\r') e--;
            if (s > 0) System.arraycopy(buf, s, buf, 0, e - s);
            len = e - s;
            if (len > Boards.MAX_LINE_LEN) tooLong = true;
            return no;
        }
    }

    private static void verify(String[] args, OutputStream out, PrintStream err) throws Exit {
        List<String> files = files("verify", args, out);
        int bad = 0, trouble = 0;
        for (String f : files) {
            try {
                if (TableReader.isSetFile(f)) {
                    TableSet s = TableReader.openSet(List.of(f));
                    String what = s.catalogue() ? "catalogue, " + s.w + "x" + s.h + " board, " + s.partitionCount() + " partitions of " + s.parts.size() + " parts" : "set file, " + s.w + "x" + s.h + " board, " + s.parts.size() + " parts";
                    print(out, f + ": ok (" + what + " through " + s.tables.size() + " tables)\n");
                    continue;
                }
                Table t = TableReader.readFile(f);
                print(out, f + ": ok (" + t.pattern + ", " + t.header.entries() + " entries, max " + t.header.maxValue() + ")\n");
            } catch (TilepdbException e) {
                err.println(e.getMessage());
                bad++;
            } catch (TableSet.SetException e) {
                err.println(e.getMessage());
                trouble++;
            } catch (IOException e) {
                err.println(systemMessage(e));
                trouble++;
            } catch (LimitException e) {
                err.println(f + ": " + e.getMessage());
                trouble++;
            }
        }
        if (trouble > 0) throw new Exit(2, trouble + " file(s) could not be read");
        if (bad > 0) throw new Exit(1, bad + " bad file(s)");
    }
}
