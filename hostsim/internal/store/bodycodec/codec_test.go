package bodycodec

import (
	"bytes"
	"math/rand"
	"testing"
)

// Any body encoded against any dictionary decodes back to itself.
func TestDictionaryCodecRoundTrips(t *testing.T) {
	rnd := rand.New(rand.NewSource(3))
	rep := func(name, uid, ltt string) []byte {
		return []byte(`{"apiVersion":"edge.forms.takokit.dev/v1alpha1","kind":"EdgeKVNamespace","form":{"formRef":{"apiVersion":"edge.forms.takokit.dev/v1alpha1","kind":"EdgeKVNamespace","definitionVersion":"0.1.0","schemaDigest":"sha256:9d43b1aab140d6127e905be4a4d40e29840bc5bc2303b98d671c08b4108d96dd"},"packageDigest":"sha256:17c6b0c7341db9a6fa8a9a471d16405939c180837a884e1f558e1fe4d8bca9ab"},"metadata":{"name":"` +
			name + `","space":"bench","uid":"` + uid + `","generation":"1","revision":"1"},"spec":{},"status":{"observedGeneration":"1","conditions":[{"type":"Ready","status":"True","reason":"Available","lastTransitionTime":"` + ltt + `"}]}}`)
	}
	d := NewDict(1, rep("r-1", "u-d32f94baa3d0a5364a1a", "2026-12-01T16:39:47Z"))
	same := rep("r-4711", "u-77aa94baa3d0a5364bbb", "2026-12-01T17:02:13Z")
	if enc := d.Encode(same); len(enc) > 90 {
		t.Errorf("a representation of the dictionary's shape keeps %d of %d bytes", len(enc), len(same))
	}
	bodies := [][]byte{nil, {}, []byte("x"), same, d.body, []byte(`{"apiVersion":"other"}`)}
	for range 500 {
		b := make([]byte, rnd.Intn(900))
		for i := range b {
			if rnd.Intn(3) == 0 {
				b[i] = byte(rnd.Intn(256))
			} else {
				b[i] = d.body[rnd.Intn(len(d.body))]
			}
		}
		if rnd.Intn(2) == 0 && len(b) > 50 { // long stretches of the dictionary
			at := rnd.Intn(len(d.body) - 40)
			copy(b[rnd.Intn(len(b)-40):], d.body[at:at+40])
		}
		bodies = append(bodies, b)
	}
	for _, b := range bodies {
		got, err := d.Decode(d.Encode(b))
		if err != nil || !bytes.Equal(got, b) {
			t.Fatalf("%q round-trips to %q (%v)", b, got, err)
		}
	}
	for _, bad := range [][]byte{{0x03}, {0x05, 0xff, 0x7f}, {0x81}, {0x07, 0xff, 0xff, 0x03}} {
		if _, err := d.Decode(bad); err == nil {
			t.Errorf("corrupt encoding %x decoded", bad)
		}
	}
}

// A shape is the bytes before the resource's name, of a representation
// small enough to serve as a dictionary; any other body has none.
func TestShape(t *testing.T) {
	rep := `{"apiVersion":"g/v1","kind":"K","metadata":{"name":"`
	for body, want := range map[string]string{
		rep + `n","uid":"u-1"}}`:                             rep,
		`{"apiVersion":"g/v1","kind":"K"}`:                   "",
		`{"kind":"K","metadata":{"name":"n"}}`:               "",
		rep + string(bytes.Repeat([]byte("x"), maxDictBody)): "",
	} {
		if got := Shape([]byte(body)); string(got) != want || (want == "") != (got == nil) {
			t.Errorf("Shape(%.60q) = %q, want %q", body, got, want)
		}
	}
	var s Set
	a, b := NewDict(1, []byte(rep+`a"}}`)), NewDict(2, []byte(`{"apiVersion":"h/v1","metadata":{"name":"b"}}`))
	s.Add(a)
	s.Add(b)
	if s.Len() != 2 || s.ByID(1) != a || s.ByShape([]byte(rep)) != a || s.ByShape(Shape(b.Body())) != b || s.ByID(3) != nil {
		t.Fatal("a Set does not find its dictionaries by id and by shape")
	}
}
