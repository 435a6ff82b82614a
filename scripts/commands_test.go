package scripts

import (
	"strings"

	"github.com/rogpeppe/go-internal/testscript"
)

// command is one custom scenario command. The table below is the single list: the scenarios'
// Cmds map and the generated scripts/testdata/README.md are both derived from it.
type command struct {
	name    string
	usage   string // arguments, as shown in the usage line
	summary string
	// negatable commands may be written with a leading `!` to expect an ordinary failure.
	negatable bool
	run       func(ts *testscript.TestScript, args []string) error
}

var commands = []command{
	{"hostsim-start", "NAME PROFILE [hostsim serve flags...]",
		"start `hostsim serve` on a free loopback port with the built-in PROFILE (or a profile file), wait on its ready file and export NAME_URL (bare origin) and NAME_ADMIN; stopped with SIGINT when the script ends",
		false, cmdHostsimStart},
	{"hostsim-restart", "NAME",
		"start NAME again with the same arguments (after it exited or was interrupted), on the same port and database file",
		false, cmdHostsimRestart},
	{"hostsim-stop", "NAME",
		"interrupt NAME (SIGINT) and require a clean exit (status 0)",
		false, cmdHostsimStop},
	{"hostsim-fault", "NAME FAULT...",
		"arm faults on NAME, each written name[=value][,kind=K][,resource=N][,route=R][,count=N] (docs/protocol.md#faults)",
		true, cmdHostsimFault},
	{"hostsim-disarm", "NAME",
		"disarm every fault armed at run time on NAME (the profile's faults stay)",
		false, cmdHostsimDisarm},
	{"hostsim-complete", "NAME OPID [ERROR_CODE]",
		"finish the running async operation OPID on NAME, successfully or with ERROR_CODE",
		true, cmdHostsimComplete},
	{"hostsim-count", "NAME WHAT OP N",
		"assert a counter of NAME's /_sim/counters: WHAT is requests, mutations, uploads, support-reads, dispatch (largest per operation), dispatch:OPID or fired:FAULT (firings of FAULT, written NAME or NAME=VALUE; durable across restarts), optionally prefixed delta: to count since the last hostsim-mark; OP is one of == != < <= > >=",
		false, cmdHostsimCount},
	{"hostsim-events", "NAME TYPE [FIELD=VALUE,...] OP N",
		"assert how many events of NAME's journal (/_sim/events: request, mutation, fault, ...) have TYPE and match every FIELD=VALUE (a dotted path into the event's data, e.g. fault.fault=transition.crash or method=PUT,status=503); OP is one of == != < <= > >=",
		false, cmdHostsimEvents},
	{"hostsim-distinct", "NAME TYPE FIELD [FIELD=VALUE,...] OP N",
		"assert how many distinct values FIELD (a dotted path, e.g. idempotencyKey) takes among NAME's journal events of TYPE matching every FIELD=VALUE (each must carry FIELD); OP is one of == != < <= > >=",
		false, cmdHostsimDistinct},
	{"hostsim-kill", "NAME",
		"SIGKILL NAME (no shutdown, no flush) and wait until it is gone; hostsim-restart starts it again on the same port and database file",
		false, cmdHostsimKill},
	{"hostsim-mark", "NAME",
		"remember NAME's counters now, so hostsim-count delta:WHAT counts only what happens after",
		false, cmdHostsimMark},
	{"hostsim-wait", "NAME CONDITION [TIMEOUT]",
		"poll NAME until CONDITION holds (exited, ack-deadline-passed, operation-running, holding), failing after TIMEOUT (default 30s); never a fixed sleep",
		true, cmdHostsimWait},
	{"openapi-proxy", "NAME",
		"put a recording reverse proxy (loopback) in front of NAME and point NAME_URL, and from then on tofu-env, at it",
		false, cmdOpenAPIProxy},
	{"bare-404", "NAME PATH_PREFIX...",
		"put a loopback proxy in front of NAME that answers every path starting with a PATH_PREFIX with a bare 404 (text, no error envelope), as a web server routing only some paths does, and forwards the rest; point NAME_URL, and from then on tofu-env, at it",
		false, cmdBare404},
	{"openapi-validate", "NAME MIN",
		"check every answer recorded through NAME's openapi-proxy (at least MIN) against the OpenAPI 3.1 document NAME serves at /_sim/openapi.json (docs/protocol.md#openapi)",
		true, cmdOpenAPIValidate},
	{"hostsim-state", "NAME",
		"print NAME's /_sim/state document to stdout (for grep/cmp)",
		false, cmdHostsimState},
	{"crash-row", "NAME POINT KIND RESOURCE VERSION GENERATION",
		"record a row of the real-process crash matrix (printed at the end of TestScenarios): the durable firing count of transition.hang=POINT on NAME, the backend calls per transition operation and whether RESOURCE of KIND converged at VERSION and GENERATION with no claim; fails unless it fired exactly once and converged",
		false, cmdCrashRow},
	{"interrupt-when", "NAME CONDITION PROGRAM [ARGS...]",
		"run PROGRAM, wait until hostsim NAME reports CONDITION (as hostsim-wait), send it SIGINT like Ctrl-C and wait for it to end whatever its exit status; its output becomes stdout/stderr",
		false, cmdInterruptWhen},
	{"within", "DURATION PROGRAM [ARGS...] [-- PROGRAM [ARGS...]]...",
		"run PROGRAM like exec (its output becomes stdout/stderr; a non-zero exit fails), or several separated by -- at the same time, killing what still runs and failing once DURATION has passed: a bound for load scenarios",
		true, cmdWithin},
	{"tofu-env", "NAME [TOKEN] [SPACE]",
		"point the takoform provider at NAME: write the CLI configuration (dev_overrides) and set TAKOFORM_ENDPOINT, TAKOFORM_TOKEN (default sim-primary) and TAKOFORM_SPACE (default scenarios)",
		false, cmdTofuEnv},
	{"family-provider", "LANE",
		"build terraform-provider-takoform over the published reference family of LANE (v1beta1 or v1alpha3) with `go tool mage provider:family DIR` into bin/scenario-family/LANE, once per lane and run (its output becomes stdout of every scenario that asks; the family's lane markers choose the provider's lane), make tofu-env point dev_overrides at it and export FAMILY_DIR; guard the scenario with `[!reference] skip`",
		false, cmdFamilyProvider},
	{"json-env", "FILE POINTER VAR",
		"set environment variable VAR to the string (or JSON text) at JSON POINTER of FILE",
		false, cmdJSONEnv},
	{"ready-wait", "FILE NAME [TIMEOUT]",
		"wait until FILE holds a hostsim ready document (for a hostsim started with exec ... &bg&) and export NAME_URL and NAME_ADMIN",
		false, cmdReadyWait},
	{"http-get", "URL [TOKEN]",
		"GET URL (with a bearer TOKEN when given) and print the body to stdout; a non-2xx answer is a failure",
		true, cmdHTTPGet},
	{"json-get", "FILE POINTER [WANT]",
		"print the value at JSON POINTER of FILE (a `tofu show -json` or `tofu output -json` capture); with WANT, require it to equal WANT (JSON text)",
		true, cmdJSONGet},
}

// commandFuncs adapts the table to testscript: a usage error fails the script, `!` is refused on
// commands that make no sense negated, and an ordinary failure honours `!`.
func commandFuncs() map[string]func(ts *testscript.TestScript, neg bool, args []string) {
	m := map[string]func(ts *testscript.TestScript, neg bool, args []string){}
	for _, c := range commands {
		c := c
		m[c.name] = func(ts *testscript.TestScript, neg bool, args []string) {
			if neg && !c.negatable {
				ts.Fatalf("%s cannot be negated with !", c.name)
			}
			err := c.run(ts, args)
			if ue, ok := err.(usageError); ok {
				ts.Fatalf("usage: %s %s (%s)", c.name, c.usage, string(ue))
			}
			switch {
			case err != nil && !neg:
				ts.Fatalf("%s: %v", c.name, err)
			case err == nil && neg:
				ts.Fatalf("%s %s: unexpected success", c.name, strings.Join(args, " "))
			case err != nil:
				ts.Logf("%s failed as expected: %v", c.name, err)
			}
		}
	}
	return m
}

// usageError marks bad usage of a command; it always fails the script, even under `!`.
type usageError string

func (u usageError) Error() string { return string(u) }
