//go:build mage

package main

import (
	"fmt"
	"os"
	"os/signal"
	"syscall"
	"text/tabwriter"
)

// runSim starts the partial hosts side by side and keeps them up until SIGINT/SIGTERM.
func runSim() error {
	dir, err := os.MkdirTemp("", "takokit-sim-")
	if err != nil {
		return err
	}
	defer os.RemoveAll(dir)
	hosts, err := startHosts(dir, simProfiles)
	if err != nil {
		return err
	}
	defer stopHosts(hosts)
	printHostTable(hosts)
	fmt.Println("\nTokens: sim-primary (tenant-a/alice), sim-alternate (tenant-a/bob), sim-other-tenant (tenant-b/carol).")
	fmt.Println("Point the provider at one with TAKOFORM_ENDPOINT=<url> TAKOFORM_TOKEN=sim-primary. Ctrl-C stops them all.")
	sig := make(chan os.Signal, 1)
	signal.Notify(sig, os.Interrupt, syscall.SIGTERM)
	<-sig
	fmt.Println("\nstopping hosts")
	return nil
}

func printHostTable(hosts []*simHost) {
	w := tabwriter.NewWriter(os.Stdout, 0, 0, 2, ' ', 0)
	fmt.Fprintln(w, "NAME\tURL\tPROFILE\tREFUSES")
	var baseline map[string]any
	for _, h := range hosts {
		if h.Profile == "full" {
			baseline = h.doc
		}
	}
	for _, h := range hosts {
		fmt.Fprintf(w, "%s\t%s\t%s\t%s\n", h.Profile, h.URL, h.Profile, refusals(h.doc, baseline))
	}
	_ = w.Flush()
}
