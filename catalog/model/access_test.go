package model

import (
	"testing"

	"github.com/takokit/takokit/catalog/wire"
)

// TestKindAndFormLookups: a kind without versions creates under none, Version finds
// exactly the version asked for, the canonical fixture is found among others, and
// HasOutputs follows the outputSchema.
func TestKindAndFormLookups(t *testing.T) {
	if (&Kind{}).DefaultCreate() != nil {
		t.Error("a kind without versions has a default create version")
	}
	a := &Form{Ref: wire.FormRef{Kind: "K", DefinitionVersion: "1.0.0"}}
	b := &Form{Ref: wire.FormRef{Kind: "K", DefinitionVersion: "2.0.0"}, OutputJSON: []byte(`{}`),
		Fixtures: []Fixture{{Name: "small"}, {Name: "canonical", Desired: []byte(`{"n":1}`)}, {Name: "large"}}}
	k := &Kind{Versions: []*Form{a, b}}
	for _, c := range []struct {
		v    string
		want *Form
	}{{"1.0.0", a}, {"2.0.0", b}, {"3.0.0", nil}} {
		if got, ok := k.Version(c.v); got != c.want || ok != (c.want != nil) {
			t.Errorf("Version(%s) = %v, %v; want %v", c.v, got, ok, c.want)
		}
	}
	if fx, _, ok := b.CanonicalFixture(); !ok || fx.Name != "canonical" {
		t.Errorf("CanonicalFixture = %q, %v; want canonical", fx.Name, ok)
	}
	if _, why, ok := a.CanonicalFixture(); ok || why == "" {
		t.Error("a Form without fixtures has a canonical fixture")
	}
	if a.HasOutputs() || !b.HasOutputs() {
		t.Error("HasOutputs does not follow the outputSchema")
	}
}

// TestObjectMemberTakesExactlyTwoTokens: only "/object/member" of an object field names
// a member; a pointer without its leading slash, with another depth, or through a
// field that is missing or not an object names none.
func TestObjectMemberTakesExactlyTwoTokens(t *testing.T) {
	f := &Form{Fields: []Field{
		{Wire: "assets", Kind: FieldObject, Members: []Field{{Wire: "bundle"}, {Wire: "a/b"}}},
		{Wire: "name", Kind: FieldString, Members: []Field{{Wire: "bundle"}}},
	}}
	for ptr, want := range map[string]string{
		"/assets/bundle": "bundle", "/assets/a~1b": "a/b",
		"assets/bundle": "", "/assets": "", "/assets/bundle/x": "", "/assets/none": "",
		"/nope/bundle": "", "/name/bundle": "",
	} {
		got := ""
		if m := f.ObjectMember(ptr); m != nil {
			got = m.Wire
		}
		if got != want {
			t.Errorf("ObjectMember(%q) = %q, want %q", ptr, got, want)
		}
	}
}

// TestCatalogLaneIsNeverNil: a catalog nothing chose a lane for speaks the default
// lane, and says so in its LaneChoice.
func TestCatalogLaneIsNeverNil(t *testing.T) {
	c := NewCatalog(LaneChoice{Source: "the default"}, nil, nil, nil, nil)
	if c.Lane() != wire.DefaultLane {
		t.Errorf("Lane() = %v, want the default lane", c.Lane())
	}
	if ch := c.LaneChoice(); ch.Lane != wire.DefaultLane || ch.Source != "the default" {
		t.Errorf("LaneChoice() = %+v, want the default lane from the default", ch)
	}
}
