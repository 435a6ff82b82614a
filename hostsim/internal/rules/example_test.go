package rules_test

import (
	"fmt"
	"strings"

	"github.com/takokit/takokit/catalog"
	"github.com/takokit/takokit/catalog/wire"
	"github.com/takokit/takokit/hostsim/internal/rules"
)

// noContracts implements nothing beyond what the catalog model says (no bindings here).
type noContracts struct{}

func (noContracts) InstalledBinding(wire.BindingRef) (*catalog.Binding, bool) { return nil, false }
func (noContracts) ImplementsInterface(wire.InterfaceRef) bool                { return true }

// Example shows the per-reference loop the lane runs before any mutation: extract,
// resolve (here: a lookup table standing in for the store), verify, pin.
func Example() {
	group := "test.forms.example.dev/v1alpha1"
	iface := wire.InterfaceRef{APIVersion: wire.InterfaceAPIVersion, Name: "owner.runtime", Version: "1.0.0",
		SchemaDigest: "sha256:" + strings.Repeat("1", 64)}
	ownerRef := wire.FormRef{APIVersion: group, Kind: "Owner", DefinitionVersion: "0.1.0", SchemaDigest: "sha256:" + strings.Repeat("2", 64)}
	form := &catalog.Form{
		Ref:       wire.FormRef{APIVersion: group, Kind: "Consumer", DefinitionVersion: "0.1.0", SchemaDigest: "sha256:" + strings.Repeat("3", 64)},
		Relations: []catalog.Relation{{Pointer: "/owner", TargetAPIVersion: group, TargetKind: "Owner", RequiredInterface: &iface}},
	}
	spec := map[string]any{"owner": map[string]any{"apiVersion": group, "kind": "Owner", "name": "api"}}
	stored := map[string]rules.Target{
		"api": {Found: true, APIVersion: group, Kind: "Owner", Name: "api", UID: "u-1", FormRef: ownerRef, Provided: []wire.InterfaceRef{iface}},
	}

	refs, r := rules.ExtractReferences(form, spec)
	if r != nil {
		fmt.Println(r.Wire())
		return
	}
	for _, ref := range refs {
		target := stored[ref.Name] // hostsim: store lookup in the caller's tenant and space
		if r := rules.VerifyReference(form, ref, target, noContracts{}); r != nil {
			fmt.Println(r.Code)
			return
		}
		pin := rules.PinOf(ref, target)
		fmt.Println(pin.Pointer, pin.Relation, pin.TargetUID)
	}

	// The same spec naming a missing target: resource_not_found at the pointer.
	spec["owner"].(map[string]any)["name"] = "gone"
	refs, _ = rules.ExtractReferences(form, spec)
	r = rules.VerifyReference(form, refs[0], stored["gone"], noContracts{})
	fmt.Println(r.Code, string(r.Wire().Details))
	// Output:
	// /owner /owner u-1
	// resource_not_found {"field":"/owner"}
}
