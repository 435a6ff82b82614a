package rules

import (
	"strings"
	"testing"

	"github.com/takokit/takokit/catalog"
	"github.com/takokit/takokit/catalog/wire"
)

type fakeContracts struct {
	bindings map[wire.BindingRef]*catalog.Binding
	noIfaces map[wire.InterfaceRef]bool
}

func (f fakeContracts) InstalledBinding(r wire.BindingRef) (*catalog.Binding, bool) {
	b, ok := f.bindings[r]
	return b, ok
}
func (f fakeContracts) ImplementsInterface(r wire.InterfaceRef) bool { return !f.noIfaces[r] }

func storeBinding() *catalog.Binding {
	return &catalog.Binding{Ref: bStore, SourceRole: "revision", TargetInterface: ifStore,
		AllowedTargetForms: []catalog.KindName{{APIVersion: grp, Kind: "Store"}}, NameGrammar: `^[A-Za-z_$][A-Za-z0-9_$]*$`}
}

func host() fakeContracts {
	return fakeContracts{bindings: map[wire.BindingRef]*catalog.Binding{bStore: storeBinding()}, noIfaces: map[wire.InterfaceRef]bool{}}
}

func refsOf(t *testing.T, spec map[string]any) []Reference {
	t.Helper()
	refs, r := ExtractReferences(consumerForm(), spec)
	if r != nil {
		t.Fatal(r)
	}
	return refs
}

func storeTarget() Target {
	return Target{Found: true, APIVersion: grp, Kind: "Store", Name: "cache", UID: "u-store", FormRef: storeRef, Provided: []wire.InterfaceRef{ifStore}}
}

func TestVerifyReferenceAccepts(t *testing.T) {
	refs := refsOf(t, map[string]any{
		"owner":  node("Owner", "api"),
		"stores": []any{map[string]any{"name": "CACHE", "resource": node("Store", "cache")}},
		"parts":  []any{map[string]any{"weight": float64(1), "part": node("Part", "v1")}},
	})
	targets := []Target{
		{Found: true, APIVersion: grp, Kind: "Owner", Name: "api", UID: "u-owner", FormRef: ownerRef, Provided: []wire.InterfaceRef{ifOwner}},
		storeTarget(),
		{Found: true, APIVersion: grp, Kind: "Part", Name: "v1", UID: "u-part", FormRef: partRef},
	}
	for i, ref := range refs {
		if r := VerifyReference(consumerForm(), ref, targets[i], host()); r != nil {
			t.Errorf("%s refused: %v", ref.Pointer, r)
		}
	}
	pin := PinOf(refs[1], targets[1])
	want := Pin{Pointer: "/stores/0/resource", Relation: "/stores/*/resource", TargetAPIVersion: grp, TargetKind: "Store",
		TargetName: "cache", TargetUID: "u-store", TargetFormRef: storeRef, BindingRef: &bStore}
	if pin.Pointer != want.Pointer || pin.Relation != want.Relation || pin.TargetUID != want.TargetUID ||
		pin.TargetFormRef != want.TargetFormRef || pin.BindingRef == nil || *pin.BindingRef != bStore || pin.TargetName != "cache" {
		t.Errorf("pin = %+v, want %+v", pin, want)
	}
}

