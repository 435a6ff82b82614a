package render

import (
	"crypto/sha256"
	"encoding/hex"
	"encoding/json"
	"reflect"
	"strings"
	"testing"

	"github.com/takokit/takokit/catalog"
	"github.com/takokit/takokit/hostsim/internal/profile"
	"github.com/takokit/takokit/hostsim/internal/store"
)

func i64(n int64) *int64 { return &n }

// Each declared output gets its value from the schema alone
// (docs/protocol.md#outputs): an enum its first value, an integer 443 clamped
// to its bounds, a boolean true, a string the assigned hostname or its https URL.
func TestOutputValue(t *testing.T) {
	const host = "e0123456789abcdef.example.test"
	for _, tc := range []struct {
		name string
		o    catalog.Output
		want any
	}{
		{"a string enum", catalog.Output{Type: "string", Enum: []string{"blue", "green"}}, "blue"},
		{"an integer enum", catalog.Output{Type: "integer", Enum: []string{"8080", "443"}}, float64(8080)},
		{"a boolean enum", catalog.Output{Type: "boolean", Enum: []string{"false"}}, false},
		{"an integer", catalog.Output{Type: "integer"}, int64(443)},
		{"an integer within its bounds", catalog.Output{Type: "integer", Min: i64(1), Max: i64(65535)}, int64(443)},
		{"an integer above its maximum", catalog.Output{Type: "integer", Max: i64(100)}, int64(100)},
		{"an integer below its minimum", catalog.Output{Type: "integer", Min: i64(8000)}, int64(8000)},
		{"a boolean", catalog.Output{Type: "boolean"}, true},
		{"a hostname", catalog.Output{Type: "string", Pattern: "^[a-z0-9.-]+$"}, host},
		{"a string without a pattern", catalog.Output{Type: "string"}, host},
		{"an https URL", catalog.Output{Type: "string", Pattern: "^https://[a-z0-9.-]+/$"}, "https://" + host + "/"},
	} {
		t.Run(tc.name, func(t *testing.T) {
			if got := outputValue(tc.o, host); !reflect.DeepEqual(got, tc.want) {
				t.Fatalf("got %#v, want %#v", got, tc.want)
			}
		})
	}
}

func embedded(t *testing.T) *profile.Host {
	t.Helper()
	cat, err := catalog.Embedded()
	if err != nil {
		t.Fatal(err)
	}
	p, err := profile.Load("full")
	if err != nil {
		t.Fatal(err)
	}
	return profile.Resolve(p, cat)
}

// installed is the installed Form of kind at version.
func installed(t *testing.T, h *profile.Host, kind, version string) *catalog.Form {
	t.Helper()
	for _, f := range h.Forms() {
		if f.Ref.Kind == kind && f.Ref.DefinitionVersion == version {
			return f
		}
	}
	t.Fatalf("%s %s is not installed", kind, version)
	return nil
}

// The outputs are exactly the declared members, addressed by the uid, and
// checked against the outputSchema: a value it refuses is an error, never served.
func TestOutputsAreExactlyTheDeclaredMembers(t *testing.T) {
	f := installed(t, embedded(t), "WorkerEndpoint", "0.2.0")
	sum := sha256.Sum256([]byte("u-1"))
	host := "e" + hex.EncodeToString(sum[:])[:16] + ".example.test"
	got, err := Outputs(f, "u-1", "example.test")
	if err != nil {
		t.Fatal(err)
	}
	want := map[string]any{"hostname": host, "port": int64(443), "url": "https://" + host + "/"}
	if !reflect.DeepEqual(got, want) {
		t.Fatalf("outputs %v, want %v", got, want)
	}
	if again, _ := Outputs(f, "u-2", "example.test"); again["hostname"] == host {
		t.Fatal("two uids were given one address")
	}
	if _, err := Outputs(f, "u-1", "Upper.Case"); err == nil || !strings.Contains(err.Error(), "cannot assign outputs of WorkerEndpoint 0.2.0") {
		t.Fatalf("a hostname the outputSchema refuses: %v", err)
	}
}

// A Form that declares outputs is served with them, one that declares none
// without any (never {}).
func TestRenderedOutputsExactOrOmitted(t *testing.T) {
	h := embedded(t)
	x := &Renderer{Host: h}
	r := &store.Resource{UID: "u-1"}
	out, err := x.outputs(installed(t, h, "EdgeKVNamespace", "0.1.0"), r, nil)
	if err != nil || out != nil {
		t.Fatalf("a Form without outputs: %s, %v; want none", out, err)
	}
	f := installed(t, h, "WorkerEndpoint", "0.1.0")
	out, err = x.outputs(f, r, nil)
	if err != nil {
		t.Fatal(err)
	}
	want, _ := Outputs(f, "u-1", h.P.Domain())
	var got map[string]any
	if json.Unmarshal(out, &got) != nil || len(got) != len(want) || got["hostname"] != want["hostname"] || got["url"] != want["url"] {
		t.Fatalf("outputs %s, want %v", out, want)
	}
}
