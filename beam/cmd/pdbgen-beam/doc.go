// Command pdbgen-beam builds tilepdb pattern databases on Apache Beam: the
// same tables as `pdbgen build`, byte for byte, with the search split
// into shards that a Beam runner processes, one pipeline per BFS level
// (package shardbeam). The default runner is Prism in-process; the same
// command submits to Dataflow, Flink or Spark (docs/sharding.md,
// "Building on Apache Beam").
//
// Usage:
//
//	pdbgen-beam build [table flags] [-o DIR] [--work FOLDER] [--shards N] [--lanes N] [Beam flags]
//	pdbgen-beam worker-pool [--port N]
//	pdbgen-beam job-server [--job_port N]
//	pdbgen-beam --worker ...   (worker mode: started by a runner's container)
package main
