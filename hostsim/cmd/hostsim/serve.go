package main

import (
	"context"
	"encoding/json"
	"errors"
	"fmt"
	"io"
	"log/slog"
	"net"
	"net/http"
	"os"
	"os/signal"
	"path/filepath"
	"strconv"
	"syscall"
	"time"

	"github.com/takokit/takokit/catalog"
	"github.com/takokit/takokit/catalog/wire"
	"github.com/takokit/takokit/hostsim"
	"github.com/takokit/takokit/hostsim/internal/jsonfile"
	"github.com/takokit/takokit/hostsim/internal/logbatch"
	"github.com/takokit/takokit/hostsim/internal/reqlog"
	"github.com/takokit/takokit/hostsim/internal/store"
)

// serve runs the simulator until SIGINT/SIGTERM, or until stop is closed. A nil
// stop means serve runs the process (`hostsim serve`): it tunes the runtime for
// serving (the collector's target, the threads of Go code: hostsim.TuneGC,
// hostsim.TuneProcs). A test serving in its own process passes a channel and
// keeps its runtime as it is.
func serve(args []string, env func(string) string, stdout, stderr io.Writer, stop <-chan struct{}) error {
	cfg, err := Load("serve", args, env)
	if err != nil {
		return err
	}
	if len(cfg.Args) > 0 {
		return badUsage("takes no arguments (got %q); every setting is a flag (hostsim serve --help)", cfg.Args)
	}
	logs := logbatch.New(stderr)
	defer logs.Flush()
	hc, err := hostConfig(cfg, logs)
	if err != nil {
		return err
	}
	h, err := hostsim.New(hc)
	var bad *store.PathError
	if errors.As(err, &bad) { // said as the setting that named it, the flag or its variable
		return badUsage("%s: %v (without %s the database is in memory)", cfg.setting("db", cfg.DB), bad, cfg.named("db"))
	}
	if err != nil { // a database that cannot be opened, faults that cannot be armed: nothing started
		return badUsage("%v", err)
	}
	defer h.Close()
	if len(h.Forms()) == 0 {
		return badUsage("%s installs none of the catalog's %d Forms (its forms selection, or endpoints.assign false "+
			"over Forms that all have outputs, leaves none): the host would serve nothing", cfg.setting("profile", cfg.Profile), len(hc.Catalog.Forms()))
	}
	l, err := net.Listen("tcp", cfg.Addr)
	if err != nil {
		return badUsage("cannot listen on %s: %v", cfg.setting("addr", cfg.Addr), err)
	}
	if stop == nil {
		hostsim.TuneGC(env("GOGC"))
		hostsim.TuneProcs(cfg.Procs, env("GOMAXPROCS"))
	}
	url, exposed := hostURL(l.Addr())
	if exposed {
		tokens := "the tokens of --tokens"
		if cfg.Tokens == "" {
			tokens = "a token, and the default tokens are public (give --tokens)"
		}
		fmt.Fprintf(stderr, "hostsim serve: --addr %s is reachable from other machines: the lane answers whoever holds %s; "+
			"the admin API and dashboard still answer only on loopback\n", cfg.Addr, tokens)
	}
	srv := &http.Server{Handler: h.Handler(), ReadHeaderTimeout: 10 * time.Second}
	srv.RegisterOnShutdown(h.EndStreams) // a dashboard's live stream never goes idle by itself
	// Before the ready file: a script that stops the host with SIGINT the moment the
	// file appears must find the handler installed (a background job of a shell
	// starts with SIGINT ignored, which would otherwise lose it).
	sig := make(chan os.Signal, 1)
	signal.Notify(sig, os.Interrupt, syscall.SIGTERM)
	defer signal.Stop(sig)
	done := make(chan error, 1)
	go func() { done <- srv.Serve(l) }()
	fmt.Fprintf(stdout, "hostsim %s listening on %s (dashboard %s): %s\n", h.Profile().Name, url, dashboardURL(url), summary(h, hc.Catalog))
	if cfg.ReadyFile != "" {
		if err := writeReady(cfg.ReadyFile, url); err != nil {
			srv.Close()
			return fmt.Errorf("write the --ready-file: %w", err)
		}
	}
	select {
	case <-sig:
	case <-stop:
	case err := <-done:
		return err
	}
	ctx, cancel := context.WithTimeout(context.Background(), 5*time.Second)
	defer cancel()
	if err := srv.Shutdown(ctx); err != nil && !errors.Is(err, http.ErrServerClosed) {
		srv.Close()
	}
	return nil
}

