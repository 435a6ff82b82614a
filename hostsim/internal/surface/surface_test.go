package surface

import (
	"context"
	"encoding/json"
	"reflect"
	"strings"
	"testing"

	"github.com/takokit/takokit/catalog"
	"github.com/takokit/takokit/catalog/wire"
	"github.com/takokit/takokit/hostsim/internal/fault"
	"github.com/takokit/takokit/hostsim/internal/profile"
)

// surfaceOf is the surface of a built-in profile over the embedded catalog.
func surfaceOf(t *testing.T, name string) *Surface {
	t.Helper()
	cat, err := catalog.Embedded()
	if err != nil {
		t.Fatal(err)
	}
	p, err := profile.Load(name)
	if err != nil {
		t.Fatal(err)
	}
	return &Surface{Host: profile.Resolve(p, cat)}
}

func armed(name, value string) *fault.Set {
	return fault.Fixed(fault.Spec{Fault: name, Value: value})
}

func doc(t *testing.T, b []byte, e *wire.Error) map[string]any {
	t.Helper()
	if e != nil {
		t.Fatalf("refused: %s %s", e.Code, e.Message)
	}
	var m map[string]any
	if err := json.Unmarshal(b, &m); err != nil {
		t.Fatalf("answer %q: %v", b, err)
	}
	return m
}

// refused checks a refusal's code and that its message names what (a fragment).
func refused(t *testing.T, b []byte, e *wire.Error, code wire.Code, what string) {
	t.Helper()
	if e == nil || e.Code != code || !strings.Contains(e.Message, what) {
		t.Fatalf("answer %s, refusal %v; want %s naming %q", b, e, code, what)
	}
}

// roundTrip is v as the JSON an answer carries it.
func roundTrip(t *testing.T, v any) any {
	t.Helper()
	b, err := json.Marshal(v)
	if err != nil {
		t.Fatal(err)
	}
	var out any
	_ = json.Unmarshal(b, &out)
	return out
}

func TestDiscovery(t *testing.T) {
	s := surfaceOf(t, "full")
	d := doc(t, s.Discovery("http://127.0.0.1:9", nil), nil)
	api := "http://127.0.0.1:9" + wire.DefaultLane.APIRoot
	want := map[string]any{"api": api, "artifacts": api + "/artifacts", "operations": api + "/operations", "support": api + "/support"}
	if !reflect.DeepEqual(d["endpoints"], want) {
		t.Fatalf("endpoints %v, want %v", d["endpoints"], want)
	}
	features := d["features"].(map[string]any)
	for _, f := range []string{"service_forms", "exact_form_ref", "optimistic_concurrency", "idempotent_lifecycle", "operations",
		"artifact_upload", "support_profiles", "resource_form_transition"} {
		if features[f] != true {
			t.Errorf("feature %s is %v, want true", f, features[f])
		}
	}
	if len(features) != 8 {
		t.Errorf("features %v, want exactly the eight", features)
	}
	for value, gone := range map[string]string{"": "exact_form_ref", "operations": "operations"} {
		f := doc(t, s.Discovery("http://h", armed("discovery.omit-feature", value)), nil)["features"].(map[string]any)
		if _, ok := f[gone]; ok || len(f) != 7 {
			t.Errorf("discovery.omit-feature=%q: features %v, want all but %s", value, f, gone)
		}
	}
}

// formOf finds the installed Form of kind at version.
func formOf(t *testing.T, s *Surface, kind, version string) *catalog.Form {
	t.Helper()
	for _, f := range s.Host.Forms() {
		if f.Ref.Kind == kind && f.Ref.DefinitionVersion == version {
			return f
		}
	}
	t.Fatalf("%s %s is not installed", kind, version)
	return nil
}

// identityOf is the identity member of an availability or definition answer.
func identityOf(m map[string]any) (ref, pkg any) {
	id := m["identity"].(map[string]any)
	return id["formRef"], id["packageDigest"]
}

