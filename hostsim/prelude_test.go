package hostsim_test

import (
	"strings"
	"testing"

	"github.com/takokit/takokit/hostsim"
	"github.com/takokit/takokit/hostsim/hostsimtest"
)

func TestAuthenticationComesFirst(t *testing.T) {
	sim := hostsimtest.Start(t, hostsim.Config{Catalog: testCatalog(t)})
	for _, tc := range []struct{ name, header string }{
		{"absent", ""}, {"basic scheme", "Basic c2ltOnNpbQ=="}, {"unknown token", "Bearer nobody"},
		{"two spaces", "Bearer  sim-primary"}, {"no token", "Bearer "},
	} {
		t.Run(tc.name, func(t *testing.T) {
			c := newClient(t, sim.URL, "")
			h := map[string]string{}
			if tc.header != "" {
				h["Authorization"] = tc.header
			}
			for _, path := range []string{discovery, api + "/nowhere", api + "/support/forms"} {
				r := c.do("GET", path, h, nil).refused("unauthenticated", 401)
				if r.header.Get("WWW-Authenticate") != "Bearer" {
					t.Fatalf("%s: WWW-Authenticate %q, want Bearer", path, r.header.Get("WWW-Authenticate"))
				}
			}
		})
	}
	// The scheme is matched case-insensitively.
	c := newClient(t, sim.URL, "")
	c.do("GET", discovery, map[string]string{"Authorization": "bearer sim-primary"}, nil).status(200)
}

func TestRoutingIsStrict(t *testing.T) {
	cat := testCatalog(t)
	f := updatable(t, cat)
	sim := hostsimtest.Start(t, hostsim.Config{Catalog: cat})
	c := newClient(t, sim.URL, "sim-primary")
	group, version, _ := strings.Cut(f.Ref.APIVersion, "/")
	res := api + "/resources/" + group + "/" + version + "/" + f.Ref.Kind + "/orders"
	for _, tc := range []struct {
		method, path, code string
		status             int
	}{
		{"GET", api + "/nowhere", "resource_not_found", 404},
		{"PATCH", res, "resource_not_found", 404},
		{"OPTIONS", res, "resource_not_found", 404},
		{"GET", api + "/forms/", "resource_not_found", 404},
		{"POST", res + "/refresh", "resource_not_found", 404},
		{"GET", api + "/resources/" + group + "%2F" + version + "/" + f.Ref.Kind + "/orders", "resource_not_found", 404},
		{"GET", api + "/resources/" + group + "/" + version + "/lowercase/orders" + exactQuery(f, "prod"), "invalid_argument", 400},
		{"GET", api + "/resources/" + group + "/" + version + "/" + f.Ref.Kind + "/Orders" + exactQuery(f, "prod"), "invalid_argument", 400},
		{"GET", discovery + "?x=1", "invalid_argument", 400},
		{"GET", api + "/support/forms?x=1", "invalid_argument", 400},
		{"GET", res, "invalid_argument", 400},
		{"GET", res + exactQuery(f, "prod") + "&packageDigest=sha256%3A" + strings.Repeat("a", 64), "invalid_argument", 400},
		{"GET", res + exactQuery(f, "prod") + "&space=again", "invalid_argument", 400},
		{"GET", res + "?space=prod&group=" + q(f.Ref.APIVersion) + "&kind=" + f.Ref.Kind + "&definitionVersion=9.9.9&schemaDigest=" + q(f.Ref.SchemaDigest), "form_unknown", 404},
		{"GET", res + "?space=prod&group=" + q(f.Ref.APIVersion) + "&kind=" + f.Ref.Kind + "&definitionVersion=" + f.Ref.DefinitionVersion + "&schemaDigest=sha256%3A" + strings.Repeat("0", 64), "form_unknown", 404},
	} {
		c.do(tc.method, tc.path, nil, nil).refused(tc.code, tc.status)
	}
	// Path and query must agree once the FormRef resolved.
	other := noUpdate(t, cat)
	c.do("GET", res+exactQuery(other, "prod"), nil, nil).refused("invalid_argument", 400)
}

