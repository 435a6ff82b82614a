// Command bench measures hostsim against a null HTTP server with the same
// keep-alive client (`go tool mage bench` runs it): one lifecycle is prepare →
// PUT → GET → DELETE of one EdgeKVNamespace, four requests. It prints the
// sequential and 8-worker rates of both hosts and their ratios (the median of
// interleaved rounds, so a machine's changing load weighs on both alike), the
// host's resident memory after 6,000 lifecycles, and the rates with --db FILE.
// Figures depend on the machine and its load: read them as indicative. Beside
// each rate it prints the CPU one lifecycle cost in the server (from its
// CPU-time clock, cpu.go) and in the client (getrusage): on a shared machine CPU per
// lifecycle moves far less with the load than a rate does. Below those rows,
// "server CPU hostsim/null" is the host's server CPU over the null server's,
// round by round (issue 23 states its speed targets so): the median and range.
// Five rounds of 1,500 sequential and 4,000 parallel lifecycles by default
// (about 30 s): with three rounds of 1,000 and 2,000 one run's median moved by
// a tenth between runs of the same code (docs/decisions.md, "hostsim and
// provider speed against their yardsticks").
//
// Both servers run as child processes started the same way (a ready file on a
// free loopback port); `bench null` is the null server. `bench --profile DIR`
// measures nothing: it serves hostsim in a child `bench hostsim-profiled` (the
// way `hostsim serve` does) and writes the server's CPU and heap profiles, the
// client's CPU profile and a memory breakdown of the host.
package main

import (
	"flag"
	"fmt"
	"io"
	"os"
	"os/signal"
	"path/filepath"
	"sort"
	"syscall"

	"github.com/takokit/takokit/catalog/piddir"
)

func main() {
	if len(os.Args) > 1 && os.Args[1] == "null" {
		if err := serveNull(os.Args[2:]); err != nil {
			fmt.Fprintln(os.Stderr, "bench null:", err)
			os.Exit(1)
		}
		return
	}
	if len(os.Args) > 1 && os.Args[1] == "hostsim-profiled" {
		if err := serveProfiled(os.Args[2:]); err != nil {
			fmt.Fprintln(os.Stderr, "bench hostsim-profiled:", err)
			os.Exit(1)
		}
		return
	}
	if err := run(os.Args[1:], os.Stdout); err != nil {
		if stopping.Load() {
			select {} // removeOnSignal exits once the folder is gone
		}
		fmt.Fprintln(os.Stderr, "bench:", err)
		os.Exit(1)
	}
}

// options are the command line of a measurement run.
type options struct {
	hostsim     string // the hostsim binary
	sequential  int    // lifecycles of one sequential round
	parallel    int    // lifecycles of one parallel round, across the workers
	workers     int
	rounds      int
	rssAfter    int // lifecycles a fresh host serves before its RSS is read
	profile     string
	profileNull bool
	heapRate    int
}

// parseOptions reads the command line; a count that cannot measure anything
// (no round, no worker, fewer lifecycles than workers) is refused, naming it.
func parseOptions(args []string, errOut io.Writer) (options, error) {
	var o options
	fs := flag.NewFlagSet("bench", flag.ContinueOnError)
	fs.SetOutput(errOut)
	fs.StringVar(&o.hostsim, "hostsim", "bin/hostsim", "hostsim binary to measure")
	fs.IntVar(&o.sequential, "sequential", 1500, "lifecycles of a sequential round")
	fs.IntVar(&o.parallel, "parallel", 4000, "lifecycles of a parallel round, across the workers")
	fs.IntVar(&o.workers, "workers", 8, "concurrent workers, each with its own keep-alive connection")
	fs.IntVar(&o.rounds, "rounds", 5, "interleaved rounds; the median rate of each is reported")
	fs.IntVar(&o.rssAfter, "rss-after", 6000, "lifecycles a fresh host serves before its RSS is read")
	fs.StringVar(&o.profile, "profile", "", "instead of measuring, profile an in-process hostsim and the client into this directory")
	fs.IntVar(&o.heapRate, "heap-rate", 0, "with --profile: the server's runtime.MemProfileRate (0: Go's default)")
	fs.BoolVar(&o.profileNull, "profile-null", false, "with --profile: run the client against the null server instead")
	if err := fs.Parse(args); err != nil {
		return o, err
	}
	if fs.NArg() > 0 {
		return o, fmt.Errorf("unexpected argument %q; bench takes only flags (bench -h lists them)", fs.Arg(0))
	}
	switch {
	case o.rounds < 1:
		return o, fmt.Errorf("--rounds %d measures nothing; give at least 1", o.rounds)
	case o.workers < 1:
		return o, fmt.Errorf("--workers %d measures nothing; give at least 1", o.workers)
	case o.sequential < 5:
		return o, fmt.Errorf("--sequential %d is too few lifecycles to measure a rate; give at least 5", o.sequential)
	case o.parallel < o.workers || o.rssAfter < o.workers:
		return o, fmt.Errorf("--parallel %d and --rss-after %d must each give every one of the %d workers a lifecycle", o.parallel, o.rssAfter, o.workers)
	}
	return o, nil
}

