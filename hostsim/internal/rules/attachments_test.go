package rules

import (
	"regexp"
	"strconv"
	"strings"
	"testing"

	"github.com/takokit/takokit/catalog"
	"github.com/takokit/takokit/catalog/wire"
)

func namespaceForm() *catalog.Form {
	f := consumerForm()
	f.Fields = append(f.Fields,
		catalog.Field{Wire: "vars", Pointer: "/vars", Kind: catalog.FieldJSONMap},
		catalog.Field{Wire: "secrets", Pointer: "/secrets", Kind: catalog.FieldStringSet},
		catalog.Field{Wire: "tags", Pointer: "/tags", Kind: catalog.FieldStringSet})
	return f
}

func TestCheckEnvironmentNamespace(t *testing.T) {
	names := []string{"vars", "secrets"}
	store := func(n string) map[string]any { return map[string]any{"name": n, "resource": node("Store", "s")} }
	ok := map[string]any{
		"vars":    map[string]any{"LOG_LEVEL": "info", "Cache": 1},
		"secrets": []any{"TOKEN"},
		"stores":  []any{store("CACHE"), store("DB")},
		"tags":    []any{"CACHE", "CACHE"}, // not part of the namespace
	}
	if r := CheckEnvironmentNamespace(namespaceForm(), ok, names); r != nil {
		t.Fatalf("distinct names refused: %v", r)
	}
	cases := []struct {
		spec      map[string]any
		ptr, name string
		first     string
	}{
		{map[string]any{"vars": map[string]any{"CACHE": 1}, "stores": []any{store("CACHE")}}, "/vars/CACHE", "CACHE", "/stores/0/name"}, // field order decides which is named first
		{map[string]any{"secrets": []any{"TOKEN"}, "vars": map[string]any{"TOKEN": 1}}, "/secrets/0", "TOKEN", "/vars/TOKEN"},
		{map[string]any{"stores": []any{store("A"), store("A")}}, "/stores/1/name", "A", "/stores/0/name"},
		{map[string]any{"vars": map[string]any{"a/b": 1}, "secrets": []any{"a/b"}}, "/secrets/0", "a/b", "/vars/a~1b"},
	}
	// a json-map's keys are walked in sorted order, so the name refused is the
	// same in every run: ten stores, then the same ten names as var keys
	var stores []any
	vars := map[string]any{}
	for _, n := range []string{"K7", "K2", "K9", "K0", "K4", "K1", "K8", "K3", "K6", "K5"} {
		stores = append(stores, store(n))
		vars[n] = 1
	}
	for range 20 {
		cases = append(cases, struct {
			spec      map[string]any
			ptr, name string
			first     string
		}{map[string]any{"stores": stores, "vars": vars}, "/vars/K0", "K0", "/stores/3/name"}) // K0 is the fourth store
	}
	for _, c := range cases {
		r := CheckEnvironmentNamespace(namespaceForm(), c.spec, names)
		want := c.ptr + ": name " + strconv.Quote(c.name) + " is already used at " + c.first +
			"; var keys, sensitive var names and binding names share one case-sensitive namespace, so give each a distinct name"
		if r == nil || r.Code != wire.CodeInvalidArgument || r.Pointer != c.ptr || r.Message != want {
			t.Errorf("spec %v: refusal %+v, want invalid_argument at %s: %s", c.spec, r, c.ptr, want)
		}
	}
	// Case-sensitive: "cache" and "CACHE" are different names.
	if r := CheckEnvironmentNamespace(namespaceForm(), map[string]any{"vars": map[string]any{"cache": 1}, "stores": []any{store("CACHE")}}, names); r != nil {
		t.Fatalf("case differs yet refused: %v", r)
	}
}