func TestSpaceIDGrammar(t *testing.T) {
	cat := testCatalog(t)
	f := updatable(t, cat)
	sim := hostsimtest.Start(t, hostsim.Config{Catalog: cat})
	c := newClient(t, sim.URL, "sim-primary")
	for _, bad := range []string{"", " prod", "prod ", "\ufeffprod", "\u00a0prod", "a/b", "a\u0001b", "a\u007fb", strings.Repeat("s", 256)} {
		c.read(f, "orders", bad).refused("invalid_argument", 400)
		c.do("POST", api+"/resources/prepare", nil, body(f, "orders", bad, fixture(t, f), nil)).refused("invalid_argument", 400)
	}
	// Inner spaces and 255 code points are data.
	for _, good := range []string{"my space", strings.Repeat("é", 255)} {
		c.create(f, "orders", good, fixture(t, f)).status(201)
		c.read(f, "orders", good).status(200)
	}
	// The same name in another space is independent.
	c.read(f, "orders", "other").refused("resource_not_found", 404)
}

func TestStrictJSONOnEveryBody(t *testing.T) {
	cat := testCatalog(t)
	f := updatable(t, cat)
	sim := hostsimtest.Start(t, hostsim.Config{Catalog: cat})
	c := newClient(t, sim.URL, "sim-primary")
	good := string(body(f, "orders", "prod", fixture(t, f), nil))
	inner := strings.TrimSuffix(strings.TrimPrefix(good, "{"), "}")
	bad := map[string]string{
		"duplicate member":  `{"kind":"X",` + inner + `}`,
		"escaped duplicate": `{"\u006bind":"X",` + inner + `}`,
		"unknown member":    `{"extra":1,` + inner + `}`,
		"trailing data":     good + ` {}`,
		"lone surrogate":    `{"x":"\udc00",` + inner + `}`,
		"negative zero":     `{"x":-0,` + inner + `}`,
		"leading zero":      `{"x":01,` + inner + `}`,
		"not finite":        `{"x":1e400,` + inner + `}`,
		"invalid utf-8":     "{\"x\":\"\xff\"," + inner + `}`,
		"spec not object":   strings.Replace(good, `"spec":{`, `"spec":[{`, 1),
		"empty":             ``,
		"nested unknown":    strings.Replace(good, `"metadata":{`, `"metadata":{"owner":"x",`, 1),
		"deep nesting":      strings.Repeat("[", 300) + strings.Repeat("]", 300),
	}
	for name, b := range bad {
		for _, path := range []string{api + "/resources/validate", api + "/resources/prepare"} {
			r := c.do("POST", path, nil, []byte(b))
			if r.code != 400 {
				t.Errorf("%s on %s: HTTP %d, want 400 invalid_argument: %s", name, path, r.code, r.body)
			}
		}
		r := c.do("PUT", resPath(f, "orders"), map[string]string{"If-None-Match": "*", "Idempotency-Key": newKey()}, []byte(b))
		if r.code != 400 {
			t.Errorf("%s on apply: HTTP %d, want 400: %s", name, r.code, r.body)
		}
	}
	c.read(f, "orders", "prod").refused("resource_not_found", 404)
	if n, _ := sim.Admin.Counters(); n.Mutations != 0 {
		t.Fatalf("malformed bodies mutated the store: %d mutations", n.Mutations)
	}
}

// TestAuthAcceptAnyFault proves the fault that lets the conformance check
// unauthenticated-request-refused fail: with it armed, a request without a valid
// credential is served as the first principal, counted against the fault's count.
func TestAuthAcceptAnyFault(t *testing.T) {
	sim := hostsimtest.Start(t, hostsim.Config{Catalog: testCatalog(t)})
	c := newClient(t, sim.URL, "")
	if err := sim.Admin.ArmFault("auth.accept-any,count=1"); err != nil {
		t.Fatal(err)
	}
	c.do("GET", discovery, map[string]string{"Authorization": "Bearer nobody"}, nil).status(200)
	// The single firing is spent: the host refuses again.
	c.do("GET", discovery, map[string]string{"Authorization": "Bearer nobody"}, nil).refused("unauthenticated", 401)
}