// hostConfig turns the command line into a hostsim.Config; every failure is bad input.
func hostConfig(cfg Config, logs *logbatch.Writer) (hostsim.Config, error) {
	var hc hostsim.Config
	cat, err := loadCatalog(cfg)
	if err != nil {
		return hc, err
	}
	prof, err := hostsim.LoadProfile(cfg.Profile)
	if err != nil {
		return hc, badUsage("%v", err)
	}
	var handler slog.Handler = reqlog.New(logs) // slog's text handler
	if cfg.LogFormat == "json" {
		handler = slog.NewJSONHandler(logs, nil)
	}
	hc = hostsim.Config{ProfileDoc: prof, Catalog: cat, DBPath: cfg.DB, ConformanceProbes: cfg.ConformanceProbes,
		AckDeadline: cfg.AckDeadline, Seed: cfg.Seed, AdminToken: cfg.AdminToken, Logger: slog.New(handler), Version: buildVersion(),
		Exit: func(code int) { _ = logs.Flush(); os.Exit(code) }} // transition.exit ends the process (only with --db)
	if cfg.Tokens != "" {
		b, err := os.ReadFile(cfg.Tokens)
		if err != nil {
			return hc, badUsage("%s: %v", cfg.named("tokens"), err)
		}
		var toks []struct {
			Token     string `json:"token,required"`
			Tenant    string `json:"tenant,required"`
			Principal string `json:"principal,required"`
		}
		if err := wire.DecodeStrict(b, &toks); err != nil {
			return hc, badUsage("%s does not parse (expected a JSON list of {token, tenant, principal}): %s",
				cfg.setting("tokens", cfg.Tokens), jsonfile.Join(jsonfile.Problems(cfg.Tokens, b, err)))
		}
		if len(toks) == 0 {
			// a nil list would mean the three default tokens: not what an empty file says
			return hc, badUsage("%s lists no token; give at least one {token, tenant, principal}, or omit %s for the default tokens", cfg.setting("tokens", cfg.Tokens), cfg.named("tokens"))
		}
		for _, t := range toks {
			hc.Tokens = append(hc.Tokens, hostsim.Token{Token: t.Token, Tenant: t.Tenant, Principal: t.Principal})
		}
		// hostsim's rule, said at the place in the file (never the token: a secret)
		var te *hostsim.TokenError
		if errors.As(hostsim.CheckTokens(hc.Tokens), &te) {
			i := te.Index
			if te.First < 0 {
				return hc, badUsage("%s:%d: /%d: token, tenant and principal must be non-empty", cfg.setting("tokens", cfg.Tokens),
					jsonfile.Line(b, []string{strconv.Itoa(i)}), i)
			}
			return hc, badUsage("%s:%d: /%d/token repeats the token of /%d; a token stands for one principal of one tenant", cfg.setting("tokens", cfg.Tokens),
				jsonfile.Line(b, []string{strconv.Itoa(i), "token"}), i, te.First)
		}
	}
	return hc, nil
}

// summary is what the host serves: "N Forms of K kinds, lane L", saying how
// many the catalog holds when the profile installs fewer.
func summary(h *hostsim.Host, cat *catalog.Catalog) string {
	forms := h.Forms()
	kinds := map[[2]string]bool{}
	for _, f := range forms {
		kinds[[2]string{f.Ref.APIVersion, f.Ref.Kind}] = true
	}
	of := ""
	if n := len(cat.Forms()); n != len(forms) {
		of = fmt.Sprintf(" (of the catalog's %d)", n)
	}
	return fmt.Sprintf("%d Forms of %d kinds%s, lane %s", len(forms), len(kinds), of, h.Lane())
}

// dashboardURL is the dashboard of the host at url (docs/guides/dashboard.md).
func dashboardURL(url string) string { return url + "/_sim/ui/" }

// hostURL is the URL to print for the address the host listens on, and whether
// that address reaches beyond this machine. Every interface (0.0.0.0, ::) prints
// as 127.0.0.1, the URL that works here ("http://[::]:8484" does not, and the
// dashboard answers only on loopback anyway).
func hostURL(a net.Addr) (string, bool) {
	tcp, ok := a.(*net.TCPAddr)
	if !ok {
		return "http://" + a.String(), false
	}
	switch {
	case tcp.IP.IsLoopback():
		return "http://" + a.String(), false
	case tcp.IP.IsUnspecified():
		return "http://" + net.JoinHostPort("127.0.0.1", strconv.Itoa(tcp.Port)), true
	}
	return "http://" + a.String(), true
}

// writeReady writes the ready file atomically (a reader never sees half of it).
func writeReady(path, url string) error {
	b, _ := json.Marshal(map[string]any{"url": url, "admin": url + "/_sim", "ui": dashboardURL(url), "pid": os.Getpid()})
	tmp, err := os.CreateTemp(filepath.Dir(path), ".hostsim-ready-*")
	if err != nil {
		return err
	}
	if _, err := tmp.Write(append(b, '\n')); err != nil {
		tmp.Close()
		os.Remove(tmp.Name())
		return err
	}
	tmp.Close()
	return os.Rename(tmp.Name(), path)
}