// The availability probe and the definition read answer the exact FormRef
// asked, never another version of its kind (formref.collapse does).
func TestExactFormRef(t *testing.T) {
	s := surfaceOf(t, "full")
	must := func(b []byte, e *wire.Error) map[string]any { return doc(t, b, e) }
	older, newer := formOf(t, s, "WorkerEndpoint", "0.1.0"), formOf(t, s, "WorkerEndpoint", "0.2.0")
	avail := func(f *catalog.Form, fs *fault.Set) map[string]any {
		return doc(t, s.Forms(f.Ref, f, fs), nil)["forms"].([]any)[0].(map[string]any)
	}
	a := avail(older, nil)
	if ref, pkg := identityOf(a); !reflect.DeepEqual(ref, roundTrip(t, older.Ref)) || pkg != older.PackageDigest {
		t.Fatalf("availability of %s answered %v %v", older.Ref, ref, pkg)
	}
	if a["activated"] != true || !reflect.DeepEqual(a["operations"], roundTrip(t, s.Host.Operations(older))) {
		t.Fatalf("availability %v", a)
	}
	if a := avail(older, armed("forms.unavailable", "")); a["activated"] != false {
		t.Fatalf("forms.unavailable: activated %v", a["activated"])
	}
	for _, f := range []*catalog.Form{older, newer} {
		if ref, _ := identityOf(avail(f, armed("formref.collapse", ""))); !reflect.DeepEqual(ref, roundTrip(t, newer.Ref)) {
			t.Fatalf("formref.collapse: %s answered as %v, want the newest %s", f.Ref, ref, newer.Ref)
		}
	}

	for _, f := range []*catalog.Form{older, newer} {
		d := must(s.FormDefinition(f.Ref, f, f.Ref.APIVersion, f.Ref.Kind, armed("formref.collapse", "")))
		var schema any
		_ = json.Unmarshal(newer.DesiredJSON, &schema)
		if ref, _ := identityOf(d); !reflect.DeepEqual(ref, roundTrip(t, newer.Ref)) || !reflect.DeepEqual(d["desiredSchema"], schema) {
			t.Fatalf("formref.collapse: the definition of %s answered as %v, want the newest %s and its schema", f.Ref, ref, newer.Ref)
		}
	}

	d := must(s.FormDefinition(older.Ref, older, older.Ref.APIVersion, older.Ref.Kind, nil))
	if ref, pkg := identityOf(d); !reflect.DeepEqual(ref, roundTrip(t, older.Ref)) || pkg != older.PackageDigest {
		t.Fatalf("definition of %s answered %v %v", older.Ref, ref, pkg)
	}
	var schema any
	_ = json.Unmarshal(older.DesiredJSON, &schema)
	if !reflect.DeepEqual(d["desiredSchema"], schema) || d["displayName"] != older.Title || d["description"] != older.Description {
		t.Fatalf("definition of %s: %v", older.Ref, d)
	}
	for _, path := range [][2]string{{"other.example.dev/v1", older.Ref.Kind}, {older.Ref.APIVersion, "Other"}} {
		b, e := s.FormDefinition(older.Ref, older, path[0], path[1], nil)
		refused(t, b, e, wire.CodeInvalidArgument, "the path names "+path[0]+" "+path[1])
	}
	d = must(s.FormDefinition(older.Ref, older, older.Ref.APIVersion, older.Ref.Kind, armed("definition.drift", "")))
	if d["desiredSchema"].(map[string]any)["$comment"] == nil {
		t.Fatal("definition.drift left the desiredSchema as installed")
	}

	// A definition without a title, description or package digest has none of those members.
	bare := *older
	bare.Title, bare.Description, bare.PackageDigest = "", "", ""
	d = must(s.FormDefinition(bare.Ref, &bare, bare.Ref.APIVersion, bare.Ref.Kind, nil))
	if _, pkg := identityOf(d); pkg != nil || d["displayName"] != nil || d["description"] != nil {
		t.Fatalf("a bare definition: %v", d)
	}
}

