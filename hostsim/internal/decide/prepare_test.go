package decide

import (
	"testing"
	"time"

	"github.com/takokit/takokit/catalog/wire"
)

func TestPrepareTarget(t *testing.T) {
	for _, tc := range []struct {
		name     string
		cur      *storeResource
		fence    int64
		fs       []Fault
		uid, gen string
		want     wire.Code
	}{
		{name: "a create binds the create markers", uid: "", gen: "0"},
		{name: "a fence naming nothing", fence: 1, want: wire.CodeResourceNotFound},
		{name: "another version counts as absent", cur: func() *storeResource { r := current(); r.DefVersion = "9.9.9"; return r }(), gen: "0"},
		{name: "an existing resource binds uid and generation", cur: current(), fence: 3, uid: "u-1", gen: "3"},
		{name: "an existing resource needs the fence", cur: current(), want: wire.CodeInvalidArgument},
		{name: "prepare.no-fence", cur: current(), fs: []Fault{PrepareNoFence}, uid: "u-1", gen: "3"},
		{name: "a stale fence", cur: current(), fence: 2, want: wire.CodeGenerationConflict},
		{name: "a stale fence, fence.ignore", cur: current(), fence: 2, fs: []Fault{FenceIgnore}, uid: "u-1", gen: "3"},
	} {
		t.Run(tc.name, func(t *testing.T) {
			uid, gen, e := PrepareTarget(tc.cur, refA, tc.fence, "Queue \"orders\"", armed(tc.fs...))
			if codeOf(e) != tc.want || e == nil && (uid != tc.uid || gen != tc.gen) {
				t.Fatalf("got (%q, %q, %v); want (%q, %q, %q)", uid, gen, e, tc.uid, tc.gen, tc.want)
			}
		})
	}
}

func TestCheckPrepareSpend(t *testing.T) {
	now := time.Unix(1_000_000, 0)
	g := gated(`{"a":1}`)
	create := &Mutation{Tenant: "t", Space: "s", Name: "orders", Ref: refA, IfNoneMatch: true}
	create.PrepareDigest = PrepareBinding(g.Digest, refA, "orders", "t", "s", "", "0")
	update := &Mutation{Tenant: "t", Space: "s", Name: "orders", Ref: refA, Fence: 3}
	update.PrepareDigest = PrepareBinding(g.Digest, refA, "orders", "t", "s", "u-1", "3")
	fresh := Minted{Found: true, At: now.Add(-time.Minute).Unix()}
	for _, tc := range []struct {
		name   string
		m      *Mutation
		cur    *storeResource
		tenant string
		minted Minted
		fs     []Fault
		ok     bool
	}{
		{name: "a create spends its binding", m: create, tenant: "t", minted: fresh, ok: true},
		{name: "an update spends its binding", m: update, cur: current(), tenant: "t", minted: fresh, ok: true},
		{name: "a create binding does not bind the update", m: &Mutation{Tenant: "t", Space: "s", Name: "orders", Ref: refA, Fence: 3,
			PrepareDigest: create.PrepareDigest}, cur: current(), tenant: "t", minted: fresh},
		{name: "another tenant's digest", m: create, tenant: "u", minted: fresh},
		{name: "prepare.unbound accepts any minted digest", m: create, tenant: "u", minted: fresh, fs: []Fault{PrepareUnbound}, ok: true},
		{name: "never minted", m: create, tenant: "t", minted: Minted{}},
		{name: "minted too long ago", m: create, tenant: "t", minted: Minted{Found: true, At: now.Add(-16 * time.Minute).Unix()}},
		{name: "minted exactly its life ago", m: create, tenant: "t", minted: Minted{Found: true, At: now.Add(-15 * time.Minute).Unix()}, ok: true},
		// create.overwrite lets a create reach step 14 with the name taken: it
		// still spends the create's binding, never the holder's uid and generation
		{name: "a create over a taken name binds the create markers", m: create, cur: current(), tenant: "t", minted: fresh, ok: true},
		{name: "the holder's binding does not bind a create", m: &Mutation{Tenant: "t", Space: "s", Name: "orders", Ref: refA, IfNoneMatch: true,
			PrepareDigest: update.PrepareDigest}, cur: current(), tenant: "t", minted: fresh},
	} {
		t.Run(tc.name, func(t *testing.T) {
			e := CheckPrepareSpend(tc.m, tc.cur, g, tc.tenant, tc.minted, now, 15*time.Minute, armed(tc.fs...))
			if (e == nil) != tc.ok {
				t.Fatalf("got %v, want ok=%v", e, tc.ok)
			}
		})
	}
	if PrepareTenant("t", armed(PrepareHostWide)) != "" || PrepareTenant("t", nil) != "t" {
		t.Fatal("PrepareTenant")
	}
}

// The binding written directly equals its general canonical form, and a
// value that needs an escape takes the general form.
func TestPrepareBindingIsTheCanonicalDigest(t *testing.T) {
	ref := wire.FormRef{APIVersion: "edge.forms.takokit.dev/v1alpha1", Kind: "EdgeKVNamespace", DefinitionVersion: "0.1.0",
		SchemaDigest: "sha256:9d43b1aab140d6127e905be4a4d40e29840bc5bc2303b98d671c08b4108d96dd"}
	for _, space := range []string{"prod", "é space", `a"b`, `back\slash`, "tab\there", "\x7f", "\u2028", "\xff"} {
		want, _ := wire.DigestValue(map[string]string{
			"plan": "takokit-hostsim/v1", "specDigest": wire.EmptySpecDigest, "group": ref.APIVersion, "kind": ref.Kind,
			"definitionVersion": ref.DefinitionVersion, "schemaDigest": ref.SchemaDigest, "name": "orders",
			"tenant": "tenant-a", "space": space, "uid": "u-1", "generation": "3",
		})
		if got := PrepareBinding(wire.EmptySpecDigest, ref, "orders", "tenant-a", space, "u-1", "3"); got != want {
			t.Errorf("space %q: binding %s, canonical %s", space, got, want)
		}
	}
}

// The binding is written directly, in one allocation, whenever no value needs
// an escape (a space id with a space, the first and last visible ASCII
// included), and those bytes are its JCS form; a value that needs an escape
// takes the general form.
func TestPlainBindingIsTheJCSForm(t *testing.T) {
	for _, tc := range []struct {
		value string
		plain bool
	}{
		{"prod", true}, {"my space", true}, {"!~", true}, {"é space", true}, {"\u2028", true},
		{`a"b`, false}, {`back\slash`, false}, {"tab\there", false}, {"\x1f", false}, {"\xff", false},
	} {
		vals := [len(bindingKeys)]string{"0.1.0", "3", "edge.example.dev/v1", "Queue", "orders", bindingPlan,
			refA.SchemaDigest, tc.value, wire.EmptySpecDigest, "t", "u-1"}
		b, ok := plainBinding(&vals)
		if ok != tc.plain {
			t.Fatalf("%q: written directly %v, want %v", tc.value, ok, tc.plain)
		}
		if !ok {
			continue
		}
		m := map[string]string{}
		for i, k := range bindingKeys {
			m[k] = vals[i]
		}
		want, err := wire.CanonicalValue(m)
		if err != nil || string(b) != string(want) {
			t.Fatalf("%q: direct bytes %s, JCS %s (%v)", tc.value, b, want, err)
		}
		if n := testing.AllocsPerRun(10, func() { plainBinding(&vals) }); n != 1 {
			t.Fatalf("%q: %v allocations, want the one the size estimate makes", tc.value, n)
		}
	}
}