// TestVerifyReferenceRefusals walks docs/protocol.md#relations in order; each case breaks one fact (and the
// "first failure wins" cases break two, expecting the earlier check).
func TestVerifyReferenceRefusals(t *testing.T) {
	storeSpec := func(name string) map[string]any {
		return map[string]any{"owner": node("Owner", "api"), "stores": []any{map[string]any{"name": name, "resource": node("Store", "cache")}}}
	}
	type tc struct {
		name   string
		spec   map[string]any
		refIdx int
		form   func(*catalog.Form)
		target func(*Target)
		host   func(*fakeContracts)
		code   wire.Code
		ptr    string
		says   []string
	}
	cases := []tc{
		{name: "target missing", spec: storeSpec("CACHE"), refIdx: 1, target: func(t *Target) { *t = Target{} },
			code: wire.CodeResourceNotFound, ptr: "/stores/0/resource", says: []string{`Store "cache"`, "does not exist"}},
		{name: "missing wins over a wrong binding", spec: storeSpec("CACHE"), refIdx: 1, target: func(t *Target) { *t = Target{} },
			host: func(h *fakeContracts) { h.bindings = nil }, code: wire.CodeResourceNotFound, ptr: "/stores/0/resource"},
		{name: "resolved kind differs", spec: storeSpec("CACHE"), refIdx: 1, target: func(t *Target) { t.Kind = "Other" },
			code: wire.CodeInvalidArgument, ptr: "/stores/0/resource", says: []string{"accepts only", "Other"}},
		{name: "binding check 1 not accepted", spec: storeSpec("CACHE"), refIdx: 1, form: func(f *catalog.Form) { f.Accepted = nil },
			host: func(h *fakeContracts) { h.bindings = nil },
			code: wire.CodeInvalidArgument, ptr: "/stores/0/resource", says: []string{"binding check 1", `binding "consumer.store" (it accepts none)`}},
		{name: "binding check 1 names the accepted bindings", spec: storeSpec("CACHE"), refIdx: 1,
			form: func(f *catalog.Form) {
				f.Accepted = []wire.BindingRef{{Name: "consumer.other", Version: "1.0.0"}, {Name: "consumer.third", Version: "1.0.0"}}
			},
			code: wire.CodeInvalidArgument, ptr: "/stores/0/resource", says: []string{"binding check 1", "(it accepts consumer.other, consumer.third)"}},
		{name: "binding check 2 not installed", spec: storeSpec("CACHE"), refIdx: 1, host: func(h *fakeContracts) { h.bindings = nil },
			form: func(f *catalog.Form) { f.Role = "identity" },
			code: wire.CodeUnsupportedCapability, ptr: "/stores/0/resource", says: []string{"binding check 2", "does not install"}},
		{name: "binding check 3 role", spec: storeSpec("CACHE"), refIdx: 1, form: func(f *catalog.Form) { f.Role = "identity" },
			target: func(t *Target) { t.Kind = "Store"; t.Provided = nil },
			code:   wire.CodeInvalidArgument, ptr: "/stores/0/resource", says: []string{"binding check 3", `role "revision"`, `role "identity"`}},
		{name: "binding check 4 allowed targets", spec: storeSpec("CACHE"), refIdx: 1,
			host: func(h *fakeContracts) {
				h.bindings[bStore].AllowedTargetForms = []catalog.KindName{{APIVersion: grp, Kind: "Vault"}}
			},
			target: func(t *Target) { t.Provided = nil },
			code:   wire.CodeInvalidArgument, ptr: "/stores/0/resource", says: []string{"binding check 4", "Vault"}},
		{name: "binding check 5 target interface", spec: storeSpec("CACHE"), refIdx: 1,
			host: func(h *fakeContracts) { h.bindings[bStore].TargetInterface = ifOwner },
			code: wire.CodeInvalidArgument, ptr: "/stores/0/resource", says: []string{"binding check 5", "owner.runtime"}},
		{name: "binding check 7 node contract", spec: storeSpec("CACHE"), refIdx: 1,
			host:   func(h *fakeContracts) { h.bindings[bStore].TargetInterface = ifOwner },
			target: func(t *Target) { t.Provided = []wire.InterfaceRef{ifOwner} },
			code:   wire.CodeInvalidArgument, ptr: "/stores/0/resource", says: []string{"binding check 7", "store.kv"}},
		{name: "interface provided but not implemented", spec: storeSpec("CACHE"), refIdx: 1,
			host: func(h *fakeContracts) { h.noIfaces[ifStore] = true },
			code: wire.CodeUnsupportedCapability, ptr: "/stores/0/resource", says: []string{"does not implement", "store.kv"}},
		{name: "binding name grammar", spec: storeSpec("9bad"), refIdx: 1,
			code: wire.CodeInvalidArgument, ptr: "/stores/0/name", says: []string{`"9bad"`, "grammar"}},
		{name: "binding to a not-ready target", spec: storeSpec("CACHE"), refIdx: 1, target: func(t *Target) { t.NotReady = "no-active-deployment" },
			code: wire.CodeUnsupportedCapability, ptr: "/stores/0/resource", says: []string{"not ready", "no-active-deployment"}},
		{name: "non-binding interface missing", spec: storeSpec("CACHE"), refIdx: 0,
			target: func(t *Target) {
				*t = Target{Found: true, APIVersion: grp, Kind: "Owner", Name: "api", FormRef: ownerRef}
			},
			code: wire.CodeInvalidArgument, ptr: "/owner", says: []string{"contract of relation /owner", "owner.runtime", ownerRef.SchemaDigest}},
		{name: "a relation without a contract takes any target of its kind", spec: storeSpec("CACHE"), refIdx: 0,
			form: func(f *catalog.Form) { f.Relations[0].RequiredInterface = nil },
			target: func(t *Target) {
				*t = Target{Found: true, APIVersion: grp, Kind: "Owner", Name: "api", FormRef: ownerRef}
			}},
		{name: "non-binding readiness is not gated", spec: storeSpec("CACHE"), refIdx: 0,
			target: func(t *Target) {
				*t = Target{Found: true, APIVersion: grp, Kind: "Owner", Name: "api", FormRef: ownerRef, Provided: []wire.InterfaceRef{ifOwner}, NotReady: "x"}
			}},
	}
	parts := map[string]any{"owner": node("Owner", "api"), "parts": []any{map[string]any{"weight": float64(1), "part": node("Part", "v1")}}}
	cases = append(cases,
		tc{name: "formrefs mismatch", spec: parts, refIdx: 1,
			target: func(t *Target) {
				*t = Target{Found: true, APIVersion: grp, Kind: "Part", Name: "v1", FormRef: partRef2}
			},
			code: wire.CodeInvalidArgument, ptr: "/parts/0/part", says: []string{"recorded under " + refText(partRef), "is recorded under " + refText(partRef2)}},
		tc{name: "formrefs match", spec: parts, refIdx: 1,
			target: func(t *Target) { *t = Target{Found: true, APIVersion: grp, Kind: "Part", Name: "v1", FormRef: partRef} }},
	)
	for _, c := range cases {
		t.Run(c.name, func(t *testing.T) {
			form := consumerForm()
			if c.form != nil {
				c.form(form)
			}
			refs, r := ExtractReferences(form, c.spec)
			if r != nil {
				t.Fatal(r)
			}
			target := storeTarget()
			if c.target != nil {
				c.target(&target)
			}
			h := host()
			if c.host != nil {
				c.host(&h)
			}
			got := VerifyReference(form, refs[c.refIdx], target, h)
			if c.code == "" {
				if got != nil {
					t.Fatalf("refused: %v", got)
				}
				return
			}
			if got == nil {
				t.Fatalf("accepted, want %s", c.code)
			}
			if got.Code != c.code || got.Pointer != c.ptr || !strings.HasPrefix(got.Message, c.ptr+":") {
				t.Fatalf("refusal = %+v, want %s at %s", got, c.code, c.ptr)
			}
			for _, s := range c.says {
				if !strings.Contains(got.Message, s) {
					t.Errorf("message %q lacks %q", got.Message, s)
				}
			}
		})
	}
}
