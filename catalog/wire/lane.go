package wire

import (
	"fmt"
	"strings"
)

// Lane is one Host API lane as data (docs/protocol.md#lanes): the words that differ
// between lanes and nothing else. Every takokit module reads its paths, its version
// strings and its schema names from here; no other package spells a lane path. The
// catalog that is loaded chooses its lane (docs/catalog-rules.md#lanes), and a client
// learns a host's lane from discovery.
type Lane struct {
	// Name is the lane's short name, the version word of its API group ("v1beta1").
	Name string
	// APIVersion is the lane's API group: the one member of discovery's api_versions.
	APIVersion string
	// DiscoveryPath is the absolute path of the lane's discovery document.
	DiscoveryPath string
	// APIRoot is the escaped path of endpoints.api: every lane route lives below it.
	APIRoot string
	// HostAPI is the identity of the lane's operation table ("takoform.host-api@v1beta1").
	HostAPI string
	// Schemas names the published JSON Schema documents that describe this lane's
	// documents, by the file names the published layout gives them.
	Schemas LaneSchemas
	// Families are the Form families known to belong to this lane: the published Edge
	// family and the project's own. A catalog carrying one of them speaks this lane.
	Families []string
	// Status says where the lane stands upstream.
	Status LaneStatus
}

// LaneSchemas are the file names of a lane's published schemas (under schemas/ in
// a published lane folder). The lane-specific ones carry the lane's version word;
// the others are shared by every lane.
type LaneSchemas struct {
	FormDefinition string
	FormRef        string
	Wire           string
	Discovery      string
	// Shared are the schema files every lane uses unchanged.
	Shared []string
}

// LaneStatus is a lane's standing upstream.
type LaneStatus string

const (
	// LaneCurrent is the lane upstream's provider and corpus speak.
	LaneCurrent LaneStatus = "current"
	// LaneWithdrawn is a lane upstream has withdrawn; takokit keeps it selectable.
	LaneWithdrawn LaneStatus = "withdrawn upstream"
)

var sharedSchemas = []string{
	"artifact-manifest-v1alpha1.schema.json",
	"binding-definition-v1alpha1.schema.json",
	"binding-ref-v1alpha1.schema.json",
	"host-support-profile-v1alpha1.schema.json",
	"interface-definition-v1alpha1.schema.json",
	"interface-ref-v1alpha1.schema.json",
	"operation-v1alpha1.schema.json",
	"package-index-v1alpha4.schema.json",
}

func newLane(name string, status LaneStatus, families ...string) *Lane {
	group := "forms.takoform.com/" + name
	return &Lane{
		Name:          name,
		APIVersion:    group,
		DiscoveryPath: "/.well-known/takoform/" + name,
		APIRoot:       "/apis/" + group,
		HostAPI:       "takoform.host-api@" + name,
		Schemas: LaneSchemas{
			FormDefinition: "form-definition-" + name + ".schema.json",
			FormRef:        "form-ref-" + name + ".schema.json",
			Wire:           "host-api-wire-" + name + ".schema.json",
			Discovery:      "host-discovery-" + name + ".schema.json",
			Shared:         sharedSchemas,
		},
		Families: families,
		Status:   status,
	}
}

// The lanes takokit speaks. V1beta1 is the default everywhere; V1alpha3 stays
// selectable for hosts and catalogs that still speak it.
var (
	V1beta1  = newLane("v1beta1", LaneCurrent, "edge.forms.takoform.com/v1beta1", "edge.forms.takokit.dev/v1beta1")
	V1alpha3 = newLane("v1alpha3", LaneWithdrawn, "edge.forms.takoform.com/v1alpha1", "edge.forms.takokit.dev/v1alpha1")
)

// DefaultLane is the lane a catalog without any lane signal speaks, and the lane a
// program speaks when nothing chose another.
var DefaultLane = V1beta1

var lanes = []*Lane{V1beta1, V1alpha3}

// Lanes returns every known lane, the default first.
func Lanes() []*Lane { return append([]*Lane(nil), lanes...) }

// LaneNamed returns the lane called name ("v1beta1", or its API group
// "forms.takoform.com/v1beta1"). An unknown name is answered with the known ones.
func LaneNamed(name string) (*Lane, error) {
	for _, l := range lanes {
		if name == l.Name || name == l.APIVersion {
			return l, nil
		}
	}
	return nil, fmt.Errorf("unknown lane %q; the known lanes are %s", name, KnownLanes())
}

// KnownLanes lists the known lanes with their standing, for messages:
// "v1beta1 (current), v1alpha3 (withdrawn upstream)".
func KnownLanes() string {
	parts := make([]string, len(lanes))
	for i, l := range lanes {
		parts[i] = fmt.Sprintf("%s (%s)", l.Name, l.Status)
	}
	return strings.Join(parts, ", ")
}

// LaneOfHostAPI returns the lane whose operation-table identity is id.
func LaneOfHostAPI(id string) (*Lane, bool) {
	for _, l := range lanes {
		if l.HostAPI == id {
			return l, true
		}
	}
	return nil, false
}

// LaneOfFamily returns the lane a known Form family belongs to.
func LaneOfFamily(group string) (*Lane, bool) {
	for _, l := range lanes {
		for _, f := range l.Families {
			if f == group {
				return l, true
			}
		}
	}
	return nil, false
}

// String is the lane's API group.
func (l *Lane) String() string { return l.APIVersion }

// Describe names the lane with its standing: "forms.takoform.com/v1alpha3 (withdrawn upstream)".
func (l *Lane) Describe() string { return fmt.Sprintf("%s (%s)", l.APIVersion, l.Status) }

// Path joins rest (which starts with "/") below the lane's API root.
func (l *Lane) Path(rest string) string { return l.APIRoot + rest }

// ResourcePath is the path of one resource: {api}/resources/{group}/{version}/{kind}/{name}.
// The group travels as two ordinary segments, never one escaped segment.
func (l *Lane) ResourcePath(group, kind, name string) string {
	return l.APIRoot + "/resources/" + group + "/" + kind + "/" + name
}
