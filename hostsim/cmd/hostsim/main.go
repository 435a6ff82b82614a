// Command hostsim runs the partial-host simulator (docs/guides/getting-started.md).
package main

import (
	"errors"
	"fmt"
	"io"
	"os"
	"strings"
)

// command is one subcommand: its synopsis and what it does, for usage and --help.
type command struct {
	name, args, about string
	flags             bool // takes flags (Load), which --help lists
}

// commands are hostsim's subcommands, in the order usage lists them.
var commands = []command{
	{"serve", "[flags]", "serve the lane, the admin API (/_sim/) and the dashboard (/_sim/ui/) until SIGINT or SIGTERM", true},
	{"profiles", "", "list the built-in profiles, one line each", false},
	{"profile show", "[flags] NAME|FILE", "print the fully merged profile document, checked against the catalog as serve checks it", true},
	{"catalog", "[flags]", "print the installed Forms and contracts of a catalog", true},
	{"version", "", "print the stamped build version (also -version)", false},
}

func usage() string {
	var b strings.Builder
	b.WriteString("usage:\n")
	for _, c := range commands {
		fmt.Fprintf(&b, "  hostsim %-25s %s\n", strings.TrimSpace(c.name+" "+c.args), c.about)
	}
	b.WriteString("Run hostsim COMMAND --help for its flags. Every flag has an environment fallback\n" +
		"HOSTSIM_<FLAG> (--ready-file -> HOSTSIM_READY_FILE); precedence: flag, then environment, then default.\n")
	return b.String()
}

// help is the --help text of one command ("" for no such command).
func help(name string) string {
	for _, c := range commands {
		if c.name != name {
			continue
		}
		text := fmt.Sprintf("usage: hostsim %s\n\n%s.\n", strings.TrimSpace(c.name+" "+c.args), strings.ToUpper(c.about[:1])+c.about[1:])
		if c.flags {
			text += "\nFlags (each also read from its environment variable when not given; a flag wins):\n" + flagHelp(name)
		}
		return text
	}
	return ""
}

// wantsHelp reports whether args ask for help (-h, -help, --help).
func wantsHelp(args []string) bool {
	for _, a := range args {
		if a == "-h" || a == "-help" || a == "--help" {
			return true
		}
	}
	return false
}

func main() {
	os.Exit(run(os.Args[1:], os.Getenv, os.Stdout, os.Stderr))
}

// run executes one command and returns the exit status: 0 success (and
// --help), 1 runtime failure, 2 bad input (nothing started). Every error is
// printed after the command's prefix, "hostsim CMD: ".
func run(args []string, env func(string) string, stdout, stderr io.Writer) int {
	if len(args) == 0 {
		fmt.Fprint(stderr, usage())
		return 2
	}
	name, err := args[0], error(nil)
	switch args[0] {
	case "serve":
		err = serve(args[1:], env, stdout, stderr, nil)
	case "profiles":
		err = noArgs("profiles", args[1:], func() error { return profiles(stdout) })
	case "profile":
		switch {
		case len(args) > 1 && args[1] == "show":
			name = "profile show"
			err = profileShow(args[2:], env, stdout)
		case wantsHelp(args[1:]):
			err = &helpRequest{help("profile show")}
		case len(args) == 1:
			err = badUsage("name a subcommand: hostsim profile show NAME|FILE")
		default:
			err = badUsage("unknown subcommand %q: hostsim profile show NAME|FILE", args[1])
		}
	case "catalog":
		err = catalogCmd(args[1:], env, stdout)
	case "version", "-version", "--version":
		name = "version"
		err = noArgs("version", args[1:], func() error { _, err := fmt.Fprintln(stdout, "hostsim", buildVersion()); return err })
	case "help", "-h", "-help", "--help":
		name = "help"
		if len(args) > 1 {
			if text := help(strings.Join(args[1:], " ")); text != "" {
				err = &helpRequest{text}
			} else {
				err = badUsage("no command %q\n%s", strings.Join(args[1:], " "), strings.TrimSuffix(usage(), "\n"))
			}
		} else {
			fmt.Fprint(stdout, usage())
		}
	default:
		fmt.Fprintf(stderr, "hostsim: unknown command %q\n%s", args[0], usage())
		return 2
	}
	var h *helpRequest
	if errors.As(err, &h) {
		fmt.Fprint(stdout, h.text)
		return 0
	}
	if err == nil {
		return 0
	}
	fmt.Fprintf(stderr, "hostsim %s: %v\n", name, err)
	var u *usageError
	if errors.As(err, &u) {
		return 2
	}
	return 1
}

// noArgs runs a command that takes no arguments, or answers its --help.
func noArgs(name string, args []string, do func() error) error {
	switch {
	case wantsHelp(args):
		return &helpRequest{help(name)}
	case len(args) > 0:
		return badUsage("takes no arguments (got %q)", args)
	}
	return do()
}
