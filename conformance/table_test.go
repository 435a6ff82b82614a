package conformance

import (
	"bytes"
	"encoding/json"
	"os"
	"path/filepath"
	"regexp"
	"slices"
	"strings"
	"testing"

	"github.com/takokit/takokit/catalog/reftest"
	"github.com/takokit/takokit/catalog/wire"
)

var kebab = regexp.MustCompile(`^[a-z][a-z0-9]*(?:-[a-z0-9]+)*$`)

var knownNeeds = []Need{NeedAlternate, NeedOtherTenant, NeedProbes, NeedTransitions, NeedForm, NeedUpdate,
	NeedOutputs, NeedNoOutputs, NeedRevision, NeedNoUpdate, NeedImmutable, NeedTwoVersions, NeedRelations,
	NeedBindings, NeedAggregate, NeedArtifacts, NeedSupport}

func TestTable(t *testing.T) {
	checks := Table()
	seen := map[string]bool{}
	last := -1
	for i, c := range checks {
		if !kebab.MatchString(c.ID) {
			t.Errorf("check %d: id %q is not kebab-case", i, c.ID)
		}
		if seen[c.ID] {
			t.Errorf("check %q appears twice", c.ID)
		}
		seen[c.ID] = true
		if c.Title == "" || c.Run == nil {
			t.Errorf("check %q lacks a title or a Run function", c.ID)
		}
		if !strings.Contains(c.Requirement, "MUST") || !strings.HasSuffix(c.Requirement, ".") {
			t.Errorf("check %q: requirement %q must be one sentence stating a MUST", c.ID, c.Requirement)
		}
		a := areaIndex(c.Area)
		if a < 0 {
			t.Errorf("check %q: unknown area %q", c.ID, c.Area)
		}
		if a < last {
			t.Errorf("check %q (area %q) is out of area order", c.ID, c.Area)
		}
		last = a
		for _, n := range c.Needs {
			if !slices.Contains(knownNeeds, n) {
				t.Errorf("check %q: unknown need %q", c.ID, n)
			}
		}
	}
	for _, a := range Areas() {
		if !slices.ContainsFunc(checks, func(c Check) bool { return c.Area == a }) {
			t.Errorf("area %q has no check", a)
		}
	}
}

func TestNegatives(t *testing.T) {
	negs := Negatives()
	if got := NegativesOf("no-such-check"); got != nil {
		t.Errorf("NegativesOf an id no check has = %+v; want none", got)
	}
	for _, c := range Table() {
		n, ok := negs[c.ID]
		if !ok {
			t.Errorf("check %q has no registered negative (docs/guides/conformance.md)", c.ID)
			continue
		}
		if n.Fragment == "" {
			t.Errorf("check %q: its negative names no expected message fragment", c.ID)
		}
		if !n.Missing && n.Profile == "" {
			t.Errorf("check %q: its negative names no hostsim profile", c.ID)
		}
		if n.Missing || n.Wanted != "" {
			t.Errorf("check %q: its negative is not isolated (wanted %s); every check fails at its own rule by a narrow fault", c.ID, n.Wanted)
		}
		if n.Catalog != "" && n.Catalog != CatalogTwoGroups && n.Catalog != CatalogSecondDefinitions {
			t.Errorf("check %q: its negative names the unknown test catalog %q", c.ID, n.Catalog)
		}
	}
	for id := range negs {
		if !slices.ContainsFunc(Table(), func(c Check) bool { return c.ID == id }) {
			t.Errorf("negative for %q names no check", id)
		}
	}
	for id, more := range MoreNegatives() {
		first, ok := negs[id]
		if !ok {
			t.Errorf("further negatives for %q, which has no first negative", id)
			continue
		}
		seen := map[string]bool{first.Fragment: true}
		for _, n := range more {
			if n.Fragment == "" || n.Profile == "" || n.Missing || n.Wanted != "" {
				t.Errorf("check %q: a further negative must be isolated, with a profile and a fragment: %+v", id, n)
			}
			if seen[n.Fragment] {
				t.Errorf("check %q: two negatives expect %q; a further negative must fail the check at another rule", id, n.Fragment)
			}
			seen[n.Fragment] = true
		}
		if got := NegativesOf(id); len(got) != 1+len(more) || got[0].Fragment != first.Fragment {
			t.Errorf("NegativesOf(%q) = %d negatives, want the first then the %d further ones", id, len(got), len(more))
		}
	}
}

