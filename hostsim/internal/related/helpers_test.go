package related

import (
	"encoding/json"
	"reflect"
	"testing"

	"github.com/takokit/takokit/catalog"
	"github.com/takokit/takokit/catalog/wire"
	"github.com/takokit/takokit/hostsim/internal/rules"
)

// valueAt reads a JSON Pointer: "" is the whole value, ~1 and ~0 are '/' and
// '~' in a member name, and an array token that is not an index within the
// array reads nothing.
func TestValueAtReadsAJSONPointer(t *testing.T) {
	doc := map[string]any{"a/b": 1.0, "m~n": 2.0, "list": []any{"x", "y"}}
	for _, tc := range []struct {
		ptr  string
		want any
	}{
		{"", doc}, {"/a~1b", 1.0}, {"/m~0n", 2.0}, {"/list/1", "y"},
		{"/list/2", nil}, {"/list/-1", nil}, {"/list/first", nil}, {"/list/0/deeper", nil},
	} {
		if got := valueAt(doc, tc.ptr); !reflect.DeepEqual(got, tc.want) {
			t.Errorf("valueAt(%q) = %#v, want %#v", tc.ptr, got, tc.want)
		}
	}
}

// parentPointer drops the last token; a pointer without one has no parent.
func TestParentPointer(t *testing.T) {
	for p, want := range map[string]string{"/versions/*/workerVersion": "/versions/*", "/versions": "", "versions": ""} {
		if got := parentPointer(p); got != want {
			t.Errorf("parentPointer(%q) = %q, want %q", p, got, want)
		}
	}
}

// A pin of a binding list records the exact BindingRef it was checked
// against (the host view shows it); any other pin records none.
func TestStorePinKeepsTheBindingRef(t *testing.T) {
	ref := wire.BindingRef{APIVersion: "bindings.takoform.com/v1beta1", Name: "queue-producer", Version: "0.1.0", SchemaDigest: "sha256:ab"}
	if got := storePin(rules.Pin{Pointer: "/queues/0/queue", BindingRef: &ref}).BindingRef; got != `{"apiVersion":"bindings.takoform.com/v1beta1","name":"queue-producer","version":"0.1.0","schemaDigest":"sha256:ab"}` {
		t.Errorf("a binding pin records %q", got)
	}
	if got := storePin(rules.Pin{Pointer: "/worker"}).BindingRef; got != "" {
		t.Errorf("a pin outside a binding list records binding %q, want none", got)
	}
}

// The hostname fields of a kind are its string fields with the hostname
// pattern, each named once however many versions declare it.
func TestHostnameFieldsAreTheHostnamePatternedStrings(t *testing.T) {
	host := catalog.Field{Wire: "hostname", Kind: catalog.FieldString, Pattern: rules.HostnamePattern}
	alias := catalog.Field{Wire: "alias", Kind: catalog.FieldString, Pattern: rules.HostnamePattern}
	zone := catalog.Field{Wire: "zone", Kind: catalog.FieldString}
	k := &catalog.Kind{Versions: []*catalog.Form{{Fields: []catalog.Field{zone, host}}, {Fields: []catalog.Field{host, zone, alias}}}}
	if got, want := hostnameFields(k), []string{"hostname", "alias"}; !reflect.DeepEqual(got, want) {
		t.Fatalf("hostname fields %v, want %v", got, want)
	}
}

// toInt reads a weight however the spec was decoded; what is no integer
// reads as 0, a weight the deployment rules refuse.
func TestToIntReadsAWeight(t *testing.T) {
	for _, tc := range []struct {
		v    any
		want int64
	}{
		{float64(2500), 2500}, {json.Number("7500"), 7500}, {int64(3), 3}, {4, 4},
		{json.Number("1.5"), 0}, {"10000", 0}, {nil, 0},
	} {
		if got := toInt(tc.v); got != tc.want {
			t.Errorf("toInt(%#v) = %d, want %d", tc.v, got, tc.want)
		}
	}
}
