package related

import (
	"encoding/json"
	"fmt"
	"reflect"
	"sync"
	"sync/atomic"
	"testing"

	"github.com/takokit/takokit/catalog/wire"
	"github.com/takokit/takokit/hostsim/internal/store"
)

// A decoded spec is the bytes' own decoding, kept by its exact bytes: the same
// bytes give the value decoded before, other bytes of the same length their
// own, and bytes that are no JSON object nil, which is not kept.
func TestDecodeCacheKeepsByExactBytes(t *testing.T) {
	var c decodeCache[map[string]any]
	a, b := []byte(`{"weight":10}`), []byte(`{"weight":90}`)
	first := c.of(a)
	if want := map[string]any{"weight": 10.0}; !reflect.DeepEqual(first, want) {
		t.Fatalf("decoded %v, want %v", first, want)
	}
	if again := c.of([]byte(string(a))); reflect.ValueOf(again).Pointer() != reflect.ValueOf(first).Pointer() {
		t.Error("the same bytes were decoded again instead of read from the cache")
	}
	if other := c.of(b); !reflect.DeepEqual(other, map[string]any{"weight": 90.0}) {
		t.Errorf("other bytes of the same length decoded as %v", other)
	}
	for _, bad := range []string{`[1]`, `{"weight":`, ``} {
		if v := c.of([]byte(bad)); v != nil {
			t.Errorf("%q decoded as %v, want nil", bad, v)
		}
	}
	if len(c.m) != 2 {
		t.Errorf("the cache holds %d values, want the 2 that decoded", len(c.m))
	}
}

// decodes counts the documents decoded into a counted.
var decodes atomic.Int64

// counted is a value whose decoding is counted.
type counted struct{ N int }

func (c *counted) UnmarshalJSON(b []byte) error {
	decodes.Add(1)
	type plain counted
	return json.Unmarshal(b, (*plain)(c))
}

// Bytes read before are not decoded again.
func TestDecodeCacheDecodesEachBytesOnce(t *testing.T) {
	var c decodeCache[counted]
	decodes.Store(0)
	for range 3 {
		for _, raw := range []string{`{"N":1}`, `{"N":2}`} {
			if got := c.of([]byte(raw)); got.N != int(raw[5]-'0') {
				t.Fatalf("%s decoded as %+v", raw, got)
			}
		}
	}
	if n := decodes.Load(); n != 2 {
		t.Errorf("two documents read three times each were decoded %d times, want 2", n)
	}
}

// The cache holds at most decodedCap values, and still answers each one right
// when it started again.
func TestDecodeCacheIsBounded(t *testing.T) {
	var c decodeCache[map[string]any]
	for i := range decodedCap*2 + 3 {
		raw := fmt.Sprintf(`{"n":%d}`, i)
		if v := c.of([]byte(raw)); v["n"] != float64(i) {
			t.Fatalf("%s decoded as %v", raw, v)
		}
		if len(c.m) > decodedCap {
			t.Fatalf("after %d values the cache holds %d, more than %d", i+1, len(c.m), decodedCap)
		}
	}
	if len(c.m) != 3 {
		t.Errorf("the cache holds %d values after starting again twice, want 3", len(c.m))
	}
}

// Pins' FormRefs decode through their own cache; readers on many goroutines
// (the server's reads render Ready while a write re-renders) share them.
func TestPinRefsDecodeOnceAcrossReaders(t *testing.T) {
	g := &G{}
	ref := wire.FormRef{APIVersion: "forms.takoform.com/v1beta1", Kind: "Worker", DefinitionVersion: "1.0.0", SchemaDigest: "sha256:ab"}
	b, _ := json.Marshal(ref)
	p := store.Pin{TargetRef: string(b)}
	var wg sync.WaitGroup
	for range 8 {
		wg.Go(func() {
			for range 50 {
				if got := g.pinRef(p); got != ref {
					t.Errorf("pinRef %+v, want %+v", got, ref)
					return
				}
			}
		})
	}
	wg.Wait()
	// what json.Unmarshal filled before a member of the wrong type is not kept either
	for _, bad := range []string{"not json", `{"kind":"Worker","apiVersion":5}`} {
		if got := g.pinRef(store.Pin{TargetRef: bad}); got != (wire.FormRef{}) {
			t.Errorf("the ref %s read as %+v, want the zero ref", bad, got)
		}
	}
	if len(g.decoded.refs.m) != 1 || len(g.decoded.specs.m) != 0 {
		t.Errorf("caches hold %d refs and %d specs, want 1 and 0", len(g.decoded.refs.m), len(g.decoded.specs.m))
	}
}
