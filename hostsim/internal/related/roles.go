package related

import (
	_ "embed"
	"fmt"

	"github.com/takokit/takokit/catalog/wire"
)

// The worker roles table (worker_roles.json): which kinds are bundles, workers,
// versions, deployments and attachments, and the pointers and handlers each
// rule of docs/protocol.md#aggregate, docs/protocol.md#artifacts reads. Go code never names a kind;
// it asks this table.

//go:embed worker_roles.json
var rolesJSON []byte

type bundleRole struct {
	Kind           string `json:"kind"`
	ManifestDigest string `json:"manifestDigest"`
}

// assetsRole locates a version's static assets (docs/protocol.md#static-assets):
// the pinned bundle relation, the two settings, the notFoundHandling value that
// falls back to a single-page application's index, and that index's path.
type assetsRole struct {
	Bundle           string `json:"bundle"`
	NotFoundHandling string `json:"notFoundHandling"`
	RunWorkerFirst   string `json:"runWorkerFirst"`
	Fallback         string `json:"fallback"`
	Index            string `json:"index"`
}

type workerRole struct {
	Kind         string `json:"kind"`
	ReadyHandler string `json:"readyHandler"`
}

type serviceRole struct {
	Relation string `json:"relation"`
	Handler  string `json:"handler"`
}

type versionRole struct {
	Kind            string        `json:"kind"`
	Worker          string        `json:"worker"`
	Bundle          string        `json:"bundle"`
	Handlers        string        `json:"handlers"`
	NamespaceFields []string      `json:"namespaceFields"`
	ServiceBindings []serviceRole `json:"serviceBindings"`
	Assets          *assetsRole   `json:"assets"`
}

type deploymentRole struct {
	Kind     string `json:"kind"`
	Worker   string `json:"worker"`
	Versions string `json:"versions"`
	Weight   string `json:"weight"`
}

type deadLetterRole struct {
	Queue      string `json:"queue"`
	DeadLetter string `json:"deadLetter"`
}

type attachmentRole struct {
	Kind       string          `json:"kind"`
	Worker     string          `json:"worker"`
	Handler    string          `json:"handler"`
	OnePer     string          `json:"onePer"`
	DeadLetter *deadLetterRole `json:"deadLetter"`
}

// databaseRole is a kind whose resource is a real database (docs/protocol.md#migrations).
type databaseRole struct {
	Kind string `json:"kind"`
}

// migrationRole is a kind that applies a migration set to a database: the
// pointers of its two relations.
type migrationRole struct {
	Kind         string `json:"kind"`
	Database     string `json:"database"`
	MigrationSet string `json:"migrationSet"`
}

type roleTable struct {
	Comment     string           `json:"comment"`
	Bundles     []bundleRole     `json:"bundles"`
	Workers     []workerRole     `json:"workers"`
	Versions    []versionRole    `json:"versions"`
	Deployments []deploymentRole `json:"deployments"`
	Attachments []attachmentRole `json:"attachments"`
	Databases   []databaseRole   `json:"databases"`
	Migrations  []migrationRole  `json:"migrations"`
}

var roles = mustRoles()

func mustRoles() *roleTable {
	t, err := parseRoles(rolesJSON)
	if err != nil {
		panic(err)
	}
	return t
}

// parseRoles reads a roles table: strict JSON whose every bundle kind commits
// to a manifest kind (the artifact rules resolve its manifestDigest as one).
func parseRoles(data []byte) (*roleTable, error) {
	var t roleTable
	if err := wire.DecodeStrict(data, &t); err != nil {
		return nil, fmt.Errorf("worker_roles.json: %v", err)
	}
	for _, b := range t.Bundles {
		if _, ok := wire.ManifestKindOf(b.Kind); !ok {
			return nil, fmt.Errorf("worker_roles.json: bundle kind %s commits to no manifest kind of catalog/wire/artifact.go", b.Kind)
		}
	}
	return &t, nil
}

func find[T any](list []T, kind func(*T) string, k string) *T {
	for i := range list {
		if kind(&list[i]) == k {
			return &list[i]
		}
	}
	return nil
}

func (t *roleTable) bundle(k string) *bundleRole {
	return find(t.Bundles, func(r *bundleRole) string { return r.Kind }, k)
}
func (t *roleTable) worker(k string) *workerRole {
	return find(t.Workers, func(r *workerRole) string { return r.Kind }, k)
}
func (t *roleTable) version(k string) *versionRole {
	return find(t.Versions, func(r *versionRole) string { return r.Kind }, k)
}
func (t *roleTable) deployment(k string) *deploymentRole {
	return find(t.Deployments, func(r *deploymentRole) string { return r.Kind }, k)
}
func (t *roleTable) attachment(k string) *attachmentRole {
	return find(t.Attachments, func(r *attachmentRole) string { return r.Kind }, k)
}

func (t *roleTable) database(k string) *databaseRole {
	return find(t.Databases, func(r *databaseRole) string { return r.Kind }, k)
}
func (t *roleTable) migration(k string) *migrationRole {
	return find(t.Migrations, func(r *migrationRole) string { return r.Kind }, k)
}

// workerKinds are the kinds whose readiness is derived rendering.
func (t *roleTable) workerKinds() []string {
	out := make([]string, len(t.Workers))
	for i, w := range t.Workers {
		out[i] = w.Kind
	}
	return out
}

// IsWorker reports whether kind's Ready is derived from its active deployment.
func IsWorker(kind string) bool { return roles.worker(kind) != nil }

// IsDatabase reports whether kind's resources are real databases (docs/protocol.md#migrations).
func IsDatabase(kind string) bool { return roles.database(kind) != nil }
