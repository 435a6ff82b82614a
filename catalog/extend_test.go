package catalog

import (
	"fmt"
	"github.com/takokit/takokit/catalog/model"
	"strings"
	"testing"

	"github.com/takokit/takokit/catalog/wire"
)

// Extend adds Forms and refuses an identity the catalog already holds, or Forms
// of another lane.
func TestExtendRefusesWhatTheCatalogHolds(t *testing.T) {
	base, err := Embedded()
	if err != nil {
		t.Fatal(err)
	}
	if _, err := Extend(base, base); err == nil || !strings.Contains(err.Error(), "is already in the catalog") {
		t.Fatalf("extending a catalog with itself: %v", err)
	}
	old, err := EmbeddedLane(wire.V1alpha3)
	if err != nil {
		t.Fatal(err)
	}
	if _, err := Extend(base, old); err == nil || !strings.Contains(err.Error(), "speak forms.takoform.com/v1alpha3") {
		t.Fatalf("extending with another lane's Forms: %v", err)
	}
}

// Extend refuses an Interface or a Binding the catalog does not carry, by
// name or at another digest, each named, all in one error.
func TestExtendRefusesForeignContracts(t *testing.T) {
	base := loadBase(t)
	iface, _ := base.Interface("example.store", "1.0.0")
	binding, _ := base.Binding("holder.store", "1.0.0")
	otherIface, digestIface := *iface, *iface
	otherIface.Ref.Name, digestIface.Ref.SchemaDigest = "example.other", zeroDig
	otherBinding, digestBinding := *binding, *binding
	otherBinding.Ref.Name, digestBinding.Ref.SchemaDigest = "holder.other", zeroDig
	extra := model.NewCatalog(base.LaneChoice(), nil, []*Interface{iface, &otherIface, &digestIface}, []*Binding{binding, &otherBinding, &digestBinding}, nil)
	_, err := Extend(base, extra)
	want := fmt.Sprintf("cannot extend the catalog: Interface %s is not the catalog's; Interface %s is not the catalog's; Binding %s is not the catalog's; Binding %s is not the catalog's",
		otherIface.Ref, digestIface.Ref, otherBinding.Ref, digestBinding.Ref)
	if err == nil || err.Error() != want {
		t.Errorf("Extend: %v\nwant %s", err, want)
	}
}

// EmbeddedLane refuses data that speaks another lane than the one asked for,
// and a lane the project carries no data of.
func TestEmbeddedLaneOfOtherData(t *testing.T) {
	posing := &wire.Lane{Name: wire.V1alpha3.Name, APIVersion: wire.DefaultLane.APIVersion, Status: wire.DefaultLane.Status}
	if _, err := EmbeddedLane(posing); err == nil || err.Error() != fmt.Sprintf("the embedded catalog data/%s speaks %s", posing.Name, wire.V1alpha3) {
		t.Errorf("data/%s asked for as another lane: %v", posing.Name, err)
	}
	none := &wire.Lane{Name: "v9", APIVersion: "forms.takoform.com/v9", Status: wire.DefaultLane.Status}
	if _, err := EmbeddedLane(none); err == nil || err.Error() != "the project carries no catalog of lane "+none.Describe() {
		t.Errorf("a lane without data: %v", err)
	}
}
