package main

import (
	"errors"
	"flag"
	"fmt"
	"io"
	"net"
	"net/url"
	"strconv"
	"strings"
	"time"
)

// Config is everything `hostsim serve` or `hostsim catalog` is told, from
// flags, then the environment (HOSTSIM_ + the flag name upper-cased, hyphens
// as underscores), then defaults. Load is pure: it starts nothing and reads no file.
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
	Procs             int    // serve --procs: GOMAXPROCS (0: hostsim.TuneProcs decides)
	Format            string // catalog --format
	Args              []string
	// Sources names where each value came from (flag, env, default).
	Sources map[string]string
}

// usageError is bad input: exit status 2.
type usageError struct{ msg string }

func (e *usageError) Error() string { return e.msg }

func badUsage(format string, args ...any) error { return &usageError{fmt.Sprintf(format, args...)} }

// helpRequest is -h or --help: the text goes to stdout and the exit status is 0.
type helpRequest struct{ text string }

func (e *helpRequest) Error() string { return e.text }

// EnvName is the environment fallback of a flag.
func EnvName(flagName string) string {
	return "HOSTSIM_" + strings.ToUpper(strings.ReplaceAll(flagName, "-", "_"))
}

// laneUsage is --lane's help.
const laneUsage = "`lane` to speak: v1beta1 (default) or v1alpha3 (withdrawn upstream); default: the catalog's"

// flagSet declares the flags cmd takes, bound to c: a command lists and
// accepts only its own.
func flagSet(cmd string, c *Config) *flag.FlagSet {
	fs := flag.NewFlagSet("hostsim "+cmd, flag.ContinueOnError)
	fs.SetOutput(io.Discard)
	switch cmd {
	case "serve":
		fs.StringVar(&c.Addr, "addr", "127.0.0.1:8484", "listen `address` (loopback unless told otherwise)")
		fs.StringVar(&c.Profile, "profile", "full", "built-in profile `name` or profile file (hostsim profiles lists the names)")
		fs.StringVar(&c.Catalog, "catalog", "", "Form family root `dir`ectory in the published layout (default: the built-in catalog)")
		fs.StringVar(&c.Lane, "lane", "", laneUsage)
		fs.StringVar(&c.DB, "db", "", "database `file` (default: a private in-memory database)")
		fs.StringVar(&c.Tokens, "tokens", "", "JSON `file` listing {token, tenant, principal} (default: sim-primary, sim-alternate, sim-other-tenant)")
		fs.StringVar(&c.AdminToken, "admin-token", "", "bearer `token` the admin API and dashboard require (default: none, loopback only)")
		fs.BoolVar(&c.ConformanceProbes, "conformance-probes", false, "honour the Takoform-Conformance-Probe header")
		fs.DurationVar(&c.AckDeadline, "ack-deadline", 10*time.Second, "backend acknowledgement `duration` of Form transitions")
		fs.Int64Var(&c.Seed, "seed", 0, "non-zero `n`: reproducible uids and operation ids")
		fs.StringVar(&c.ReadyFile, "ready-file", "", "write {url, admin, ui, pid} to this `file` once accepting connections")
		fs.StringVar(&c.LogFormat, "log-format", "text", "log `format`: text or json")
		fs.IntVar(&c.Procs, "procs", 0, "threads running Go code at once (`n`; default: GOMAXPROCS when set, else 1)")
	case "catalog":
		fs.StringVar(&c.Catalog, "catalog", "", "Form family root `dir`ectory in the published layout (default: the built-in catalog)")
		fs.StringVar(&c.Lane, "lane", "", laneUsage)
		fs.StringVar(&c.Format, "format", "text", "output `format`: text or json")
	case "profile show":
		fs.StringVar(&c.Catalog, "catalog", "", "Form family root `dir`ectory the profile is checked against (default: the built-in catalog)")
		fs.StringVar(&c.Lane, "lane", "", "`lane` whose built-in catalog the profile is checked against: v1beta1 (default) or v1alpha3")
	}
	return fs
}

