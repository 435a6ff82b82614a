package conformance

import (
	"os"
	"path/filepath"
	"regexp"
	"testing"
)

// protocolAnchors reads the anchors docs/protocol.md declares (<a id="...">).
func protocolAnchors(t *testing.T) map[string]bool {
	t.Helper()
	doc, err := os.ReadFile(filepath.Join("..", ProtocolDoc))
	if err != nil {
		t.Fatal(err)
	}
	out := map[string]bool{}
	for _, m := range regexp.MustCompile(`<a id="([^"]+)"></a>`).FindAllStringSubmatch(string(doc), -1) {
		out[m[1]] = true
	}
	if len(out) < 20 {
		t.Fatalf("found only %d anchors in %s; the pattern no longer matches how the page declares them", len(out), ProtocolDoc)
	}
	return out
}

// missingAnchors lists the checks whose anchor the page does not declare.
func missingAnchors(checks []Check, anchors map[string]bool) []string {
	var out []string
	for _, c := range checks {
		if !anchors[c.ProtocolAnchor()] {
			out = append(out, c.ID+" → "+c.ProtocolLink())
		}
	}
	return out
}

// TestEveryCheckLinksAnAnchorOfTheProtocol: every check of the table links an
// anchor docs/protocol.md declares, so a report's link always lands.
func TestEveryCheckLinksAnAnchorOfTheProtocol(t *testing.T) {
	anchors := protocolAnchors(t)
	for _, m := range missingAnchors(Table(), anchors) {
		t.Errorf("check %s: %s declares no such anchor", m, ProtocolDoc)
	}
	for _, a := range Areas() {
		if !anchors[areaAnchors[a]] {
			t.Errorf("area %q: anchor %q is not in %s", a, areaAnchors[a], ProtocolDoc)
		}
	}
	for id := range checkAnchors {
		if KnownIDs([]string{id}) != nil {
			t.Errorf("checkAnchors names %q, which is no check of the table", id)
		}
	}
	// The test itself catches a check whose anchor the page lacks.
	if got := missingAnchors([]Check{{ID: "x", Area: AreaIdentity, Anchor: "no-such-section"}}, anchors); len(got) != 1 {
		t.Errorf("a check linking a missing anchor was not caught: %v", got)
	}
}

func TestProtocolAnchorPrecedence(t *testing.T) {
	cases := []struct {
		c    Check
		want string
	}{
		{Check{ID: "revision-etag-exact", Area: AreaIdentity}, "headers"},                // checkAnchors
		{Check{ID: "some-new-check", Area: AreaIdentity}, "fences"},                      // the area's
		{Check{ID: "revision-etag-exact", Area: AreaIdentity, Anchor: "json"}, "json"},   // its own
		{Check{ID: "some-new-check", Area: AreaTransitions, Anchor: "probes"}, "probes"}, // its own
	}
	for _, c := range cases {
		if got := c.c.ProtocolAnchor(); got != c.want {
			t.Errorf("%s (area %s, Anchor %q): anchor %q, want %q", c.c.ID, c.c.Area, c.c.Anchor, got, c.want)
		}
	}
	if got := (Check{ID: "x", Area: AreaOutputs}).ProtocolLink(); got != "docs/protocol.md#outputs" {
		t.Errorf("ProtocolLink = %q", got)
	}
}
