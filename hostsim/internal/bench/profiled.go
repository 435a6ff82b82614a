package main

import (
	"flag"
	"fmt"
	"log/slog"
	"net"
	"net/http"
	"os"
	"path/filepath"
	"runtime"
	"runtime/pprof"
	"strconv"
	"strings"
	"time"

	"github.com/takokit/takokit/hostsim"
	"github.com/takokit/takokit/hostsim/internal/logbatch"
	"github.com/takokit/takokit/hostsim/internal/reqlog"
)

// serveProfiled is `bench hostsim-profiled`: hostsim served the way
// `hostsim serve --profile full` serves it (a text logger on stderr, the same
// http.Server settings, collector target and GOMAXPROCS), with a CPU profile of the whole run and a heap profile
// written when it is interrupted. `bench --profile DIR` drives it.
func serveProfiled(args []string) error {
	fs := flag.NewFlagSet("bench hostsim-profiled", flag.ContinueOnError)
	addr := fs.String("addr", "127.0.0.1:0", "listen address")
	ready := fs.String("ready-file", "", "write {url, pid} here once listening")
	out := fs.String("out", ".", "directory for server-cpu.pprof and server-heap.pprof")
	db := fs.String("db", "", "database file (\"\" = private in-memory database)")
	heapRate := fs.Int("heap-rate", 0, "runtime.MemProfileRate (0: Go's default; 4096 sees small allocations but costs memory)")
	if err := fs.Parse(args); err != nil {
		return err
	}
	if *heapRate > 0 {
		runtime.MemProfileRate = *heapRate
	}
	hostsim.TuneGC(os.Getenv("GOGC")) // as hostsim serve does
	hostsim.TuneProcs(0, os.Getenv("GOMAXPROCS"))
	prof, err := hostsim.LoadProfile("full")
	if err != nil {
		return err
	}
	logs := logbatch.New(os.Stderr) // as hostsim serve writes its log
	defer logs.Flush()
	h, err := hostsim.New(hostsim.Config{ProfileDoc: prof, DBPath: *db,
		Logger: slog.New(reqlog.New(logs))})
	if err != nil {
		return err
	}
	defer h.Close()
	cpu, err := os.Create(filepath.Join(*out, "server-cpu.pprof"))
	if err != nil {
		return err
	}
	if err := pprof.StartCPUProfile(cpu); err != nil {
		return err
	}
	l, err := net.Listen("tcp", *addr)
	if err != nil {
		return err
	}
	srv := &http.Server{Handler: h.Handler(), ReadHeaderTimeout: 10 * time.Second}
	if err := serveUntilSignalled(srv, l, *ready); err != nil {
		return err
	}
	pprof.StopCPUProfile()
	cpu.Close()
	memReport(os.Stderr, h)
	runtime.GC()
	heap, err := os.Create(filepath.Join(*out, "server-heap.pprof"))
	if err != nil {
		return err
	}
	defer heap.Close()
	return pprof.Lookup("heap").WriteTo(heap, 0)
}

// profileRun is `bench --profile DIR`: warm-up, one sequential and one parallel
// round against a profiled in-process hostsim; the server's CPU and heap
// profiles and the client's CPU profile land in DIR.
func profileRun(o options, dir, tmp, self string) error {
	if err := os.MkdirAll(dir, 0o755); err != nil {
		return err
	}
	p, err := start(tmp, "hostsim-profiled", self, "hostsim-profiled", "--out", dir, "--heap-rate", strconv.Itoa(o.heapRate))
	if err != nil {
		return err
	}
	defer p.stop()
	ref, err := kvFormRef(p.url)
	if err != nil {
		return err
	}
	c := newClient(p.url, ref, true)
	if o.profileNull {
		// the client against the null server, for comparison
		p.stop()
		if p, err = start(tmp, "null", self, "null"); err != nil {
			return err
		}
		defer p.stop()
		c = newClient(p.url, ref, false)
	}
	if err := c.loop("warm", o.sequential/5); err != nil {
		return err
	}
	f, err := os.Create(filepath.Join(dir, "client-cpu.pprof"))
	if err != nil {
		return err
	}
	defer f.Close()
	if err := pprof.StartCPUProfile(f); err != nil {
		return err
	}
	for _, work := range []int{1, o.workers} {
		n := o.sequential
		if work > 1 {
			n = o.parallel
		}
		cpu, err := measured(p.pid(), n/work*work, func() error { _, err := c.rate("p", n, work); return err })
		if err != nil {
			return err
		}
		fmt.Printf("profiled hostsim, %d worker(s): %s\n", work, cpu)
	}
	pprof.StopCPUProfile()
	p.stop()
	log, _ := os.ReadFile(filepath.Join(tmp, "hostsim-profiled.log"))
	for _, line := range strings.Split(string(log), "\n") {
		if strings.HasPrefix(line, "mem ") {
			fmt.Println(line)
		}
	}
	return nil
}
