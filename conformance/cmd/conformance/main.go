// Command conformance measures a Takoform host against the lane its discovery names
// (docs/guides/conformance.md): `run` against any host, `list` the checks, `selftest` the
// runner against hostsim run as a process.
package main

import (
	"context"
	"errors"
	"flag"
	"fmt"
	"io"
	"os"
	"os/signal"
	"syscall"
)

// usageError is bad usage: exit status 2.
type usageError struct{ msg string }

func (e *usageError) Error() string { return e.msg }

func usagef(format string, args ...any) error { return &usageError{msg: fmt.Sprintf(format, args...)} }

// exitFail is a completed command whose verdict is negative: exit status 1.
// Every other error means the command could not do its work: exit status 2.
var exitFail = errors.New("not conformant")

const usage = `usage:
  conformance run  --endpoint URL --token-env VAR [--alternate-token-env VAR] [--other-tenant-token-env VAR]
                   [--space NAME] [--only ID,...] [--skip ID,...] [--strict] [--format text|json|junit]
                   [--out FILE] [--catalog DIR]
  conformance list [--format text|markdown|json] [--out FILE]
  conformance selftest [--hostsim PATH] [--catalog DIR] [--only ID,...] [--lanes NAME,...|none]
  conformance version              (also -version) print the stamped build version

Exit status (docs/guides/conformance.md):
  0  the run completed and no check failed or errored (not-applicable and skipped
     checks do not count, unless --strict)
  1  the run completed and a check failed, or errored because a step it needs
     failed on the host (the report groups those under their cause)
  2  the run could not happen or complete: bad usage, the host's discovery or
     support surface unreadable, a catalog that does not load, a report that
     cannot be written, an interrupted run; selftest: hostsim would not start
`

// version is stamped by `go tool mage build` (-ldflags "-X main.version=…").
var version = "dev"

func main() {
	ctx, stop := signal.NotifyContext(context.Background(), os.Interrupt, syscall.SIGTERM)
	err := run(ctx, os.Args[1:], os.Stdout, os.Stderr, os.Getenv)
	stop()
	os.Exit(exitCode(err, os.Stderr))
}

func exitCode(err error, stderr io.Writer) int {
	var u *usageError
	switch {
	case err == nil:
		return 0
	case errors.As(err, &u):
		fmt.Fprintf(stderr, "conformance: %v\n\n%s", err, usage)
		return 2
	case errors.Is(err, exitFail):
		return 1
	default:
		fmt.Fprintf(stderr, "conformance: could not run: %v\n", err)
		return 2
	}
}

func run(ctx context.Context, args []string, stdout, stderr io.Writer, getenv func(string) string) error {
	if len(args) == 0 {
		return usagef("a command is required: run, list or selftest")
	}
	switch args[0] {
	case "run":
		return cmdRun(ctx, args[1:], stdout, stderr, getenv)
	case "list":
		return cmdList(args[1:], stdout)
	case "selftest":
		return cmdSelftest(ctx, args[1:], stdout)
	case "version", "-version", "--version":
		fmt.Fprintln(stdout, "conformance", version)
		return nil
	case "help", "-h", "--help":
		fmt.Fprint(stdout, usage)
		return nil
	}
	return usagef("unknown command %q (known: run, list, selftest, version)", args[0])
}

// newFlags returns a flag set that reports problems as usage errors, not output.
func newFlags(name string) *flag.FlagSet {
	fs := flag.NewFlagSet(name, flag.ContinueOnError)
	fs.SetOutput(io.Discard)
	return fs
}

func parse(fs *flag.FlagSet, args []string) error {
	if err := fs.Parse(args); err != nil {
		return usagef("%s: %v", fs.Name(), err)
	}
	if fs.NArg() > 0 {
		return usagef("%s: unexpected argument %q", fs.Name(), fs.Arg(0))
	}
	return nil
}
