package main

import (
	"context"
	"flag"
	"fmt"
	"io"

	"github.com/apache/beam/sdks/v2/go/pkg/beam"
	"github.com/apache/beam/sdks/v2/go/pkg/beam/core/runtime/graphx"
	"github.com/apache/beam/sdks/v2/go/pkg/beam/options/jobopts"
	"github.com/apache/beam/sdks/v2/go/pkg/beam/runners/prism"
	"github.com/apache/beam/sdks/v2/go/pkg/beam/runners/universal/extworker"
	"github.com/apache/beam/sdks/v2/go/pkg/beam/runners/universal/runnerlib"
)

// runOnPool submits p to the job server at endpoint with an EXTERNAL
// environment served by the worker pool at pool, and waits for it. It is
// Beam's universal runner (runners/universal) with the environment chosen
// per call instead of by the process-wide --environment_config, so that
// the jobs of one level can run on different pools at the same time.
// The pools run the SDK harness in their own process and need no worker
// binary: placeholder (a small file) is staged in its place.
func runOnPool(ctx context.Context, p *beam.Pipeline, endpoint, pool, placeholder string) error {
	edges, _, err := p.Build()
	if err != nil {
		return err
	}
	env, err := graphx.CreateEnvironment(ctx, graphx.URNEnvExternal, func(context.Context) string { return pool })
	if err != nil {
		return err
	}
	pipe, err := graphx.Marshal(edges, &graphx.Options{Environment: env})
	if err != nil {
		return fmt.Errorf("pipeline for worker pool %s: %w", pool, err)
	}
	opt := &runnerlib.JobOptions{Name: jobopts.GetJobName(), Experiments: jobopts.GetExperiments(), Worker: placeholder}
	if _, err := runnerlib.Execute(ctx, pipe, endpoint, opt, false); err != nil {
		return fmt.Errorf("job on worker pool %s: %w", pool, err)
	}
	return nil
}

// runWorkerPool serves Beam's external worker pool protocol
// (BeamFnExternalWorkerPool): a runner with --environment_type=EXTERNAL
// --environment_config=ADDRESS asks it to start SDK workers, which run in
// this process. It prints its address on stdout and serves until
// interrupted.
func runWorkerPool(ctx context.Context, args []string, stdout, stderr io.Writer) error {
	fs := flag.NewFlagSet("worker-pool", flag.ContinueOnError)
	fs.SetOutput(stderr)
	port := fs.Int("port", 0, "TCP port on localhost (0: any free port)")
	level := fs.String("beam_log_level", "error", "level of Beam's logs on stderr: debug, info, warn or error (warn: a line per bundle about unset hooks)")
	if err := fs.Parse(args); err != nil {
		return err
	}
	if fs.NArg() > 0 {
		return usagef("unexpected argument %q", fs.Arg(0))
	}
	if *port < 0 || *port > 65535 {
		return usagef("--port must be between 0 and 65535, got %d", *port)
	}
	if err := setupBeamLogging(*level); err != nil {
		return err
	}
	beam.Init()
	srv, err := extworker.StartLoopback(ctx, *port)
	if err != nil {
		return fmt.Errorf("worker pool: %w", err)
	}
	fmt.Fprintln(stdout, srv.EnvironmentConfig(ctx))
	<-ctx.Done()
	return srv.Stop(context.Background())
}

// runJobServer runs Prism as a stand-alone job server (the Beam SDK's
// cmd/prism without its web UI) until interrupted.
func runJobServer(ctx context.Context, args []string, stdout, stderr io.Writer) error {
	fs := flag.NewFlagSet("job-server", flag.ContinueOnError)
	fs.SetOutput(stderr)
	port := fs.Int("job_port", 8073, "TCP port of the job management service")
	level := fs.String("beam_log_level", "warn", "level of Prism's logs on stderr: debug, info, warn or error")
	if err := fs.Parse(args); err != nil {
		return err
	}
	if fs.NArg() > 0 {
		return usagef("unexpected argument %q", fs.Arg(0))
	}
	if *port < 1 || *port > 65535 {
		return usagef("--job_port must be between 1 and 65535, got %d", *port)
	}
	if err := setupBeamLogging(*level); err != nil {
		return err
	}
	ctx, cancel := context.WithCancelCause(ctx)
	defer cancel(nil)
	if _, err := prism.CreateJobServer(ctx, prism.Options{Port: *port, CancelFn: cancel}); err != nil {
		return fmt.Errorf("job server: %w", err)
	}
	fmt.Fprintf(stdout, "localhost:%d\n", *port)
	<-ctx.Done()
	return nil
}