// formref.collapse fires only where it changes the answer: asked about the
// newest version it records no firing and, armed once, is still armed for
// the older version asked next.
func TestExactFormRefCollapseFiresOnlyOnAnOlderVersion(t *testing.T) {
	s := surfaceOf(t, "full")
	older, newer := formOf(t, s, "WorkerEndpoint", "0.1.0"), formOf(t, s, "WorkerEndpoint", "0.2.0")
	fs := fault.Fixed(fault.Spec{Fault: "formref.collapse", Count: 1})
	if _, e := s.FormDefinition(newer.Ref, newer, newer.Ref.APIVersion, newer.Ref.Kind, fs); e != nil || len(fs.Firings()) != 0 {
		t.Fatalf("the newest version's definition: refusal %v, firings %v; want an answer and no firing", e, fs.Firings())
	}
	a := doc(t, s.Forms(older.Ref, older, fs), nil)["forms"].([]any)[0].(map[string]any)
	if ref, _ := identityOf(a); !reflect.DeepEqual(ref, roundTrip(t, newer.Ref)) || !reflect.DeepEqual(fs.Firings(), []string{"formref.collapse"}) {
		t.Fatalf("then %s answered as %v with firings %v; want the newest %s and one firing", older.Ref, ref, fs.Firings(), newer.Ref)
	}
}

func TestSupportRoutes(t *testing.T) {
	ctx := context.Background()
	s := surfaceOf(t, "full")
	must := func(b []byte, e *wire.Error) map[string]any { return doc(t, b, e) }
	forms := s.Host.Forms()
	list := must(s.SupportForms(ctx, nil))["profiles"].([]any)
	if len(list) != len(forms) {
		t.Fatalf("listed %d profiles for %d installed Forms", len(list), len(forms))
	}
	for i, f := range forms {
		if !reflect.DeepEqual(list[i], roundTrip(t, s.Host.FormSupport(f))) {
			t.Fatalf("listed profile %d: %v, want %v", i, list[i], s.Host.FormSupport(f))
		}
		one := must(s.SupportForm(ctx, f.Ref.APIVersion, f.Ref.Kind, f.Ref.DefinitionVersion, nil))
		if !reflect.DeepEqual(one, list[i]) {
			t.Fatalf("%s: the route answers %v, the list %v", f.Ref, one, list[i])
		}
	}
	b, e := s.SupportForm(ctx, "nothing.example.test/v1", "Nothing", "1.0.0", nil)
	refused(t, b, e, wire.CodeFormUnknown, "installs no nothing.example.test/v1 Nothing 1.0.0")
	b, e = s.SupportForm(ctx, "nothing.example.test/v1", "Nothing", "1.0.0", armed("support.refuse-code", ""))
	refused(t, b, e, wire.CodeResourceNotFound, "installs no")

	first, second := forms[0], forms[len(forms)-1]
	b, e = s.SupportForm(ctx, first.Ref.APIVersion, first.Ref.Kind, first.Ref.DefinitionVersion, armed("support.omit-profile", ""))
	refused(t, b, e, wire.CodeFormUnknown, "withholds the support profile")
	must(s.SupportForm(ctx, second.Ref.APIVersion, second.Ref.Kind, second.Ref.DefinitionVersion, armed("support.omit-profile", "")))
	b, e = s.SupportForm(ctx, second.Ref.APIVersion, second.Ref.Kind, second.Ref.DefinitionVersion, armed("support.omit-profile", second.Ref.Kind))
	refused(t, b, e, wire.CodeFormUnknown, "withholds the support profile")
	must(s.SupportForm(ctx, first.Ref.APIVersion, first.Ref.Kind, first.Ref.DefinitionVersion, armed("support.omit-profile", second.Ref.Kind)))

	for _, c := range []struct {
		what, member string
		ref          any
		digest       string
		route        func(name, version string, fs *fault.Set) ([]byte, *wire.Error)
		other        [3]string // name, version, installed digest
		fault        string
	}{
		{"interface", "interfaceRef", s.Host.Interfaces()[0].Ref, s.Host.Interfaces()[0].Ref.SchemaDigest,
			func(n, v string, fs *fault.Set) ([]byte, *wire.Error) { return s.SupportInterface(ctx, n, v, fs) },
			[3]string{s.Host.Interfaces()[1].Ref.Name, s.Host.Interfaces()[1].Ref.Version, s.Host.Interfaces()[1].Ref.SchemaDigest}, "support.interface-digest"},
		{"binding", "bindingRef", s.Host.Bindings()[0].Ref, s.Host.Bindings()[0].Ref.SchemaDigest,
			func(n, v string, fs *fault.Set) ([]byte, *wire.Error) { return s.SupportBinding(ctx, n, v, fs) },
			[3]string{s.Host.Bindings()[1].Ref.Name, s.Host.Bindings()[1].Ref.Version, s.Host.Bindings()[1].Ref.SchemaDigest}, "support.binding-digest"},
	} {
		ref := roundTrip(t, c.ref).(map[string]any)
		name, version := ref["name"].(string), ref["version"].(string)
		d := must(c.route(name, version, nil))
		if !reflect.DeepEqual(d[c.member], ref) || d["kind"] == nil || d["price"] != nil {
			t.Fatalf("%s %s: %v", c.what, name, d)
		}
		b, e := c.route("nothing-here", "1.0.0", nil)
		refused(t, b, e, wire.CodeResourceNotFound, "does not implement "+c.what+" nothing-here@1.0.0")
		b, e = c.route("nothing-here", "1.0.0", armed("support.refuse-code", ""))
		refused(t, b, e, wire.CodeFormUnknown, "does not implement "+c.what)
		for _, v := range []string{"", name} {
			got := must(c.route(name, version, armed(c.fault, v)))[c.member].(map[string]any)["schemaDigest"].(string)
			if got == c.digest || !wire.ValidDigest(got) {
				t.Fatalf("%s=%q: %s answered %s (installed %s), want another well-formed digest", c.fault, v, name, got, c.digest)
			}
		}
		if got := must(c.route(c.other[0], c.other[1], armed(c.fault, name)))[c.member].(map[string]any)["schemaDigest"]; got != c.other[2] {
			t.Fatalf("%s=%s changed %s too: %v", c.fault, name, c.other[0], got)
		}
		if must(c.route(name, version, armed("support.commercial", "")))["price"] == nil {
			t.Fatalf("support.commercial: the %s profile carries no price", c.what)
		}
	}
	if must(s.SupportForms(ctx, armed("support.commercial", "")))["profiles"].([]any)[0].(map[string]any)["price"] == nil {
		t.Fatal("support.commercial: the listed profiles carry no price")
	}
}