func run(args []string, out io.Writer) error {
	o, err := parseOptions(args, os.Stderr)
	if err != nil {
		return err
	}
	dir, err := piddir.Make(os.TempDir(), runDirPrefix)
	if err != nil {
		return err
	}
	defer os.RemoveAll(dir)
	sigs := make(chan os.Signal, 1)
	signal.Notify(sigs, os.Interrupt, syscall.SIGTERM)
	defer signal.Stop(sigs)
	go removeOnSignal(sigs, dir, os.Exit)
	self, err := os.Executable()
	if err != nil {
		return err
	}
	if o.profile != "" {
		return profileRun(o, o.profile, dir, self)
	}
	null, err := start(dir, "null", self, "null")
	if err != nil {
		return err
	}
	defer null.stop()
	mem, err := start(dir, "hostsim", o.hostsim, "serve", "--profile", "full")
	if err != nil {
		return err
	}
	defer mem.stop()
	ref, err := kvFormRef(mem.url)
	if err != nil {
		return err
	}
	if mem.procs, err = healthProcs(mem.url); err != nil { // hostsim serve's ready file does not say
		return err
	}
	n, h := newClient(null.url, ref, false), newClient(mem.url, ref, true)
	var rates [4][]float64 // null seq, host seq, null par, host par
	var costs [4][]cost
	for _, c := range []*client{n, h} {
		if err := c.loop("warm", o.sequential/5); err != nil {
			return err
		}
	}
	for range o.rounds {
		for i, step := range []struct {
			c       *client
			p       *proc
			n, work int
		}{{n, null, o.sequential, 1}, {h, mem, o.sequential, 1}, {n, null, o.parallel, o.workers}, {h, mem, o.parallel, o.workers}} {
			var r float64
			cpu, err := measured(step.p.pid(), step.n/step.work*step.work, func() (err error) {
				r, err = step.c.rate("r", step.n, step.work)
				return err
			})
			if err != nil {
				return err
			}
			rates[i] = append(rates[i], r)
			costs[i] = append(costs[i], cpu)
		}
	}
	report(out, o, rates, costs)
	fmt.Fprintf(out, "GOMAXPROCS of the servers: null %d, hostsim %d (hostsim serve runs on one unless --procs or GOMAXPROCS says otherwise)\n",
		null.procs, mem.procs)
	mem.stop()

	fresh, err := start(dir, "hostsim-rss", o.hostsim, "serve", "--profile", "full")
	if err != nil {
		return err
	}
	defer fresh.stop()
	if _, err := newClient(fresh.url, ref, true).rate("m", o.rssAfter, o.workers); err != nil {
		return err
	}
	res, err := readRSS(fresh.pid())
	if err != nil {
		return err
	}
	fmt.Fprintf(out, "hostsim RSS after %d lifecycles: %.1f MiB (anonymous %.1f, file-backed %.1f)\n",
		o.rssAfter/o.workers*o.workers, res.total, res.anon, res.file)
	fresh.stop()

	file, err := start(dir, "hostsim-db", o.hostsim, "serve", "--profile", "full", "--db", filepath.Join(dir, "bench.db"))
	if err != nil {
		return err
	}
	defer file.stop()
	fc := newClient(file.url, ref, true)
	if err := fc.loop("warm", o.sequential/5); err != nil {
		return err
	}
	var seq, par float64
	seqCost, err := measured(file.pid(), o.sequential, func() (err error) {
		seq, err = fc.rate("s", o.sequential, 1)
		return err
	})
	if err != nil {
		return err
	}
	parCost, err := measured(file.pid(), o.parallel/o.workers*o.workers, func() (err error) {
		par, err = fc.rate("p", o.parallel, o.workers)
		return err
	})
	if err != nil {
		return err
	}
	fmt.Fprintf(out, "%-26s sequential %7.0f lifecycles/s   %d workers %7.0f lifecycles/s\n", "hostsim full (--db FILE)", seq, o.workers, par)
	fmt.Fprintf(out, "  %-20s %s\n  %-20s %s\n", "--db sequential", seqCost, fmt.Sprintf("--db %d workers", o.workers), parCost)
	return nil
}

