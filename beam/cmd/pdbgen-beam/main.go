package main

import (
	"context"
	"errors"
	"flag"
	"fmt"
	"io"
	"os"
	"os/signal"
	"strings"
	"syscall"

	"github.com/apache/beam/sdks/v2/go/pkg/beam"
	beamlog "github.com/apache/beam/sdks/v2/go/pkg/beam/log"
	// Runner registration (prism, dataflow, flink, spark, universal...),
	// the optimized reflection runtime and the flags of all of them.
	_ "github.com/apache/beam/sdks/v2/go/pkg/beam/x/beamx"
)

// Exit statuses, as pdbgen's: 0 success, 1 a failed build, 2 usage or
// trouble (bad flags, I/O), 130/143 on SIGINT/SIGTERM.
const (
	exitFailed  = 1
	exitUsage   = 2
	exitSignals = 128
)

// usageError is a command-line mistake: one line, exit 2.
type usageError struct{ msg string }

func (e *usageError) Error() string { return e.msg }

func usagef(format string, a ...any) error { return &usageError{fmt.Sprintf(format, a...)} }

const usage = `usage: pdbgen-beam <command> [flags]

Commands:
  build        build tables on Apache Beam (Prism in-process by default) into -o DIR
  worker-pool  serve an EXTERNAL environment: run the SDK harnesses a runner starts
  job-server   run Prism as a stand-alone job server (--runner universal --endpoint ...)
  version      print the generator string written into table headers

'pdbgen-beam <command> -h' lists a command's flags.
`

func main() {
	os.Exit(run(os.Args[1:], os.Stdout, os.Stderr))
}

// run is the whole command: it returns the exit status.
func run(args []string, stdout, stderr io.Writer) int {
	if len(args) == 0 {
		fmt.Fprint(stderr, usage)
		return exitUsage
	}
	ctx, stop := signal.NotifyContext(context.Background(), os.Interrupt, syscall.SIGTERM)
	defer stop()
	var err error
	switch args[0] {
	case "build":
		err = runBuild(ctx, args[1:], stdout, stderr)
	case "worker-pool":
		err = runWorkerPool(ctx, args[1:], stdout, stderr)
	case "job-server":
		err = runJobServer(ctx, args[1:], stdout, stderr)
	case "version":
		fmt.Fprintln(stdout, generator)
	case "-h", "-help", "--help", "help":
		fmt.Fprint(stdout, usage)
	default:
		if strings.HasPrefix(args[0], "-") {
			// Worker mode: a runner's boot program starts the binary as
			// `pdbgen-beam --worker=true --id=... --control_endpoint=...`;
			// beam.Init runs the SDK harness and exits.
			if err := flag.CommandLine.Parse(args); err != nil {
				return exitUsage
			}
			beam.Init()
			fmt.Fprintf(stderr, "pdbgen-beam: unknown command %q\n", strings.Join(args, " "))
			return exitUsage
		}
		fmt.Fprintf(stderr, "pdbgen-beam: unknown command %q\n%s", args[0], usage)
		return exitUsage
	}
	var ue *usageError
	switch {
	case err == nil:
		return 0
	case errors.Is(err, flag.ErrHelp):
		return 0
	case errors.As(err, &ue):
		fmt.Fprintf(stderr, "pdbgen-beam %s: %v\n", args[0], err)
		return exitUsage
	case ctx.Err() != nil:
		fmt.Fprintf(stderr, "pdbgen-beam %s: interrupted\n", args[0])
		return exitSignals + 2
	default:
		fmt.Fprintf(stderr, "pdbgen-beam %s: %v\n", args[0], err)
		var fe *failedError
		if errors.As(err, &fe) {
			return exitFailed
		}
		return exitUsage
	}
}

// failedError is a build that ran and failed (exit 1).
type failedError struct{ err error }

func (e *failedError) Error() string { return e.err.Error() }
func (e *failedError) Unwrap() error { return e.err }

// beamFlags adds every flag Beam registered on the process's flag set
// (--runner, --endpoint, --environment_type, --environment_config,
// --job_name, Dataflow's --project, --region, --temp_location...) to fs,
// sharing their values, so one command line sets both.
func beamFlags(fs *flag.FlagSet) {
	flag.CommandLine.VisitAll(func(f *flag.Flag) {
		if fs.Lookup(f.Name) == nil {
			fs.Var(f.Value, f.Name, f.Usage)
		}
	})
}

// setupBeamLogging sends Beam's and Prism's logs to stderr at level
// ("debug", "info", "warn" or "error").
func setupBeamLogging(level string) error {
	switch level {
	case "debug", "info", "warn", "error":
	default:
		return usagef("--beam_log_level must be debug, info, warn or error, got %q", level)
	}
	beamlog.SetupLogging(level, "text")
	return nil
}
