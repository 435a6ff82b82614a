package rules

import (
	"fmt"
	"slices"
	"strings"

	"github.com/takokit/takokit/catalog/wire"
)

// TotalWeight is the exact sum of a deployment's weights (docs/protocol.md#aggregate).
const TotalWeight = 10000

// Weight bounds and entry count of a deployment (docs/protocol.md#aggregate).
const (
	MinWeight, MaxWeight     = 1, 10000
	MinVersions, MaxVersions = 1, 8
)

// WeightedVersion is one entry of a deployment, with the facts of the version it
// resolved to.
type WeightedVersion struct {
	Pointer   string // the entry's reference pointer, e.g. "/versions/0/workerVersion"
	Name      string // the version's resource name
	UID       string // the resolved version uid
	Weight    int64
	WorkerUID string   // the uid the version's stored worker pin names
	Handlers  []string // the version's declared handlers
	Ready     bool     // the version renders Ready=True
	Deleting  bool     // the version is the target of a pending accepted delete
}

// DeploymentFacts are the resolved facts of one deployment apply, import or commit.
type DeploymentFacts struct {
	WorkerPointer string // the deployment's worker reference pointer, e.g. "/worker"
	WorkerName    string
	WorkerUID     string
	// OtherDeployment names another live deployment (not this resource) whose worker
	// pin is WorkerUID; "" when there is none.
	OtherDeployment string
	Versions        []WeightedVersion
}

// CheckDeployment applies the deployment table of docs/protocol.md#aggregate in order: one
// deployment per worker uid, version ownership, no version weighted twice (by uid),
// entry count and weights (each 1..10000, summing to exactly 10000), every weighted
// version ready and not being deleted. Every refusal is invalid_argument.
func CheckDeployment(f DeploymentFacts) *Refusal {
	if f.OtherDeployment != "" {
		return invalid(f.WorkerPointer, "%s: worker %q already has deployment %q; a worker has at most one deployment, "+
			"so change that one (re-weight its versions) instead of creating another", f.WorkerPointer, f.WorkerName, f.OtherDeployment)
	}
	for _, v := range f.Versions {
		if v.WorkerUID != f.WorkerUID {
			return invalid(v.Pointer, "%s: version %q (uid %s) belongs to another worker (uid %s), not to worker %q (uid %s); "+
				"a deployment weights only versions of its own worker", v.Pointer, v.Name, v.UID, v.WorkerUID, f.WorkerName, f.WorkerUID)
		}
	}
	seen := map[string]string{}
	for _, v := range f.Versions {
		if first, dup := seen[v.UID]; dup {
			return invalid(v.Pointer, "%s: version %q (uid %s) is already weighted at %s; weight each version once",
				v.Pointer, v.Name, v.UID, first)
		}
		seen[v.UID] = v.Pointer
	}
	if n := len(f.Versions); n < MinVersions || n > MaxVersions {
		return invalid(parentPointer(f.Versions, "/versions"), "%s: a deployment weights %d..%d versions; got %d",
			parentPointer(f.Versions, "/versions"), MinVersions, MaxVersions, n)
	}
	var sum int64
	var parts []string
	for _, v := range f.Versions {
		wp := itemPointer(v.Pointer) + "/weight"
		if v.Weight < MinWeight || v.Weight > MaxWeight {
			return invalid(wp, "%s: weight %d of version %q is outside %d..%d", wp, v.Weight, v.Name, MinWeight, MaxWeight)
		}
		sum += v.Weight
		parts = append(parts, fmt.Sprintf("%d", v.Weight))
	}
	if sum != TotalWeight {
		p := parentPointer(f.Versions, "/versions")
		return invalid(p, "%s: weights %s sum to %d; they must sum to exactly %d", p, strings.Join(parts, "+"), sum, TotalWeight)
	}
	for _, v := range f.Versions {
		switch {
		case v.Deleting:
			return invalid(v.Pointer, "%s: version %q (uid %s) is being deleted; weight a version that stays", v.Pointer, v.Name, v.UID)
		case !v.Ready:
			return invalid(v.Pointer, "%s: version %q (uid %s) is not Ready=True; weight only ready versions", v.Pointer, v.Name, v.UID)
		}
	}
	return nil
}

// itemPointer drops the last token: "/versions/0/workerVersion" → "/versions/0".
func itemPointer(p string) string {
	if i := strings.LastIndex(p, "/"); i > 0 {
		return p[:i]
	}
	return p
}

// parentPointer is the list pointer of the entries ("/versions"), or fallback.
func parentPointer(vs []WeightedVersion, fallback string) string {
	if len(vs) == 0 {
		return fallback
	}
	return itemPointer(itemPointer(vs[0].Pointer))
}

// ActiveDeployment is a worker's one live deployment with its weighted versions; a nil
// *ActiveDeployment means the worker has none.
type ActiveDeployment struct {
	Name     string
	Versions []WeightedVersion
}

// lacking lists the weighted versions that do not declare handler.
func (a *ActiveDeployment) lacking(handler string) []string {
	var out []string
	for _, v := range a.Versions {
		if !slices.Contains(v.Handlers, handler) {
			out = append(out, fmt.Sprintf("%q", v.Name))
		}
	}
	return out
}