// publishedCorpus is the required check ids of a lane's published conformance corpus.
func publishedCorpus(t *testing.T, lane *wire.Lane) []string {
	t.Helper()
	corpus := map[string]string{"v1beta1": "portable-host-v1beta1", "v1alpha3": "portable-host-v3"}[lane.Name]
	path := reftest.File(t, lane, "conformance/"+corpus+"/contract.json")
	data, err := os.ReadFile(path)
	if err != nil {
		t.Fatal(err)
	}
	var doc struct {
		Required []string `json:"requiredRunnerChecks"`
	}
	if err := json.Unmarshal(data, &doc); err != nil {
		t.Fatalf("%s: %v", path, err)
	}
	return doc.Required
}

// notYetInTable are the published ids the table lacks, each waiting on hostsim
// behaviour being built (static assets and SQLite migration history). Adding a
// check removes its id here; TestPublishedIDs requires the list to be exactly
// what is missing, so it shrinks to empty and cannot hide a new gap.
var notYetInTable = map[string]string{}

// TestPublishedIDs holds the table to both lanes' published corpora: every
// published id is a check not marked project-only (†), and every check not marked
// † is published on some lane.
func TestPublishedIDs(t *testing.T) {
	published := map[string]bool{}
	inTable := map[string]bool{}
	for _, c := range Table() {
		inTable[c.ID] = true
	}
	missing := map[string]bool{}
	for _, lane := range wire.Lanes() {
		ids := publishedCorpus(t, lane)
		if len(ids) == 0 {
			t.Fatalf("lane %s: the published corpus lists no required checks", lane.Name)
		}
		for _, id := range ids {
			published[id] = true
			if !inTable[id] {
				missing[id] = true
				if _, known := notYetInTable[id]; !known {
					t.Errorf("lane %s publishes %q, which the table lacks", lane.Name, id)
				}
			}
		}
	}
	for id, why := range notYetInTable {
		if !missing[id] {
			t.Errorf("%q is listed as not yet in the table (%s) but the table has it or no corpus publishes it: remove it from notYetInTable", id, why)
		}
	}
	for _, c := range Table() {
		if c.Project && published[c.ID] {
			t.Errorf("check %q is marked project-only but is a published id", c.ID)
		}
		if !c.Project && !published[c.ID] {
			t.Errorf("check %q is not a published id; mark it Project (†) or use the published id", c.ID)
		}
	}
}

func TestDocsFresh(t *testing.T) {
	var b bytes.Buffer
	if err := WriteList(&b, "markdown", Table()); err != nil {
		t.Fatal(err)
	}
	path := filepath.Join("..", "docs", "conformance.md")
	if os.Getenv("TAKOKIT_UPDATE_GOLDEN") == "1" {
		if err := os.WriteFile(path, b.Bytes(), 0o644); err != nil {
			t.Fatal(err)
		}
	}
	have, err := os.ReadFile(path)
	if err != nil {
		t.Fatalf("%s is missing; run `go tool mage docs` (or TAKOKIT_UPDATE_GOLDEN=1 go test) to generate it: %v", path, err)
	}
	if !bytes.Equal(have, b.Bytes()) {
		t.Errorf("%s is stale; run `go tool mage docs` (or TAKOKIT_UPDATE_GOLDEN=1 go test ./...) and commit it", path)
	}
}
