package conformance

import (
	"testing"

	"github.com/takokit/takokit/catalog"
)

// TestCreatedFirstPrefersTheStandaloneVersion: of a kind's two installed
// versions, resource-answers-only-under-its-recorded-form-ref creates a
// standalone one when there is one, whichever order the catalog lists them in,
// and otherwise keeps the catalog's order. The shipped catalogs install no kind
// whose two versions differ in this, so the check's recorded runs cannot show it.
func TestCreatedFirstPrefersTheStandaloneVersion(t *testing.T) {
	cat, err := catalog.Embedded()
	if err != nil {
		t.Fatal(err)
	}
	byKind := map[string][]*catalog.Form{}
	for _, f := range cat.Forms() {
		byKind[f.Ref.Kind] = append(byKind[f.Ref.Kind], f)
	}
	queues, endpoints, bundles := byKind["AtLeastOnceQueue"], byKind["WorkerEndpoint"], byKind["WorkerBundle"]
	if len(queues) != 2 || len(endpoints) == 0 || len(bundles) == 0 {
		t.Fatalf("the embedded catalog has %d AtLeastOnceQueue versions, %d WorkerEndpoint, %d WorkerBundle; want 2, 1 or more, 1 or more",
			len(queues), len(endpoints), len(bundles))
	}
	queue, queue2, endpoint, bundle := queues[0], queues[1], endpoints[0], bundles[0]
	if !standalone(queue) || !standalone(queue2) || standalone(endpoint) || standalone(bundle) {
		t.Fatalf("standalone: queues %v %v, endpoint %v, bundle %v; want true, true, false, false",
			standalone(queue), standalone(queue2), standalone(endpoint), standalone(bundle))
	}
	for _, c := range []struct {
		name              string
		a, b, first, then *catalog.Form
	}{
		{"related first", endpoint, queue, queue, endpoint},
		{"artifact-addressed first", bundle, queue, queue, bundle},
		{"standalone first", queue, endpoint, queue, endpoint},
		{"neither standalone", endpoint, bundle, endpoint, bundle},
		{"neither standalone, the other order", bundle, endpoint, bundle, endpoint},
		{"both standalone", queue, queue2, queue, queue2},
		{"both standalone, the other order", queue2, queue, queue2, queue},
	} {
		first, then := createdFirst(c.a, c.b)
		if first != c.first || then != c.then {
			t.Errorf("%s: createdFirst(%s, %s) = %s, %s; want %s, %s", c.name,
				c.a.Ref, c.b.Ref, first.Ref, then.Ref, c.first.Ref, c.then.Ref)
		}
	}
}
