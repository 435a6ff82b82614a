package scripts

import (
	"bytes"
	"encoding/json"
	"fmt"
	"io"
	"net/http"
	"strconv"
	"strings"
	"time"

	"github.com/rogpeppe/go-internal/testscript"
)

var adminClient = &http.Client{Timeout: 15 * time.Second}

// adminDo calls NAME's admin API and decodes a 2xx JSON answer into out (when non-nil).
func adminDo(p *simProc, method, path string, body any, out any) error {
	var r io.Reader
	if body != nil {
		b, err := json.Marshal(body)
		if err != nil {
			return err
		}
		r = bytes.NewReader(b)
	}
	req, err := http.NewRequest(method, p.admin+path, r)
	if err != nil {
		return err
	}
	if body != nil {
		req.Header.Set("Content-Type", "application/json")
	}
	resp, err := adminClient.Do(req)
	if err != nil {
		return fmt.Errorf("%s %s: %v", method, path, err)
	}
	defer resp.Body.Close()
	raw, _ := io.ReadAll(resp.Body)
	if resp.StatusCode/100 != 2 {
		return fmt.Errorf("%s %s: %s: %s", method, path, resp.Status, strings.TrimSpace(string(raw)))
	}
	if out != nil {
		return json.Unmarshal(raw, out)
	}
	return nil
}

// parseFault turns the text form name[=value][,kind=K][,resource=N][,route=R][,count=N] into a fault object.
func parseFault(text string) (map[string]any, error) {
	parts := strings.Split(text, ",")
	f := map[string]any{}
	name, value, hasValue := strings.Cut(parts[0], "=")
	if name == "" {
		return nil, fmt.Errorf("fault %q has no name", text)
	}
	f["fault"] = name
	if hasValue {
		f["value"] = value
	}
	for _, p := range parts[1:] {
		k, v, ok := strings.Cut(p, "=")
		if !ok {
			return nil, fmt.Errorf("fault %q: %q is not key=value", text, p)
		}
		switch k {
		case "kind", "resource", "route":
			f[k] = v
		case "count":
			n, err := strconv.Atoi(v)
			if err != nil || n < 1 {
				return nil, fmt.Errorf("fault %q: count must be a positive integer", text)
			}
			f[k] = n
		default:
			return nil, fmt.Errorf("fault %q: unknown scope %q (want kind, resource, route or count)", text, k)
		}
	}
	return f, nil
}

func cmdHostsimFault(ts *testscript.TestScript, args []string) error {
	if len(args) < 2 {
		return usageError("need NAME and at least one FAULT")
	}
	p, err := lookupSim(ts, args[0])
	if err != nil {
		return err
	}
	for _, text := range args[1:] {
		f, err := parseFault(text)
		if err != nil {
			return usageError(err.Error())
		}
		if err := adminDo(p, "POST", "/faults", f, nil); err != nil {
			return err
		}
	}
	return nil
}

func cmdHostsimComplete(ts *testscript.TestScript, args []string) error {
	if len(args) < 2 || len(args) > 3 {
		return usageError("need NAME OPID [ERROR_CODE]")
	}
	p, err := lookupSim(ts, args[0])
	if err != nil {
		return err
	}
	body := map[string]any{}
	if len(args) == 3 {
		body["error"] = args[2]
	}
	return adminDo(p, "POST", "/operations/"+args[1]+"/complete", body, nil)
}

type counters struct {
	Requests     int64            `json:"requests"`
	Mutations    int64            `json:"mutations"`
	Uploads      int64            `json:"uploads"`
	SupportReads int64            `json:"supportReads"`
	Dispatch     map[string]int64 `json:"dispatch"`
	Fired        map[string]int64 `json:"fired"`
}

func (c counters) value(what string) (int64, error) {
	switch {
	case what == "requests":
		return c.Requests, nil
	case what == "mutations":
		return c.Mutations, nil
	case what == "uploads":
		return c.Uploads, nil
	case what == "support-reads":
		return c.SupportReads, nil
	case what == "dispatch":
		var most int64
		for _, n := range c.Dispatch {
			most = max(most, n)
		}
		return most, nil
	case strings.HasPrefix(what, "dispatch:"):
		return c.Dispatch[strings.TrimPrefix(what, "dispatch:")], nil
	case strings.HasPrefix(what, "fired:"):
		return c.Fired[strings.TrimPrefix(what, "fired:")], nil
	}
	return 0, usageError("unknown counter " + what)
}

func compare(a int64, op string, b int64) (bool, error) {
	switch op {
	case "==":
		return a == b, nil
	case "!=":
		return a != b, nil
	case "<":
		return a < b, nil
	case "<=":
		return a <= b, nil
	case ">":
		return a > b, nil
	case ">=":
		return a >= b, nil
	}
	return false, usageError("unknown operator " + op)
}

func cmdHostsimCount(ts *testscript.TestScript, args []string) error {
	if len(args) != 4 {
		return usageError("need NAME WHAT OP N")
	}
	p, err := lookupSim(ts, args[0])
	if err != nil {
		return err
	}
	want, err := strconv.ParseInt(args[3], 10, 64)
	if err != nil {
		return usageError("N must be an integer")
	}
	var c counters
	if err := adminDo(p, "GET", "/counters", nil, &c); err != nil {
		return err
	}
	what, delta := strings.CutPrefix(args[1], "delta:")
	got, err := c.value(what)
	if err != nil {
		return err
	}
	if delta {
		if p.mark == nil {
			return usageError("delta: counters need a hostsim-mark first")
		}
		base, _ := p.mark.value(what)
		got -= base
	}
	ok, err := compare(got, args[2], want)
	if err != nil {
		return err
	}
	if !ok {
		return fmt.Errorf("counter %s is %d, want %s %d", args[1], got, args[2], want)
	}
	ts.Logf("counter %s = %d (%s %d holds)", args[1], got, args[2], want)
	return nil
}

func cmdHostsimState(ts *testscript.TestScript, args []string) error {
	if len(args) != 1 {
		return usageError("need NAME")
	}
	p, err := lookupSim(ts, args[0])
	if err != nil {
		return err
	}
	var doc any
	if err := adminDo(p, "GET", "/state", nil, &doc); err != nil {
		return err
	}
	b, _ := json.MarshalIndent(doc, "", "  ")
	_, err = fmt.Fprintf(ts.Stdout(), "%s\n", b)
	return err
}

func cmdHostsimMark(ts *testscript.TestScript, args []string) error {
	if len(args) != 1 {
		return usageError("need NAME")
	}
	p, err := lookupSim(ts, args[0])
	if err != nil {
		return err
	}
	var c counters
	if err := adminDo(p, "GET", "/counters", nil, &c); err != nil {
		return err
	}
	p.mark = &c
	return nil
}

func cmdHostsimDisarm(ts *testscript.TestScript, args []string) error {
	if len(args) != 1 {
		return usageError("need NAME")
	}
	p, err := lookupSim(ts, args[0])
	if err != nil {
		return err
	}
	return adminDo(p, "DELETE", "/faults", nil, nil)
}
