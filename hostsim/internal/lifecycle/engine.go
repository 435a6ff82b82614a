// Package lifecycle is what a mutation does to stored state (docs/protocol.md#order,
// steps 12-16, and #operations): it decides an apply, import or delete against
// the store as it is now, commits the outcome with the derived rendering it
// causes, and accepts and settles long-running operations. The lane parses
// the request and answers; package decide makes each decision; this package loads what
// the decisions need and stores what they decide.
package lifecycle

import (
	"sync"
	"time"

	"github.com/takokit/takokit/catalog"
	"github.com/takokit/takokit/catalog/wire"
	"github.com/takokit/takokit/hostsim/internal/decide"
	"github.com/takokit/takokit/hostsim/internal/fault"
	"github.com/takokit/takokit/hostsim/internal/profile"
	"github.com/takokit/takokit/hostsim/internal/related"
	"github.com/takokit/takokit/hostsim/internal/render"
)

// Engine runs the lifecycle of one host's resources.
type Engine struct {
	Host        *profile.Host
	Related     *related.G
	Renderer    *render.Renderer
	Now         func() time.Time
	PrepareLife time.Duration              // lifetime of a minted prepareDigest
	Mint        func(prefix string) string // uids and operation ids
	// MigrationTimeout bounds one migration file's SQL (0 = DefaultMigrationTimeout).
	MigrationTimeout time.Duration
	gone             lastGone        // the last deleted uid, for the fault uid.reuse
	passed           decide.GateMemo // specs that passed the gate, per Form
}

// Installed resolves an exact FormRef among the Forms the host installs.
func (en *Engine) Installed(ref wire.FormRef, fs *fault.Set) (*catalog.Form, *wire.Error) {
	if f, ok := en.Host.Form(ref); ok {
		return f, nil
	}
	if f, ok := en.looseForm(ref, fs); ok {
		return f, nil
	}
	return nil, decide.Refuse(wire.CodeFormUnknown, "Form %s is not installed on this host (profile %q); read GET %s/support/forms for what it serves",
		ref, en.Host.P.Name, en.Host.Cat.Lane().APIRoot)
}

// looseForm resolves an uninstalled FormRef by group and kind alone (fault
// formref.loose): the first installed version of the kind answers.
func (en *Engine) looseForm(ref wire.FormRef, fs *fault.Set) (*catalog.Form, bool) {
	k, ok := en.Host.Cat.Kind(ref.APIVersion, ref.Kind)
	if !ok {
		return nil, false
	}
	for _, v := range k.Versions {
		if f, ok := en.Host.Form(v.Ref); ok {
			if fs.On(fault.FormRefLoose) {
				return f, true
			}
			return nil, false
		}
	}
	return nil, false
}

// Gate is the spec gate of an apply or import (step 10).
func (en *Engine) Gate(f *catalog.Form, spec map[string]any, action string, fs *fault.Set) (*decide.Gated, *wire.Error) {
	g, err := en.GateOrRefuse(f, spec, fs)
	if err == nil || action != "import" {
		return g, err
	}
	if !fs.On(fault.ImportUnchecked) {
		return nil, err
	}
	return decide.Ungated(f, spec)
}

// GateOrRefuse is the spec gate of prepare (decide.GateOrRefuse), remembering passes.
func (en *Engine) GateOrRefuse(f *catalog.Form, spec map[string]any, fs *fault.Set) (g *decide.Gated, e *wire.Error) {
	fs.Decide(func(a *decide.Acts) { g, e = en.passed.GateOrRefuse(f, spec, a) })
	return g, e
}

// GateDiagnostics is the spec gate of validate (decide.Gate), remembering passes.
func (en *Engine) GateDiagnostics(f *catalog.Form, spec map[string]any, fs *fault.Set) (g *decide.Gated, ds []decide.Diagnostic, err error) {
	fs.Decide(func(a *decide.Acts) { g, ds, err = en.passed.Gate(f, spec, a) })
	return g, ds, err
}

func (en *Engine) nowText() string { return render.NowText(en.Now()) }

// lastGone remembers the last deleted uid (fault uid.reuse).
type lastGone struct {
	mu  sync.Mutex
	uid string
}

func (g *lastGone) set(uid string) { g.mu.Lock(); g.uid = uid; g.mu.Unlock() }

func (g *lastGone) get() string {
	g.mu.Lock()
	defer g.mu.Unlock()
	return g.uid
}