// A host whose support is unavailable answers backend_unavailable on every
// support route; one that is slow still answers once its caller gives up.
func TestSupportModes(t *testing.T) {
	ctx := context.Background()
	s := surfaceOf(t, "unreadable-support")
	f := s.Host.Forms()[0]
	i, b := s.Host.Interfaces()[0].Ref, s.Host.Bindings()[0].Ref
	for name, route := range map[string]func() ([]byte, *wire.Error){
		"forms": func() ([]byte, *wire.Error) { return s.SupportForms(ctx, nil) },
		"form": func() ([]byte, *wire.Error) {
			return s.SupportForm(ctx, f.Ref.APIVersion, f.Ref.Kind, f.Ref.DefinitionVersion, nil)
		},
		"interface": func() ([]byte, *wire.Error) { return s.SupportInterface(ctx, i.Name, i.Version, nil) },
		"binding":   func() ([]byte, *wire.Error) { return s.SupportBinding(ctx, b.Name, b.Version, nil) },
	} {
		body, e := route()
		refused(t, body, e, wire.CodeBackendUnavailable, `support profiles are unavailable on this host (profile "unreadable-support")`)
		if e.Status() != 503 || !e.Retryable {
			t.Fatalf("%s: %d retryable %v, want a retryable 503", name, e.Status(), e.Retryable)
		}
	}
	p, err := profile.Parse("slow", []byte(`{"name": "slow", "extends": "full", "support": "slow:1h"}`))
	if err != nil {
		t.Fatal(err)
	}
	must := func(b []byte, e *wire.Error) map[string]any { return doc(t, b, e) }
	slow := &Surface{Host: profile.Resolve(p, s.Host.Cat)}
	gone, cancel := context.WithCancel(ctx)
	cancel()
	if list := must(slow.SupportForms(gone, nil))["profiles"].([]any); len(list) != len(slow.Host.Forms()) {
		t.Fatalf("a slow host listed %d profiles", len(list))
	}
}

