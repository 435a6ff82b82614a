package main

import (
	"context"
	"fmt"
	"io"
	"os"
	"runtime"
	"strings"

	"github.com/takokit/takokit/hostsim"
	"github.com/takokit/takokit/hostsim/internal/store"
)

// memReport writes where a host's memory is: the process's resident set by
// kind, the Go runtime's view, what the store's mirror holds and the SQLite
// database's pages per table.
func memReport(w io.Writer, h *hostsim.Host) {
	b, _ := os.ReadFile("/proc/self/status")
	for _, line := range strings.Split(string(b), "\n") {
		for _, k := range []string{"VmRSS:", "RssAnon:", "RssFile:", "RssShmem:"} {
			if strings.HasPrefix(line, k) {
				fmt.Fprintln(w, "mem", strings.Join(strings.Fields(line), " "))
			}
		}
	}
	var ms runtime.MemStats
	runtime.ReadMemStats(&ms)
	mib := func(n uint64) float64 { return float64(n) / (1 << 20) }
	fmt.Fprintf(w, "mem go: heap alloc %.1f MiB, heap inuse %.1f, heap idle %.1f (released %.1f), stacks %.1f, other sys %.1f, total sys %.1f, GCs %d\n",
		mib(ms.HeapAlloc), mib(ms.HeapInuse), mib(ms.HeapIdle), mib(ms.HeapReleased), mib(ms.StackSys),
		mib(ms.MSpanSys+ms.MCacheSys+ms.BuckHashSys+ms.GCSys+ms.OtherSys), mib(ms.Sys), ms.NumGC)
	runtime.GC()
	runtime.ReadMemStats(&ms)
	fmt.Fprintf(w, "mem go after a GC: live heap %.1f MiB\n", mib(ms.HeapAlloc))
	c := h.State().Store.Mirrored()
	fmt.Fprintf(w, "mem mirror: %d resources, %d records, %d prepares, %d pin sources, %d dictionaries\n",
		c.Resources, c.Records, c.Prepares, c.PinSources, c.Dicts)
	_ = h.State().Store.Read(context.Background(), func(q store.Q) error {
		var pages, size int64
		_ = q.QueryRow("PRAGMA page_count").Scan(&pages)
		_ = q.QueryRow("PRAGMA page_size").Scan(&size)
		fmt.Fprintf(w, "mem sqlite: %d pages of %d B = %.1f MiB\n", pages, size, float64(pages*size)/(1<<20))
		rows, err := q.Query("SELECT name, sum(pgsize), count(*) FROM dbstat GROUP BY name ORDER BY 2 DESC")
		if err != nil {
			fmt.Fprintln(w, "mem sqlite: no dbstat:", err)
			return nil
		}
		defer rows.Close()
		for rows.Next() {
			var name string
			var bytes, n int64
			_ = rows.Scan(&name, &bytes, &n)
			if bytes > 64<<10 {
				fmt.Fprintf(w, "mem sqlite table %-20s %.2f MiB (%d pages)\n", name, float64(bytes)/(1<<20), n)
			}
		}
		for _, t := range []string{"resources", "idempotency", "prepares", "pins", "operations"} {
			var n int64
			_ = q.QueryRow("SELECT count(*) FROM " + t).Scan(&n)
			fmt.Fprintf(w, "mem sqlite rows %-12s %d\n", t, n)
		}
		return nil
	})
}
