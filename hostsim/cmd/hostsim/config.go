package main

import (
	"flag"
	"fmt"
	"io"
	"strings"
	"time"

	"github.com/takokit/takokit/catalog/wire"
)

// Config is everything `hostsim serve` is told, from flags, then the
// environment (HOSTSIM_ + the flag name upper-cased, hyphens as underscores),
// then defaults. Load is pure: it starts nothing and reads no file.
type Config struct {
	Addr              string
	Profile           string
	Catalog           string
	Lane              string // "" = the catalog's lane (the default lane for the built-in catalog)
	DB                string
	Tokens            string
	AdminToken        string
	ConformanceProbes bool
	AckDeadline       time.Duration
	Seed              int64
	ReadyFile         string
	LogFormat         string
	Format            string // catalog --format
	Args              []string
	// Sources names where each value came from (flag, env, default), for `profile show`.
	Sources map[string]string
}

// usageError is bad input: exit status 2.
type usageError struct{ msg string }

func (e *usageError) Error() string { return e.msg }

func badUsage(format string, args ...any) error { return &usageError{fmt.Sprintf(format, args...)} }

// EnvName is the environment fallback of a flag.
func EnvName(flagName string) string {
	return "HOSTSIM_" + strings.ToUpper(strings.ReplaceAll(flagName, "-", "_"))
}

// Load parses args (after the command name) with env fallbacks.
func Load(cmd string, args []string, env func(string) string) (Config, error) {
	c := Config{Sources: map[string]string{}}
	fs := flag.NewFlagSet("hostsim "+cmd, flag.ContinueOnError)
	fs.SetOutput(io.Discard)
	fs.StringVar(&c.Addr, "addr", "127.0.0.1:8484", "listen address (loopback unless told otherwise)")
	fs.StringVar(&c.Profile, "profile", "full", "built-in profile name or profile file")
	fs.StringVar(&c.Catalog, "catalog", "", "catalog directory in the published package layout (default: built-in)")
	fs.StringVar(&c.Lane, "lane", "", "lane to speak: v1beta1 (default) or v1alpha3 (withdrawn upstream); default: the catalog's")
	fs.StringVar(&c.DB, "db", "", "database file (default: a private in-memory database)")
	fs.StringVar(&c.Tokens, "tokens", "", "JSON file listing {token, tenant, principal}")
	fs.StringVar(&c.AdminToken, "admin-token", "", "bearer token the admin API requires")
	fs.BoolVar(&c.ConformanceProbes, "conformance-probes", false, "honour Takoform-Conformance-Probe")
	fs.DurationVar(&c.AckDeadline, "ack-deadline", 10*time.Second, "backend acknowledgement deadline (Form transitions)")
	fs.Int64Var(&c.Seed, "seed", 0, "seed for reproducible runs")
	fs.StringVar(&c.ReadyFile, "ready-file", "", "write {url, admin, ui, pid} here once accepting connections")
	fs.StringVar(&c.LogFormat, "log-format", "text", "log format: text or json")
	fs.StringVar(&c.Format, "format", "text", "catalog output format: text or json")
	if err := fs.Parse(args); err != nil {
		return c, badUsage("hostsim %s: %v (run hostsim help)", cmd, err)
	}
	set := map[string]bool{}
	fs.Visit(func(f *flag.Flag) { set[f.Name] = true })
	var envErr error
	fs.VisitAll(func(f *flag.Flag) {
		switch {
		case set[f.Name]:
			c.Sources[f.Name] = "flag --" + f.Name
		case env(EnvName(f.Name)) != "":
			if err := f.Value.Set(env(EnvName(f.Name))); err != nil && envErr == nil {
				envErr = badUsage("hostsim %s: %s=%q: %v", cmd, EnvName(f.Name), env(EnvName(f.Name)), err)
			}
			c.Sources[f.Name] = "env " + EnvName(f.Name)
		default:
			c.Sources[f.Name] = "default"
		}
	})
	if envErr != nil {
		return c, envErr
	}
	c.Args = fs.Args()
	if c.LogFormat != "text" && c.LogFormat != "json" {
		return c, badUsage("hostsim %s: --log-format %q is not text or json", cmd, c.LogFormat)
	}
	if c.Lane != "" {
		if _, err := wire.LaneNamed(c.Lane); err != nil {
			return c, badUsage("hostsim %s: --lane: %v", cmd, err)
		}
	}
	if c.Format != "text" && c.Format != "json" {
		return c, badUsage("hostsim %s: --format %q is not text or json", cmd, c.Format)
	}
	return c, nil
}