func TestEndpointAddress(t *testing.T) {
	h, u := EndpointAddress("u-01jd8", "endpoints.sim.takokit.test")
	if !regexp.MustCompile(`^e[0-9a-f]{16}\.endpoints\.sim\.takokit\.test$`).MatchString(h) || u != "https://"+h+"/" {
		t.Fatalf("address %q %q", h, u)
	}
	// sha256("u-01jd8") starts with these 16 hex characters (computed independently).
	if h2, _ := EndpointAddress("u-01jd8", "Endpoints.Sim.Takokit.Test."); h2 != h {
		t.Fatalf("domain case and trailing dot change the address: %q vs %q", h2, h)
	}
	if h3, _ := EndpointAddress("u-01je2", "endpoints.sim.takokit.test"); h3 == h {
		t.Fatal("two uids share one address")
	}
	// The outputs' hostname and url patterns (docs/protocol.md#outputs).
	hostRe := regexp.MustCompile(`^[a-z0-9](?:[a-z0-9-]{0,61}[a-z0-9])?(?:\.[a-z0-9](?:[a-z0-9-]{0,61}[a-z0-9])?)+$`)
	urlRe := regexp.MustCompile(`^https://[a-z0-9](?:[a-z0-9-]{0,61}[a-z0-9])?(?:\.[a-z0-9](?:[a-z0-9-]{0,61}[a-z0-9])?)+/$`)
	if !hostRe.MatchString(h) || !urlRe.MatchString(u) {
		t.Fatalf("address %q / %q fails the output patterns", h, u)
	}
}

func TestClaimTaken(t *testing.T) {
	r := ClaimTaken("/hostname", `hostname "api.example.com"`, `WorkerCustomDomain "api" in space "prod"`)
	if r.Code != wire.CodeInvalidArgument || r.Pointer != "/hostname" || !strings.Contains(r.Message, `"api.example.com"`) || !strings.Contains(r.Message, `space "prod"`) {
		t.Fatalf("%+v", r)
	}
}

func TestDeadLetterCycle(t *testing.T) {
	names := map[string]string{"q": "orders", "d": "dead", "e": "dead2"}
	cases := []struct {
		name  string
		live  []QueueEdge
		cand  QueueEdge
		cycle bool
		path  string
		shown string // the cycle as the refusal shows it
		dead  string // the dead letter as the refusal names it
	}{
		{"self", nil, QueueEdge{"q", "q"}, true, "q", `"orders" → "orders"`, `"orders"`},
		{"no edges", nil, QueueEdge{"q", "d"}, false, "", "", ""},
		{"two-cycle", []QueueEdge{{"d", "q"}}, QueueEdge{"q", "d"}, true, "d q", `"orders" → "dead" → "orders"`, `"dead"`},
		{"three-cycle", []QueueEdge{{"d", "e"}, {"e", "q"}}, QueueEdge{"q", "d"}, true, "d e q", `"orders" → "dead" → "dead2" → "orders"`, `"dead"`},
		{"chain without cycle", []QueueEdge{{"d", "e"}, {"e", "f"}}, QueueEdge{"q", "d"}, false, "", "", ""},
		{"diamond reaching back", []QueueEdge{{"d", "a"}, {"d", "b"}, {"a", "c"}, {"b", "c"}, {"c", "q"}}, QueueEdge{"q", "d"}, true, "d a c q",
			`"orders" → "dead" → uid a → uid c → "orders"`, `"dead"`},
		// the dead letter is visited once, though a live edge leads back to it
		{"a cycle through the dead letter reaching back", []QueueEdge{{"d", "e"}, {"e", "d"}, {"e", "q"}}, QueueEdge{"q", "d"}, true, "d e q",
			`"orders" → "dead" → "dead2" → "orders"`, `"dead"`},
		{"cycle elsewhere does not count", []QueueEdge{{"a", "b"}, {"b", "a"}, {"d", "a"}}, QueueEdge{"q", "d"}, false, "", "", ""},
		{"in-degree many", []QueueEdge{{"x", "d"}, {"y", "d"}, {"z", "d"}}, QueueEdge{"q", "d"}, false, "", "", ""},
	}
	for _, c := range cases {
		t.Run(c.name, func(t *testing.T) {
			path, cycle := DeadLetterPath(c.live, c.cand)
			if cycle != c.cycle || strings.Join(path, " ") != c.path {
				t.Fatalf("DeadLetterPath = %v %v, want %v %q", path, cycle, c.cycle, c.path)
			}
			r := CheckDeadLetter("/deadLetterQueue", c.live, c.cand, names)
			if (r != nil) != c.cycle {
				t.Fatalf("CheckDeadLetter = %v", r)
			}
			if r == nil {
				return
			}
			want := "/deadLetterQueue: dead-letter queue " + c.dead + ` leads back to queue "orders" (` + c.shown +
				"); a dead-letter chain must not form a cycle, so choose a dead-letter queue that does not feed this queue"
			if r.Code != wire.CodeInvalidArgument || r.Pointer != "/deadLetterQueue" || r.Message != want {
				t.Fatalf("refusal %s at %s:\n got %s\nwant %s", r.Code, r.Pointer, r.Message, want)
			}
		})
	}
}
