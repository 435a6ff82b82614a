package catalog

import (
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
