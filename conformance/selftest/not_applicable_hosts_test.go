package selftest

import (
	"strings"
	"testing"

	"github.com/takokit/takokit/catalog/catalogtest"
	"github.com/takokit/takokit/conformance"
)

// TestChecksPassOverFormsTheHostWillNotCreate: a check that needs a Form of
// some shape made looks only at the installed Forms the host offers create,
// read and delete for. On a host whose profile withholds create from the one
// Form of that shape, the check must be not-applicable, not apply the Form
// anyway and blame the host for refusing it.
func TestChecksPassOverFormsTheHostWillNotCreate(t *testing.T) {
	t.Parallel() // its own hostsim processes
	endOn(t, conformance.StatusNotApplicable, "will not create the Form it needs", []hostCase{
		// WorkerCronTrigger is the one attachment whose field admits cron expressions
		{"cron-read-only.json", []string{"cron-grammar-enforced"}},
		// WorkerVersion is the one Form with binding relations
		{"versions-read-only.json", []string{"binding-target-missing-404-before-mutation", "binding-contract-verified"}},
		// with nothing creatable, neither half of the outputs check has a Form to build
		{"nothing-creatable.json", []string{"form-declared-outputs-are-exact"}},
	})
}

// TestImportChecksOnAHostThatWillNotImport: a host may withhold import from a Form
// it serves. The check that imports a second endpoint for a worker then has nothing
// to measure: it is not-applicable, saying the host does not offer import, rather
// than pass without importing or blame the host for the refusal it would get.
func TestImportChecksOnAHostThatWillNotImport(t *testing.T) {
	t.Parallel() // its own hostsim processes
	endOn(t, conformance.StatusNotApplicable, "does not offer import of the Form it needs", []hostCase{
		{"endpoints-without-import.json", []string{"attachment-claim-decided-on-import"}},
	})
}

// TestChecksOnAHostLackingTheFormsTheyNeed: a check that needs a Form the host
// does not install, or a Form whose relation names one it does not install, is
// not-applicable there: it neither fails the host nor ends as a runner bug.
func TestChecksOnAHostLackingTheFormsTheyNeed(t *testing.T) {
	t.Parallel() // its own hostsim processes
	endOn(t, conformance.StatusNotApplicable, "lacks a Form it needs", []hostCase{
		// every check that uploads a bundle for an artifact-addressed Form
		{"no-artifacts.json", []string{"declared-handler-not-exported-rejected", "artifact-upload-missing-blob",
			"artifact-digest-mismatch", "artifact-commit-idempotent", "upload-session-bound-to-its-creating-principal",
			"artifact-retention-while-referenced", "artifact-commit-binds-declared-size", "artifact-then-bundle-apply",
			"artifact-manifest-reject-list", "artifact-manifest-kind-exclusive", "bundle-main-module-is-loadable",
			"artifact-digest-is-not-a-capability", "manifest-reference-is-not-a-capability"}},
		// WorkerVersion installed, the ModuleWorker its /worker names not
		{"versions-without-worker.json", []string{"module-worker-runtime-contract-advertised", "undeclared-runtime-handler-rejected"}},
	})
}

// TestDeadLetterCheckOverAConsumerWithoutADeadLetterQueue: a family may shape its
// fed attachment without a dead-letter reference (QueueConsumer with no
// deadLetterQueue, served and given to the runner). No drained message moves
// anywhere, so no chain can close a cycle: the check is not-applicable and says why,
// and sends no apply; it neither fails the host nor ends as a runner bug.
func TestDeadLetterCheckOverAConsumerWithoutADeadLetterQueue(t *testing.T) {
	t.Parallel() // its own host and catalog
	const id = "dead-letter-cycle-rejected"
	narrowedTo(t, id)
	dir := t.TempDir()
	cat, err := catalogtest.WithoutField(dir, "QueueConsumer", "deadLetterQueue")
	if err != nil {
		t.Fatal(err)
	}
	ctx, sim, _ := startInProcessSim(t, "full", "--catalog", dir)
	r, rec := runLogged(t, ctx, sim.URL, cat, "no-dead-letters", id)
	const want = "QueueConsumer refers to no second AtLeastOnceQueue a drained message moves to"
	if r.Status != conformance.StatusNotApplicable || !strings.Contains(r.Message, want) {
		t.Errorf("on a family whose QueueConsumer has no dead-letter queue: %s, want not-applicable: %s", r.Line(), want)
	}
	if puts := rec.puts("QueueConsumer"); len(puts) > 0 {
		t.Errorf("the check applied QueueConsumer, though no cycle can be formed: %v", puts)
	}
}

// hostCase is a test profile (in testdata) and the checks to run against it.
type hostCase struct {
	profile string
	checks  []string
}

// endOn runs each host's checks against hostsim serving its profile and fails
// every one that ends otherwise than want, saying what the host is.
func endOn(t *testing.T, want conformance.Status, host string, hosts []hostCase) {
	t.Helper()
	bin := hostsimBinary(t)
	for _, h := range hosts {
		t.Run(h.profile, func(t *testing.T) {
			checks := narrowedTo(t, h.checks...)
			ctx, sim, cat := startSim(t, bin, testProfile(t, h.profile))
			got := runChecks(t, ctx, sim.URL, cat, checks)
			for _, id := range checks {
				if r := got[id]; r.Status != want {
					t.Errorf("%s on a host that %s (%s): %s, want %s", id, host, h.profile, r.Line(), want)
				}
			}
		})
	}
}
