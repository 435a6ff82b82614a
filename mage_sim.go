//go:build mage

package main

import (
	"fmt"
	"os"
	"os/signal"
	"strings"
	"syscall"
	"text/tabwriter"

	"github.com/takokit/takokit/catalog/piddir"
	"github.com/takokit/takokit/internal/simhosts"
)

// runSim starts the partial hosts side by side and keeps them up until SIGINT/SIGTERM.
func runSim() error {
	// the hosts' ready files and logs: named for this process (catalog/piddir), so a run killed
	// outright leaves a folder the next run removes
	dir, err := piddir.Make(os.TempDir(), "takokit-sim-")
	if err != nil {
		return err
	}
	defer os.RemoveAll(dir)
	hosts, err := simhosts.Start("bin/hostsim", dir, simProfiles, os.Getenv)
	if err != nil {
		return err
	}
	defer simhosts.Stop(hosts)
	printHostTable(hosts)
	fmt.Println("\nTokens: sim-primary (tenant-a/alice), sim-alternate (tenant-a/bob), sim-other-tenant (tenant-b/carol).")
	fmt.Println("Point the provider at one with TAKOFORM_ENDPOINT=<url> TAKOFORM_TOKEN=sim-primary; watch it think on its dashboard.")
	fmt.Printf("Bookmarkable ports: %s=8484 go tool mage sim; the withdrawn lane: %s=v1alpha3.\n", simhosts.EnvPort, simhosts.EnvLane)
	fmt.Println("Ctrl-C stops them all.")
	sig := make(chan os.Signal, 1)
	signal.Notify(sig, os.Interrupt, syscall.SIGTERM)
	<-sig
	fmt.Println("\nstopping hosts")
	return nil
}

// printHostTable prints each host's profile, API URL, dashboard URL and what
// it refuses compared with full.
func printHostTable(hosts []*simhosts.Host) {
	w := tabwriter.NewWriter(os.Stdout, 0, 0, 2, ' ', 0)
	fmt.Fprintln(w, "PROFILE\tLANE\tURL\tDASHBOARD\tREFUSES")
	for _, h := range hosts {
		refuses := "nothing (the whole catalog)"
		if len(h.Refuses) > 0 {
			refuses = strings.Join(h.Refuses, "; ")
		}
		fmt.Fprintf(w, "%s\t%s\t%s\t%s\t%s\n", h.Profile, h.Lane, h.URL, h.UI, refuses)
	}
	_ = w.Flush()
}