// report prints the median rate of each host and mode, the host's rates as a
// share of the null server's, and the median CPU one lifecycle cost.
// rates and costs are, in this order: null sequential, hostsim sequential,
// null with the workers, hostsim with the workers, one entry per round.
func report(out io.Writer, o options, rates [4][]float64, costs [4][]cost) {
	m := [4]float64{median(rates[0]), median(rates[1]), median(rates[2]), median(rates[3])}
	fmt.Fprintf(out, "%-26s sequential %7.0f lifecycles/s   %d workers %7.0f lifecycles/s\n", "null", m[0], o.workers, m[2])
	fmt.Fprintf(out, "%-26s sequential %7.0f lifecycles/s   %d workers %7.0f lifecycles/s\n", "hostsim full (in-memory)", m[1], o.workers, m[3])
	fmt.Fprintf(out, "%-26s sequential %7.2f                 %d workers %7.2f   (median of %d interleaved rounds)\n",
		"hostsim/null", m[1]/m[0], o.workers, m[3]/m[2], o.rounds)
	fmt.Fprintf(out, "CPU per lifecycle (median):\n")
	for i, label := range []string{"null sequential", "hostsim sequential", fmt.Sprintf("null %d workers", o.workers), fmt.Sprintf("hostsim %d workers", o.workers)} {
		fmt.Fprintf(out, "  %-20s %s\n", label, medianCost(costs[i]))
	}
	seq, par := serverRatios(costs[1], costs[0]), serverRatios(costs[3], costs[2])
	fmt.Fprintf(out, "%-26s sequential %s   %d workers %s   (each round against the null of that round)\n",
		"server CPU hostsim/null", spread(seq), o.workers, spread(par))
}

// serverRatios is, round by round, the server CPU one lifecycle cost in the
// host over what it cost in the null server of the same round (issue 23 states
// its speed targets as this ratio). A round whose null cost no measurable CPU
// has no ratio.
func serverRatios(host, null []cost) []float64 {
	var r []float64
	for i := range min(len(host), len(null)) {
		if null[i].server > 0 {
			r = append(r, float64(host[i].server)/float64(null[i].server))
		}
	}
	return r
}

// spread prints the median of xs and its range.
func spread(xs []float64) string {
	if len(xs) == 0 {
		return "   n/a          "
	}
	s := append([]float64(nil), xs...)
	sort.Float64s(s)
	return fmt.Sprintf("%5.2f (%.2f–%.2f)", median(s), s[0], s[len(s)-1])
}

// medianCost is the round with the median total CPU.
func medianCost(cs []cost) cost {
	s := append([]cost(nil), cs...)
	sort.Slice(s, func(i, j int) bool { return s[i].server+s[i].client < s[j].server+s[j].client })
	return s[len(s)/2]
}

func median(xs []float64) float64 {
	s := append([]float64(nil), xs...)
	sort.Float64s(s)
	return s[len(s)/2]
}
