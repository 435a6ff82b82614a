package scripts

import (
	"encoding/json"
	"fmt"
	"net/http"
	"os"
	"path/filepath"
	"strings"

	"github.com/rogpeppe/go-internal/testscript"

	"github.com/takokit/takokit/catalog/wire"
)

func cmdTofuEnv(ts *testscript.TestScript, args []string) error {
	if len(args) < 1 || len(args) > 3 {
		return usageError("need NAME [TOKEN] [SPACE]")
	}
	p, err := lookupSim(ts, args[0])
	if err != nil {
		return err
	}
	token, space := "sim-primary", "scenarios"
	if len(args) > 1 {
		token = args[1]
	}
	if len(args) > 2 {
		space = args[2]
	}
	rc := ts.MkAbs(".tofurc")
	providers := ts.Getenv("TAKOKIT_PROVIDER_DIR") // set by family-provider
	if providers == "" {
		// the provider of the host's lane: bin/ for the default lane, bin/<lane>/ for
		// another (go tool mage build writes both; docs/protocol.md#lanes)
		lane, err := simLane(p)
		if err != nil {
			return err
		}
		providers = ts.Getenv("TAKOKIT_BIN")
		if lane != wire.DefaultLane {
			providers = filepath.Join(providers, lane.Name)
		}
	}
	if err := os.WriteFile(rc, []byte(cliConfig(providers)), 0o644); err != nil {
		return err
	}
	ts.Setenv("TF_CLI_CONFIG_FILE", rc)
	ts.Setenv("TAKOFORM_ENDPOINT", p.url)
	ts.Setenv("TAKOFORM_TOKEN", token)
	ts.Setenv("TAKOFORM_SPACE", space)
	return nil
}

// simLane is the lane a running hostsim says it speaks (GET /_sim/health).
func simLane(p *simProc) (*wire.Lane, error) {
	resp, err := http.Get(p.admin + "/health")
	if err != nil {
		return nil, fmt.Errorf("hostsim %s: reading its lane: %v", p.name, err)
	}
	defer resp.Body.Close()
	var h struct {
		Lane string `json:"lane"`
	}
	if err := json.NewDecoder(resp.Body).Decode(&h); err != nil {
		return nil, fmt.Errorf("hostsim %s: /_sim/health: %v", p.name, err)
	}
	return wire.LaneNamed(h.Lane)
}

// cmdJSONGet reads one value out of a JSON capture by JSON Pointer.
func cmdJSONGet(ts *testscript.TestScript, args []string) error {
	if len(args) < 2 || len(args) > 3 {
		return usageError("need FILE POINTER [WANT]")
	}
	var doc any
	if err := json.Unmarshal([]byte(ts.ReadFile(args[0])), &doc); err != nil {
		return fmt.Errorf("%s is not JSON: %v", args[0], err)
	}
	v, err := pointer(doc, args[1])
	if err != nil {
		return err
	}
	got, _ := json.Marshal(v)
	fmt.Fprintf(ts.Stdout(), "%s\n", got)
	if len(args) == 3 {
		var want any
		if err := json.Unmarshal([]byte(args[2]), &want); err != nil {
			return usageError(fmt.Sprintf("WANT %q is not JSON text", args[2]))
		}
		wantB, _ := json.Marshal(want)
		if string(wantB) != string(got) {
			return fmt.Errorf("%s at %s is %s, want %s", args[0], args[1], got, wantB)
		}
	}
	return nil
}

func pointer(doc any, ptr string) (any, error) {
	if ptr == "" {
		return doc, nil
	}
	if !strings.HasPrefix(ptr, "/") {
		return nil, usageError("POINTER must start with /")
	}
	cur := doc
	for _, tok := range strings.Split(ptr[1:], "/") {
		tok = strings.ReplaceAll(strings.ReplaceAll(tok, "~1", "/"), "~0", "~")
		switch c := cur.(type) {
		case map[string]any:
			v, ok := c[tok]
			if !ok {
				return nil, fmt.Errorf("no member %q at %s", tok, ptr)
			}
			cur = v
		case []any:
			var i int
			if _, err := fmt.Sscanf(tok, "%d", &i); err != nil || i < 0 || i >= len(c) {
				return nil, fmt.Errorf("no element %q at %s", tok, ptr)
			}
			cur = c[i]
		default:
			return nil, fmt.Errorf("%s: cannot descend into a scalar at %q", ptr, tok)
		}
	}
	return cur, nil
}

// cmdJSONEnv captures one value of a JSON capture into the environment (strings unquoted).
func cmdJSONEnv(ts *testscript.TestScript, args []string) error {
	if len(args) != 3 {
		return usageError("need FILE POINTER VAR")
	}
	var doc any
	if err := json.Unmarshal([]byte(ts.ReadFile(args[0])), &doc); err != nil {
		return fmt.Errorf("%s is not JSON: %v", args[0], err)
	}
	v, err := pointer(doc, args[1])
	if err != nil {
		return err
	}
	if s, ok := v.(string); ok {
		ts.Setenv(args[2], s)
		return nil
	}
	b, _ := json.Marshal(v)
	ts.Setenv(args[2], string(b))
	return nil
}