// Load parses args (after the command name) with env fallbacks. Its errors do
// not name the command: run puts "hostsim CMD: " before every error.
func Load(cmd string, args []string, env func(string) string) (Config, error) {
	c := Config{Sources: map[string]string{}}
	fs := flagSet(cmd, &c)
	if err := fs.Parse(args); err != nil {
		if errors.Is(err, flag.ErrHelp) {
			return c, &helpRequest{help(cmd)}
		}
		return c, badUsage("%v (hostsim %s --help lists the flags)", err, cmd)
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
				// the flag package says only "parse error": name what the flag takes
				_, usage := flag.UnquoteUsage(f)
				envErr = badUsage("%s=%q is not a valid --%s (%s); fix the variable or unset it",
					EnvName(f.Name), env(EnvName(f.Name)), f.Name, usage)
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
	// --lane is checked where the catalog is loaded (loadCatalog), which resolves it
	// anyway, before anything starts
	if c.Procs < 0 {
		return c, badUsage("%s is not a number of threads; give 1 or more (or 0: GOMAXPROCS when set, else 1)", c.setting("procs", c.Procs))
	}
	if fs.Lookup("addr") != nil {
		if err := c.checkAddr(); err != nil {
			return c, err
		}
	}
	if c.AckDeadline < 0 {
		return c, badUsage("%s is negative; give 0 (no deadline) or a duration such as 10s", c.setting("ack-deadline", c.AckDeadline))
	}
	for _, name := range []string{"log-format", "format"} {
		if f := fs.Lookup(name); f != nil && f.Value.String() != "text" && f.Value.String() != "json" {
			return c, badUsage("%s is not text or json", c.setting(name, strconv.Quote(f.Value.String())))
		}
	}
	return c, nil
}

// flagHelp lists cmd's flags, each with its environment fallback and default.
func flagHelp(cmd string) string {
	var b strings.Builder
	fs := flagSet(cmd, &Config{})
	fs.VisitAll(func(f *flag.Flag) {
		arg, usage := flag.UnquoteUsage(f)
		if arg == "" {
			fmt.Fprintf(&b, "  --%s\n", f.Name)
		} else {
			fmt.Fprintf(&b, "  --%s %s\n", f.Name, arg)
		}
		def := ""
		// a flag whose usage says its default in words has none of its own ("")
		if f.DefValue != "" && f.DefValue != "false" && f.DefValue != "0" {
			def = ", default " + f.DefValue
		}
		fmt.Fprintf(&b, "        %s [%s%s]\n", usage, EnvName(f.Name), def)
	})
	return b.String()
}

// setting names a setting as the user gave it, with value v: "--procs -1" from
// the command line, "HOSTSIM_PROCS=-1" from the environment (a user who never
// typed --procs would look for it in vain).
func (c Config) setting(name string, v any) string {
	if n := c.named(name); !strings.HasPrefix(n, "--") {
		return fmt.Sprintf("%s=%v", n, v)
	}
	return fmt.Sprintf("--%s %v", name, v)
}

// named names a setting as the user gave it, without its value: "--tokens" or
// "HOSTSIM_TOKENS".
func (c Config) named(name string) string {
	if env, ok := strings.CutPrefix(c.Sources[name], "env "); ok {
		return env
	}
	return "--" + name
}

// checkAddr refuses an --addr that is not host:port before anything opens (a --db
// file included), saying what to write: a URL, as the provider's endpoint is
// written, or a bare port, as other tools take it, got net.Listen's "too many
// colons in address" or "missing port in address".
func (c Config) checkAddr() error {
	addr := c.Addr
	if u, err := url.Parse(addr); err == nil && u.Host != "" { // http://h:p, or //h:p
		hostPort := u.Host
		if u.Port() == "" {
			hostPort = net.JoinHostPort(u.Hostname(), "8484")
		}
		return badUsage("%s is a URL; it takes host:port: write %s", c.setting("addr", addr), c.setting("addr", hostPort))
	}
	_, _, err := net.SplitHostPort(addr)
	if err == nil {
		return nil
	}
	if _, perr := strconv.ParseUint(addr, 10, 16); perr == nil {
		return badUsage("%s has no host; write %s (this machine only) or %s (every interface)",
			c.setting("addr", addr), c.setting("addr", "127.0.0.1:"+addr), c.setting("addr", ":"+addr))
	}
	return badUsage("%s is not host:port, such as 127.0.0.1:8484 (%v)", c.setting("addr", addr), err)
}
