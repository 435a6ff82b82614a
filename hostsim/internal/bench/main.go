// Command bench measures hostsim against a null HTTP server with the same
// keep-alive client (`go tool mage bench` runs it): one lifecycle is prepare →
// PUT → GET → DELETE of one EdgeKVNamespace, four requests. It prints the
// sequential and 8-worker rates of both hosts, their ratios, the host's
// resident memory after 6,000 lifecycles, and the rates with --db FILE.
// Figures depend on the machine and its load: read them as indicative.
//
// Both servers run as child processes started the same way (a ready file on a
// free loopback port); `bench null` is the null server.
package main

import (
	"flag"
	"fmt"
	"io"
	"os"
	"path/filepath"
)

func main() {
	if len(os.Args) > 1 && os.Args[1] == "null" {
		if err := serveNull(os.Args[2:]); err != nil {
			fmt.Fprintln(os.Stderr, "bench null:", err)
			os.Exit(1)
		}
		return
	}
	if err := run(os.Args[1:], os.Stdout); err != nil {
		fmt.Fprintln(os.Stderr, "bench:", err)
		os.Exit(1)
	}
}

// options are the command line of a measurement run.
type options struct {
	hostsim    string // the hostsim binary
	sequential int    // lifecycles measured one after another
	parallel   int    // lifecycles measured across the workers
	workers    int
	rssAfter   int // lifecycles the in-memory host has served when its RSS is read
}

func run(args []string, out io.Writer) error {
	var o options
	fs := flag.NewFlagSet("bench", flag.ContinueOnError)
	fs.StringVar(&o.hostsim, "hostsim", "bin/hostsim", "hostsim binary to measure")
	fs.IntVar(&o.sequential, "sequential", 2000, "lifecycles measured sequentially")
	fs.IntVar(&o.parallel, "parallel", 3600, "lifecycles measured across the workers")
	fs.IntVar(&o.workers, "workers", 8, "concurrent workers, each with its own keep-alive connection")
	fs.IntVar(&o.rssAfter, "rss-after", 6000, "lifecycles served before the host's RSS is read")
	if err := fs.Parse(args); err != nil {
		return err
	}
	dir, err := os.MkdirTemp("", "hostsim-bench-")
	if err != nil {
		return err
	}
	defer os.RemoveAll(dir)
	self, err := os.Executable()
	if err != nil {
		return err
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
	r := report{out: out, workers: o.workers}
	if err := r.measure("null", null.url, ref, o, false); err != nil {
		return err
	}
	if err := r.measure("hostsim full (in-memory)", mem.url, ref, o, true); err != nil {
		return err
	}
	served := r.served
	if served < o.rssAfter {
		if err := newClient(mem.url, ref, true).loop("rss", o.rssAfter-served); err != nil {
			return err
		}
		served = o.rssAfter
	}
	rss, err := rssMiB(mem.pid())
	if err != nil {
		return err
	}
	r.ratios()
	fmt.Fprintf(out, "hostsim RSS after %d lifecycles: %.1f MiB\n", served, rss)
	mem.stop()
	file, err := start(dir, "hostsim-db", o.hostsim, "serve", "--profile", "full", "--db", filepath.Join(dir, "bench.db"))
	if err != nil {
		return err
	}
	defer file.stop()
	return r.measure("hostsim full (--db FILE)", file.url, ref, o, true)
}
