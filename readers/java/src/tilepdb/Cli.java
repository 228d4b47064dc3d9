package tilepdb;

import java.io.BufferedOutputStream;
import java.io.IOException;
import java.io.InputStream;
import java.io.OutputStream;
import java.io.PrintStream;
import java.nio.charset.StandardCharsets;
import java.util.ArrayList;
import java.util.Arrays;
import java.util.List;

/**
 * Command line of the Java reader, with the contract of {@code pdbgen lookup}:
 *
 * <pre>
 * tilepdb lookup FILE... &lt; boards    one "board TAB value" line per board; "line N: ..." errors on stderr
 * tilepdb verify FILE...             read and verify each table
 * </pre>
 *
 * Exit status: 0 all good; 1 bad data (a bad line, a corrupt table); 2 usage or I/O trouble.
 */
public final class Cli {
    private Cli() {}

    private static final String PROG = "tilepdb-java";

    private static final class Exit extends Exception {
        final int code;

        Exit(int code, String msg) {
            super(msg);
            this.code = code;
        }
    }

    public static void main(String[] args) {
        System.exit(run(args, System.in, System.out, System.err));
    }

    static String usage() {
        return "usage: tilepdb lookup FILE... < boards\n       tilepdb verify FILE...";
    }

    /** Runs one command line and returns the exit status. */
    public static int run(String[] args, InputStream in, PrintStream out, PrintStream err) {
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
            return 0;
        } catch (Exit e) {
            if (!e.getMessage().isEmpty()) err.println(PROG + " " + cmd + ": " + e.getMessage());
            return e.code;
        } catch (IOException | RuntimeException e) {
            err.println(PROG + " " + cmd + ": " + e.getMessage());
            return 2;
        } finally {
            out.flush();
        }
    }

    private static List<String> files(String cmd, String[] args, PrintStream out) throws Exit {
        List<String> files = new ArrayList<>();
        for (int i = 0; i < args.length; i++) {
            String a = args[i];
            if (a.equals("--")) {
                files.addAll(Arrays.asList(args).subList(i + 1, args.length));
                break;
            }
            if (a.equals("-h") || a.equals("--help") || a.equals("-help")) {
                out.println(usage());
                throw new Exit(0, "");
            }
            if (a.startsWith("-") && !a.equals("-")) throw new Exit(2, "flag provided but not defined: " + a);
            files.add(a);
        }
        if (files.isEmpty()) throw new Exit(2, "no table files given (usage: tilepdb " + cmd + " FILE...)");
        return files;
    }

    private static void lookup(String[] args, InputStream in, PrintStream out, PrintStream err) throws Exit, IOException {
        List<String> files = files("lookup", args, out);
        TableSet set;
        try {
            set = TableReader.openSet(files);
        } catch (TilepdbException e) {
            throw new Exit(1, e.getMessage());
        } catch (LimitException | TableSet.SetException e) {
            throw new Exit(2, e.getMessage());
        } catch (IOException e) {
            throw new Exit(2, e.toString());
        }
        int n = set.n;
        byte[] pos = new byte[n];
        Pattern p0 = set.tables.get(0).pattern;
        OutputStream o = new BufferedOutputStream(out, 1 << 16);
        LineReader lines = new LineReader(in);
        int bad = 0;
        try {
            for (int lineNo = 1;; lineNo++) {
                int len = lines.next();
                if (len < 0) break;
                byte[] b = lines.buf;
                int[] se = Boards.trimSpace(b, len);
                int s = se[0], e = se[1];
                if (s == e || b[s] == '#') continue;
                String error = null;
                Boards.Parsed r = null;
                if (e - s > Boards.MAX_LINE_LEN) {
                    error = "line longer than " + Boards.MAX_LINE_LEN + " bytes";
                } else {
                    r = Boards.parse(b, s, e, n);
                    error = r.error();
                }
                int h = 0;
                if (error == null) {
                    Boards.positions(r.board(), pos);
                    if (!set.exact || p0.solvablePositions(pos)) h = set.heuristic(pos);
                    else error = "board is not solvable for goal " + p0.goalName() + "; the exact table has no entry for it";
                }
                if (error != null) {
                    o.flush();
                    err.println("line " + lineNo + ": " + error);
                    bad++;
                    continue;
                }
                o.write((Boards.format(r.board()) + "\t" + h + "\n").getBytes(StandardCharsets.US_ASCII));
            }
        } catch (Exit ex) {
            o.flush();
            throw ex;
        }
        o.flush();
        if (bad > 0) throw new Exit(1, bad + " bad line(s)");
    }

    /** Lines as Go's bufio.Scanner (ScanLines) yields them, with its 1 MiB limit. */
    private static final class LineReader {
        final InputStream in;
        byte[] buf = new byte[4096];
        private final byte[] chunk = new byte[1 << 16];
        private int cpos, clen;
        private boolean eof;

        LineReader(InputStream in) { this.in = in; }

        /** Reads the next line into buf and returns its length (without '\n' and one trailing '\r'), or -1 at the end. */
        int next() throws IOException, Exit {
            int len = 0;
            boolean any = false;
            for (;;) {
                if (cpos == clen) {
                    if (eof) break;
                    clen = in.read(chunk);
                    cpos = 0;
                    if (clen <= 0) {
                        clen = 0;
                        eof = true;
                        break;
                    }
                }
                any = true;
                byte c = chunk[cpos++];
                if (c == '\n') return dropCR(len);
                if (len == buf.length) buf = Arrays.copyOf(buf, buf.length * 2);
                buf[len++] = c;
                if (len >= Boards.MAX_SCAN_LEN) throw new Exit(2, "reading boards: bufio.Scanner: token too long");
            }
            return any && len > 0 ? dropCR(len) : -1;
        }

        private int dropCR(int len) {
            return len > 0 && buf[len - 1] == '\r' ? len - 1 : len;
        }
    }

    private static void verify(String[] args, PrintStream out, PrintStream err) throws Exit {
        List<String> files = files("verify", args, out);
        int bad = 0, trouble = 0;
        for (String f : files) {
            try {
                Table t = TableReader.readFile(f);
                out.println(f + ": ok (" + t.pattern + ", " + t.header.entries() + " entries, max " + t.header.maxValue() + ")");
            } catch (TilepdbException e) {
                err.println(e.getMessage());
                bad++;
            } catch (IOException | LimitException e) {
                err.println(f + ": " + e.getMessage());
                trouble++;
            }
        }
        if (trouble > 0) throw new Exit(2, trouble + " file(s) could not be read");
        if (bad > 0) throw new Exit(1, bad + " bad file(s)");
    }
}
