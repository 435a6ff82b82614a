package main

import (
	"bytes"
	"context"
	"errors"
	"fmt"
	"io"
	"net/url"
	"os"
	"path/filepath"
	"slices"
	"strings"

	"github.com/takokit/takokit/catalog"
	"github.com/takokit/takokit/catalog/wire"
	"github.com/takokit/takokit/conformance"
	"github.com/takokit/takokit/conformance/selftest"
)

func splitList(s string) []string {
	var out []string
	for _, x := range strings.Split(s, ",") {
		if x = strings.TrimSpace(x); x != "" {
			out = append(out, x)
		}
	}
	return out
}

// loadCatalog returns the catalog in dir, or nil without one: a run then probes the
// host with the project's catalog of the host's lane (docs/protocol.md#lanes). A
// directory is held to the rule every family root is (catalog.LoadRoot, as hostsim's
// --catalog is): a directory that is no family root, or whose family is empty, would
// otherwise give a run that knows no Form and ends not-applicable everywhere.
func loadCatalog(dir string) (*catalog.Catalog, error) {
	if dir == "" {
		return nil, nil
	}
	c, err := catalog.LoadRoot(dir)
	var re *catalog.RootError
	if errors.As(err, &re) {
		return nil, usagef("--catalog %s: %s", dir, re.Reason)
	}
	if err != nil {
		return nil, usagef("--catalog %s: %v", dir, err)
	}
	return c, nil
}

// knownChecks refuses, for command cmd, the first of ids that names no check.
func knownChecks(cmd string, ids []string) error {
	if err := conformance.KnownIDs(ids); err != nil {
		return usagef("%s: %v", cmd, err)
	}
	return nil
}

// checkOutDir refuses an --out FILE whose directory is missing or is a file before
// anything runs: found only when the report is written, it lost the whole run.
func checkOutDir(path string) error {
	if path == "" {
		return nil
	}
	dir := filepath.Dir(path)
	st, err := os.Stat(dir)
	switch {
	case err != nil:
		return usagef("--out %s: the directory %s does not exist; create it, or write elsewhere", path, dir)
	case !st.IsDir():
		return usagef("--out %s: %s is a file, not a directory", path, dir)
	}
	return nil
}

// checkOrigin accepts a bare http(s) origin with an optional trailing slash; a
// refusal says which origin to write when one can be read from what was given.
func checkOrigin(raw string) (string, error) {
	u, err := url.Parse(raw)
	if err != nil || (u.Scheme != "http" && u.Scheme != "https") || u.Host == "" || u.User != nil ||
		(u.Path != "" && u.Path != "/") || u.RawQuery != "" || u.Fragment != "" {
		if origin := originIn(raw); origin != "" {
			return "", usagef("--endpoint %q must be a bare origin: write %s", raw, origin)
		}
		return "", usagef("--endpoint %q must be a bare origin such as http://127.0.0.1:8484", raw)
	}
	return strings.TrimRight(raw, "/"), nil
}

// originIn reads an origin from an endpoint that is not one: an http(s) URL with a
// path, query or fragment, or a host[:port] with no scheme (http for a loopback
// host, https otherwise); "" when there is none to read.
func originIn(raw string) string {
	if origin, ok := wire.SchemelessOrigin(raw); ok {
		return origin
	}
	u, err := url.Parse(raw) // a scheme-less raw that named no host has no http(s) scheme here
	if err != nil || (u.Scheme != "http" && u.Scheme != "https") || u.Host == "" {
		return ""
	}
	return u.Scheme + "://" + u.Host // the user information, if any, left out: the token is given apart
}

func token(getenv func(string) string, flagName, env string, required bool) (string, error) {
	if env == "" {
		if required {
			return "", usagef("%s is required: name the environment variable that holds the bearer token", flagName)
		}
		return "", nil
	}
	v := getenv(env)
	if v == "" {
		return "", usagef("%s %s: the environment variable is unset or empty", flagName, env)
	}
	return v, nil
}