// Serves reports whether the deployment exists and every weighted version declares handler.
func (a *ActiveDeployment) Serves(handler string) bool {
	return a != nil && len(a.Versions) > 0 && len(a.lacking(handler)) == 0
}

// AttachmentGate is docs/protocol.md#aggregate: an attachment that invokes handler may exist only for a
// worker whose active deployment weights only versions declaring it; otherwise
// unsupported_capability naming the worker and what is missing.
func AttachmentGate(workerPointer, workerName, handler string, active *ActiveDeployment) *Refusal {
	if active == nil {
		return refuse(wire.CodeUnsupportedCapability, workerPointer,
			"%s: worker %q has no active deployment, so nothing serves its %q handler; deploy a version declaring %q first",
			workerPointer, workerName, handler, handler)
	}
	if miss := active.lacking(handler); len(miss) > 0 {
		return refuse(wire.CodeUnsupportedCapability, workerPointer,
			"%s: deployment %q of worker %q weights version(s) %s that do not declare the %q handler; "+
				"every weighted version must declare it", workerPointer, active.Name, workerName, strings.Join(miss, ", "), handler)
	}
	return nil
}

// Dependent is a live resource that needs a worker to serve a handler (docs/protocol.md#aggregate): an
// attachment, or a version whose service binding pins the worker (Handler "fetch").
type Dependent struct {
	Kind, Name string
	Handler    string
	Pointer    string // the dependent's pointer that names the worker
}

func (d Dependent) String() string {
	return fmt.Sprintf("%s %q (%s, needs %q)", d.Kind, d.Name, d.Pointer, d.Handler)
}

// ReverseGate is docs/protocol.md#aggregate for a deployment apply: the proposed versions must keep serving
// every dependent's handler, else unsupported_capability naming the dependents left
// unserved.
func ReverseGate(versionsPointer, workerName string, proposed []WeightedVersion, dependents []Dependent) *Refusal {
	next := &ActiveDeployment{Versions: proposed}
	var unserved []string
	for _, d := range dependents {
		if !next.Serves(d.Handler) {
			unserved = append(unserved, d.String())
		}
	}
	if len(unserved) == 0 {
		return nil
	}
	return refuse(wire.CodeUnsupportedCapability, versionsPointer,
		"%s: this change would leave dependents of worker %q unserved: %s; weight only versions declaring the handlers they need, "+
			"or remove those dependents first", versionsPointer, workerName, clipList(unserved))
}

// DeploymentDeleteGate is docs/protocol.md#aggregate for a deployment delete: any live dependent refuses it
// with dependency_in_use naming them.
func DeploymentDeleteGate(deploymentName, workerName string, dependents []Dependent) *Refusal {
	if len(dependents) == 0 {
		return nil
	}
	ds := make([]string, len(dependents))
	for i, d := range dependents {
		ds[i] = d.String()
	}
	return refuse(wire.CodeDependencyInUse, "",
		"deployment %q of worker %q cannot be deleted while its dependents live: %s; delete the attachments and inbound service bindings first",
		deploymentName, workerName, clipList(ds))
}

// Readiness is the derived Ready condition of a worker (docs/protocol.md#aggregate).
type Readiness struct {
	Ready  bool
	Reason string // Available | Provisioning | UnsupportedCapability
	// HostReason is "" when ready, else no-active-deployment or deployment-lacks-fetch
	// followed by the worker and what is missing: `no-active-deployment worker "api"`,
	// `deployment-lacks-fetch worker "api" deployment "d" versions "v1"`.
	HostReason string
	Message    string
}

// Worker readiness codes (docs/protocol.md#aggregate).
const (
	HostReasonNoDeployment = "no-active-deployment"
	HostReasonLacksHandler = "deployment-lacks-fetch"
)

// ReadyHandler is the handler a worker must serve to be ready.
const ReadyHandler = "fetch"

// WorkerReadiness renders docs/protocol.md#aggregate for the worker named worker from its
// active deployment (nil when none).
func WorkerReadiness(worker string, active *ActiveDeployment) Readiness {
	switch {
	case active == nil:
		return Readiness{false, "Provisioning", ClipHostReason(fmt.Sprintf("%s worker %q", HostReasonNoDeployment, worker)),
			fmt.Sprintf("worker %q has no active deployment, so nothing serves %q; create a deployment weighting a version that declares it", worker, ReadyHandler)}
	case !active.Serves(ReadyHandler):
		lacking := strings.Join(active.lacking(ReadyHandler), ", ")
		return Readiness{false, "UnsupportedCapability",
			ClipHostReason(fmt.Sprintf("%s worker %q deployment %q versions %s", HostReasonLacksHandler, worker, active.Name, lacking)),
			fmt.Sprintf("deployment %q of worker %q weights version(s) %s that do not declare %q", active.Name, worker, lacking, ReadyHandler)}
	}
	return Readiness{true, "Available", "", fmt.Sprintf("deployment %q serves %q", active.Name, ReadyHandler)}
}
