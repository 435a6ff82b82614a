package hostsim

import "runtime"

// ServingProcs is how many threads run Go code at once in a process that serves
// a host (`hostsim serve`, the bench's profiled server) when neither --procs nor
// GOMAXPROCS says otherwise. Every write goes through one SQLite connection
// anyway, and one thread serves far more requests a second than a tofu run
// sends; a second one costs each request the hand-off of work between cores
// and leaves less of a small machine to tofu and the provider (docs/decisions.md,
// "hostsim serve runs on one thread of Go code").
const ServingProcs = 1

// TuneProcs sets the process's GOMAXPROCS for serving a host: n when n > 0 (the
// --procs flag), else what the runtime read from gomaxprocs (the process's
// GOMAXPROCS variable) when that is set, else ServingProcs. It returns the
// value in force. New leaves it alone: an embedding program owns its process.
func TuneProcs(n int, gomaxprocs string) int {
	switch {
	case n > 0:
		runtime.GOMAXPROCS(n)
	case gomaxprocs == "":
		runtime.GOMAXPROCS(ServingProcs)
	}
	return runtime.GOMAXPROCS(0)
}
