package guides

import (
	"strings"
	"testing"
)

func TestParseReadsBlocksAndDirectives(t *testing.T) {
	guide := "# A guide\n\n" +
		"<!-- guide: background until \"listening on\" -->\n```sh\nbin/hostsim serve\n```\n\n" +
		"<!-- guide: output -->\n```\nhostsim full listening on …\n```\n\n" +
		"<!-- guide: input \"yes\" -->\n<!-- guide: exit 1 -->\n```sh\nbin/tofu apply\n```\n\n" +
		"<!-- guide: not run: it builds for minutes -->\n```sh\ngo tool mage build tofu\n```\n\n" +
		"<!-- guide: same as examples/getting-started/main.tf -->\n```hcl\nprovider \"takoform\" {}\n```\n\n" +
		"<!-- guide: file queue-less.json -->\n```json\n{}\n```\n\n" +
		"```sh\ncurl http://127.0.0.1:8484/_sim/health\n```\n"
	blocks, err := Parse("g.md", guide)
	if err != nil {
		t.Fatal(err)
	}
	if len(blocks) != 7 {
		t.Fatalf("got %d blocks, want 7: %+v", len(blocks), blocks)
	}
	checks := []struct {
		ok   bool
		what string
	}{
		{blocks[0].Background == "listening on" && blocks[0].IsCommand() && blocks[0].Line == 4, "background until"},
		{blocks[1].Output && blocks[1].Body == "hostsim full listening on …\n" && !blocks[1].IsCommand(), "output"},
		{blocks[2].Input == "yes\n" && blocks[2].Exit == 1, "input and exit"},
		{blocks[3].NotRun == "it builds for minutes", "not run"},
		{blocks[4].SameAs == "examples/getting-started/main.tf" && blocks[4].Lang == "hcl", "same as"},
		{blocks[5].File == "queue-less.json", "file"},
		{blocks[6].IsCommand() && blocks[6].Directives == (Directives{}), "an unmarked command block is run"},
	}
	for _, c := range checks {
		if !c.ok {
			t.Errorf("%s not parsed: %+v", c.what, blocks)
		}
	}
}

func TestParseRefusesWhatWouldEscapeTheTest(t *testing.T) {
	for _, c := range []struct{ guide, want string }{
		{"<!-- guide: skip -->\n```sh\nx\n```\n", "unknown guide: directive"},
		{"<!-- guide: not run: -->\n```sh\nx\n```\n", "says why"},
		{"<!-- guide: output -->\n\n```\nx\n```\n", "right before the fenced block"},
		{"<!-- guide: output -->\ntext\n```\nx\n```\n", "right before the fenced block"},
		{"text\n<!-- guide: output -->\n", "marks no block"},
		{"```sh\nnever closed\n", "never closed"},
		{"```\n$ go tool mage provider:family DIR\n```\n", "write commands in a ```sh block"},
		{"<!-- guide: output -->\n```sh\nx\n```\n", "not a command block"},
		{"<!-- guide: exit 2 -->\n```json\n{}\n```\n", "mark a command block"},
		{"<!-- guide: not run: slow -->\n<!-- guide: exit 2 -->\n```sh\nx\n```\n", "no other directive"},
		{"<!-- guide: background until listening -->\n```sh\nx\n```\n", "guide: background until listening"},
		{"<!-- guide: output\n```\nx\n```\n", "ends with -->"},
	} {
		_, err := Parse("g.md", c.guide)
		if err == nil || !strings.Contains(err.Error(), c.want) {
			t.Errorf("Parse(%q) = %v, want an error with %q", c.guide, err, c.want)
		}
	}
}

func TestMatchOutput(t *testing.T) {
	out := "\x1b[1mPlan:\x1b[0m 6 to add\n\n  hostname = \"e3c1.endpoints.sim.takokit.test\"\n  port = 443\n"
	if err := MatchOutput("hostname = \"….endpoints.sim.takokit.test\"\nport = 443\n", out); err != nil {
		t.Errorf("wildcards, indentation and colours: %v", err)
	}
	if err := MatchOutput("Plan: ... to add", out); err != nil {
		t.Errorf("... is a wildcard too: %v", err)
	}
	if err := MatchOutput("port = 443\nhostname = …", out); err == nil || !strings.Contains(err.Error(), "hostname = …") {
		t.Errorf("lines out of order must not match: %v", err)
	}
	if err := MatchOutput("port = 4431", out); err == nil {
		t.Error("a line matches as a whole, not as a prefix")
	}
	if err := MatchOutput("port = 44", out); err == nil {
		t.Error("a line matches as a whole, not as a part")
	}
}