// kv-only answers only what it installs and implements.
func TestSupportOfANarrowedProfile(t *testing.T) {
	ctx := context.Background()
	s := surfaceOf(t, "kv-only")
	for _, f := range s.Host.Cat.Forms() {
		_, installed := s.Host.Form(f.Ref)
		b, e := s.SupportForm(ctx, f.Ref.APIVersion, f.Ref.Kind, f.Ref.DefinitionVersion, nil)
		if installed {
			doc(t, b, e)
		} else {
			refused(t, b, e, wire.CodeFormUnknown, `profile "kv-only"`)
		}
	}
	b, e := s.SupportInterface(ctx, "edge.objects", "1.0.0", nil)
	refused(t, b, e, wire.CodeResourceNotFound, "does not implement interface edge.objects@1.0.0")
	b, e = s.SupportBinding(ctx, "module-worker.object-bucket", "1.0.0", nil)
	refused(t, b, e, wire.CodeResourceNotFound, "does not implement binding module-worker.object-bucket@1.0.0")
}

// support.compatibility-date and support.compatibility-flags add a runtime
// compatibility statement to the FormSupport profile of the kind their value
// names (every Form without one), on the route and in the list alike, keeping
// what the profile states and never changing the host's own profile.
func TestSupportCompatibilityFaults(t *testing.T) {
	ctx := context.Background()
	s := surfaceOf(t, "tight-limits")
	var narrowed *catalog.Form // a Form whose profile already states an enum
	for _, f := range s.Host.Forms() {
		if _, ok := s.Host.FormSupport(f)["supportedEnums"]; ok {
			narrowed = f
			break
		}
	}
	if narrowed == nil {
		t.Fatal("tight-limits narrows no enum: the test needs a profile stating one")
	}
	other := s.Host.Forms()[0]
	if other == narrowed {
		other = s.Host.Forms()[1]
	}
	before := roundTrip(t, s.Host.FormSupport(narrowed)).(map[string]any)
	route := func(f *catalog.Form, fs *fault.Set) map[string]any {
		b, e := s.SupportForm(ctx, f.Ref.APIVersion, f.Ref.Kind, f.Ref.DefinitionVersion, fs)
		return doc(t, b, e)
	}
	for _, c := range []struct{ fault, member, key string }{
		{"support.compatibility-date", "supportedRanges", "compatibilityDate"},
		{"support.compatibility-flags", "supportedEnums", "compatibilityFlags"},
	} {
		for _, v := range []string{"", narrowed.Ref.Kind} {
			got := route(narrowed, armed(c.fault, v))
			m, _ := got[c.member].(map[string]any)
			if m[c.key] == nil {
				t.Fatalf("%s=%q: the %s profile has %s %v, want %s in it", c.fault, v, narrowed.Ref.Kind, c.member, got[c.member], c.key)
			}
			own, _ := before[c.member].(map[string]any)
			for k, want := range own {
				if !reflect.DeepEqual(m[k], want) {
					t.Fatalf("%s: %s.%s is %v, want the profile's own %v kept", c.fault, c.member, k, m[k], want)
				}
			}
		}
		if m, _ := route(other, armed(c.fault, narrowed.Ref.Kind))[c.member].(map[string]any); m[c.key] != nil {
			t.Fatalf("%s=%s changed %s too", c.fault, narrowed.Ref.Kind, other.Ref.Kind)
		}
		b, e := s.SupportForms(ctx, armed(c.fault, ""))
		listed := doc(t, b, e)["profiles"].([]any)
		for _, p := range listed {
			if m, _ := p.(map[string]any)[c.member].(map[string]any); m[c.key] == nil {
				t.Fatalf("%s: a listed profile lacks %s.%s: %v", c.fault, c.member, c.key, p)
			}
		}
	}
	if after := roundTrip(t, s.Host.FormSupport(narrowed)); !reflect.DeepEqual(after, before) {
		t.Fatalf("the faults changed the host's own profile: %v, was %v", after, before)
	}
	if got := route(narrowed, nil); !reflect.DeepEqual(got, before) {
		t.Fatalf("unarmed, the profile is %v, want %v", got, before)
	}
}
