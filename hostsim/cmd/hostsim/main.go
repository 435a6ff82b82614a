// Command hostsim runs the partial-host simulator (docs/guides/getting-started.md).
package main

import (
	"errors"
	"fmt"
	"io"
	"os"
)

const usage = `usage:
  hostsim serve   [--addr 127.0.0.1:8484] [--profile NAME|FILE] [--catalog DIR] [--lane v1beta1|v1alpha3] [--db FILE]
                  [--tokens FILE] [--admin-token TOKEN] [--conformance-probes] [--ack-deadline 10s]
                  [--seed N] [--ready-file PATH] [--log-format text|json]
  hostsim profiles                 list built-in profiles, one line each
  hostsim profile show NAME|FILE   print the fully merged profile document
  hostsim catalog [--catalog DIR] [--lane v1beta1|v1alpha3] [--format text|json]
                                   print the installed Forms and contracts
  hostsim version                  (also -version) print the stamped build version
Every flag has an environment fallback HOSTSIM_<FLAG> (--ready-file -> HOSTSIM_READY_FILE);
precedence: flag, then environment, then default.
`

func main() {
	os.Exit(run(os.Args[1:], os.Getenv, os.Stdout, os.Stderr))
}

// run executes one command and returns the exit status: 0 success, 1 runtime
// failure, 2 bad input (nothing started).
func run(args []string, env func(string) string, stdout, stderr io.Writer) int {
	if len(args) == 0 {
		fmt.Fprint(stderr, usage)
		return 2
	}
	var err error
	switch args[0] {
	case "serve":
		err = serve(args[1:], env, stdout, stderr, nil)
	case "profiles":
		err = profiles(stdout)
	case "profile":
		if len(args) < 2 || args[1] != "show" {
			err = badUsage("usage: hostsim profile show NAME|FILE")
			break
		}
		err = profileShow(args[2:], env, stdout)
	case "catalog":
		err = catalogCmd(args[1:], env, stdout)
	case "version", "-version", "--version":
		fmt.Fprintln(stdout, "hostsim", buildVersion())
	case "help", "-h", "--help":
		fmt.Fprint(stdout, usage)
	default:
		err = badUsage("hostsim: unknown command %q\n%s", args[0], usage)
	}
	if err == nil {
		return 0
	}
	fmt.Fprintln(stderr, err)
	var u *usageError
	if errors.As(err, &u) {
		return 2
	}
	return 1
}