func cmdRun(ctx context.Context, args []string, stdout, stderr io.Writer, getenv func(string) string) error {
	fs := newFlags("run")
	endpoint := fs.String("endpoint", "", "host origin")
	tokenEnv := fs.String("token-env", "", "variable holding the primary token")
	altEnv := fs.String("alternate-token-env", "", "variable holding a second principal's token")
	otherEnv := fs.String("other-tenant-token-env", "", "variable holding another tenant's token")
	space := fs.String("space", "conformance", "space name prefix")
	only := fs.String("only", "", "comma-separated check ids to run")
	skip := fs.String("skip", "", "comma-separated check ids to skip")
	strict := fs.Bool("strict", false, "treat not-applicable as failure")
	format := fs.String("format", "text", "text, json or junit")
	outPath := fs.String("out", "", "write the report to FILE")
	catDir := fs.String("catalog", "", "catalog directory the runner probes with (default: the built-in family)")
	if err := parse(fs, args); err != nil {
		return err
	}
	if *endpoint == "" {
		return usagef("run: --endpoint is required")
	}
	origin, err := checkOrigin(*endpoint)
	if err != nil {
		return err
	}
	if *format != "text" && *format != "json" && *format != "junit" {
		return usagef("run: --format %q is not text, json or junit", *format)
	}
	cfg := conformance.Config{Endpoint: origin, Space: *space, Only: splitList(*only), Skip: splitList(*skip), Strict: *strict}
	if cfg.Primary, err = token(getenv, "--token-env", *tokenEnv, true); err != nil {
		return err
	}
	if cfg.Alternate, err = token(getenv, "--alternate-token-env", *altEnv, false); err != nil {
		return err
	}
	if cfg.OtherTenant, err = token(getenv, "--other-tenant-token-env", *otherEnv, false); err != nil {
		return err
	}
	if err := conformance.ValidSpacePrefix(cfg.Space); err != nil {
		return usagef("run: --space: %v", err)
	}
	if cfg.Catalog, err = loadCatalog(*catDir); err != nil {
		return err
	}
	if err := knownChecks("run", append(slices.Clone(cfg.Only), cfg.Skip...)); err != nil {
		return err
	}
	for _, id := range cfg.Only {
		if slices.Contains(cfg.Skip, id) {
			return usagef("run: check %q is in both --only and --skip; name it in one of them", id)
		}
	}
	if err := checkOutDir(*outPath); err != nil {
		return err
	}
	if *format == "text" && *outPath == "" {
		cfg.Started = func(host string, lane *wire.Lane) { fmt.Fprintln(stdout, conformance.LaneLine(host, lane.Name)) }
		cfg.Progress = func(r conformance.Result) { fmt.Fprintln(stdout, r.Text()) }
	}
	rep, err := conformance.Run(ctx, cfg)
	if err != nil {
		return err
	}
	if err := writeReport(rep, *format, *outPath, stdout, stderr); err != nil {
		return err
	}
	if ctx.Err() != nil {
		return fmt.Errorf("interrupted (%v): the report is incomplete, the checks after the signal errored without running", context.Cause(ctx))
	}
	if !rep.OK() {
		return exitFail
	}
	return nil
}

// writeReport writes the report in format to path (stdout when ""), and the
// summary line to stdout: always, so a run with --out still says how it went.
// Only when stdout itself carries a JSON or JUnit document does the summary go to
// stderr, keeping that document parseable.
func writeReport(rep *conformance.Report, format, path string, stdout, stderr io.Writer) error {
	summary := stdout
	var failed error
	switch {
	case path != "":
		var buf bytes.Buffer
		failed = render(rep, format, &buf)
		if failed == nil {
			if err := os.WriteFile(path, buf.Bytes(), 0o644); err != nil {
				failed = fmt.Errorf("writing the report to --out %s: %w", path, err)
			}
		}
	case format == "text":
		// The checks were printed as they ran; the causes follow them.
		failed = rep.WriteCauses(stdout)
	default:
		failed = render(rep, format, stdout)
		summary = stderr
	}
	if _, err := fmt.Fprintln(summary, rep.Summary.Line()); err != nil && failed == nil {
		failed = err
	}
	return failed
}

func render(rep *conformance.Report, format string, w io.Writer) error {
	switch format {
	case "json":
		return rep.WriteJSON(w)
	case "junit":
		return rep.WriteJUnit(w)
	}
	return rep.WriteText(w)
}

func cmdList(args []string, stdout io.Writer) error {
	fs := newFlags("list")
	format := fs.String("format", "text", "text, markdown or json")
	outPath := fs.String("out", "", "write the list to FILE")
	if err := parse(fs, args); err != nil {
		return err
	}
	var buf strings.Builder
	if err := conformance.WriteList(&buf, *format, conformance.Table()); err != nil {
		return usagef("list: %v", err)
	}
	if *outPath == "" {
		_, err := io.WriteString(stdout, buf.String())
		return err
	}
	if err := checkOutDir(*outPath); err != nil {
		return err
	}
	if err := os.WriteFile(*outPath, []byte(buf.String()), 0o644); err != nil {
		return fmt.Errorf("writing the list to --out %s: %w", *outPath, err)
	}
	return nil
}

func cmdSelftest(ctx context.Context, args []string, stdout io.Writer) error {
	fs := newFlags("selftest")
	bin := fs.String("hostsim", "", "hostsim binary (default bin/hostsim, then hostsim on PATH)")
	catDir := fs.String("catalog", "", "catalog directory (default: the built-in family)")
	only := fs.String("only", "", "comma-separated check ids for the negative matrix")
	lanes := fs.String("lanes", "", "comma-separated other lanes the positive suite also runs on (default: every lane but the catalog's; \"none\" for none)")
	if err := parse(fs, args); err != nil {
		return err
	}
	path, err := selftest.FindHostsim(*bin)
	if err != nil {
		return usagef("selftest: %v", err)
	}
	cat, err := loadCatalog(*catDir)
	if err != nil {
		return err
	}
	if cat == nil {
		if cat, err = catalog.Embedded(); err != nil {
			return err
		}
	}
	other := splitList(*lanes)
	switch {
	case *lanes == "none":
		other = nil
	case *lanes == "" && *catDir == "":
		other = selftest.OtherLanes(cat)
	}
	for _, name := range other {
		if _, err := wire.LaneNamed(name); err != nil {
			return usagef("selftest: --lanes: %v", err)
		}
	}
	if err := knownChecks("selftest", splitList(*only)); err != nil {
		return err
	}
	out, err := selftest.Run(ctx, selftest.Options{Hostsim: path, Catalog: cat, CatalogDir: *catDir, Out: stdout, Only: splitList(*only), OtherLanes: other})
	if err != nil {
		return err
	}
	if !out.OK() {
		return exitFail
	}
	return nil
}
