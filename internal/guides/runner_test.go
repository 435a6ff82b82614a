package guides

import (
	"os"
	"path/filepath"
	"strings"
	"testing"
)

// runGuide runs a guide given as text in a fresh session over an empty repository copy.
func runGuide(t *testing.T, guide string) (Report, error) {
	t.Helper()
	blocks, err := Parse("g.md", guide)
	if err != nil {
		t.Fatal(err)
	}
	dir := t.TempDir()
	root, state := filepath.Join(dir, "repo"), filepath.Join(dir, "state")
	for _, d := range []string{root, state} {
		if err := os.Mkdir(d, 0o755); err != nil {
			t.Fatal(err)
		}
	}
	if err := os.WriteFile(filepath.Join(root, "shown.txt"), []byte("a file\n"), 0o644); err != nil {
		t.Fatal(err)
	}
	s, err := NewSession(root, state, []string{"PATH=" + os.Getenv("PATH"), "GREETING=it's \"quoted\""})
	if err != nil {
		t.Fatal(err)
	}
	r := &Runner{Session: s, Repo: root, Rewrite: strings.NewReplacer("127.0.0.1:8484", "127.0.0.1:1")}
	return r.Run("g.md", blocks)
}

func TestRunnerKeepsTheSessionBetweenBlocks(t *testing.T) {
	rep, err := runGuide(t, "```sh\nmkdir -p sub && cd sub\nexport NAME=tako\n```\n"+
		"```sh\necho \"$NAME in $(basename \"$PWD\"); $GREETING\"\n```\n"+
		"<!-- guide: output -->\n```\ntako in sub; it's \"quoted\"\n```\n"+
		"<!-- guide: input \"yes\" -->\n```sh\nread answer && echo \"answered $answer\"\n```\n"+
		"<!-- guide: output -->\n```\nanswered yes\n```\n"+
		"<!-- guide: file sub/saved.txt -->\n```text\nhello from 127.0.0.1:8484\n```\n"+
		"```sh\ncat saved.txt\n```\n"+
		"<!-- guide: output -->\n```\nhello from 127.0.0.1:1\n```\n"+
		"<!-- guide: same as shown.txt -->\n```text\na file\n```\n"+
		"<!-- guide: exit 3 -->\n```sh\ntrue\nexit 3\n```\n"+
		"<!-- guide: not run: it needs a person -->\n```sh\nfalse\n```\n")
	if err != nil {
		t.Fatal(err)
	}
	if rep.Ran != 5 || rep.Outputs != 3 || rep.Files != 1 || rep.Shown != 1 || len(rep.NotRun) != 1 {
		t.Errorf("report %s", rep)
	}
}

func TestRunnerFailsWhereTheGuideIsWrong(t *testing.T) {
	for _, c := range []struct{ guide, want string }{
		{"```sh\nfalse\necho never\n```\n", "g.md:1: exit status 1, the guide expects 0"},
		{"```sh\nfalse | true\n```\n", "exit status 1"},
		{"<!-- guide: exit 2 -->\n```sh\ntrue\n```\n", "exit status 0, the guide expects 2"},
		{"```sh\necho hello\n```\n<!-- guide: output -->\n```\nhello world\n```\n", `lacks the line "hello world"`},
		{"<!-- guide: output -->\n```\nx\n```\n", "follows no command block"},
		{"<!-- guide: same as shown.txt -->\n```text\nanother file\n```\n", "differs from shown.txt"},
		{"<!-- guide: same as missing.txt -->\n```text\nx\n```\n", "cannot be read"},
		{"<!-- guide: background until \"ready\" -->\n```sh\necho starting; exit 1\n```\n", "ended"},
	} {
		_, err := runGuide(t, c.guide)
		if err == nil || !strings.Contains(err.Error(), c.want) {
			t.Errorf("guide %q: %v, want an error with %q", c.guide, err, c.want)
		}
	}
}

func TestBackgroundBlockRunsUntilTheNextOneOrTheEnd(t *testing.T) {
	// The background block writes a file while it runs and another when Ctrl-C stops it.
	rep, err := runGuide(t, "<!-- guide: background until \"up\" -->\n```sh\n"+
		"trap 'echo stopped > stopped.txt; exit 0' INT\necho up\nwhile :; do sleep 0.05; done\n```\n"+
		"<!-- guide: output -->\n```\nup\n```\n"+
		"```sh\ntest ! -e stopped.txt\n```\n"+
		"<!-- guide: background until \"second\" -->\n```sh\ntest -e stopped.txt\necho second\nsleep 60\n```\n")
	if err != nil {
		t.Fatal(err)
	}
	if rep.Background != 2 || rep.Ran != 1 || rep.Outputs != 1 {
		t.Errorf("report %s", rep)
	}
}

func TestRunnerSkipsWhatCannotRunHereWithItsOutputs(t *testing.T) {
	blocks, err := Parse("g.md", "```sh\necho one\n```\n"+
		"<!-- guide: needs reference -->\n```sh\nfalse\n```\n<!-- guide: output -->\n```\nnever printed\n```\n"+
		"```sh\necho three\n```\n<!-- guide: output -->\n```\nthree\n```\n")
	if err != nil {
		t.Fatal(err)
	}
	dir := t.TempDir()
	s, err := NewSession(dir, dir, []string{"PATH=" + os.Getenv("PATH")})
	if err != nil {
		t.Fatal(err)
	}
	skip := func(b Block) string {
		if b.Needs == "reference" {
			return "absent"
		}
		return ""
	}
	rep, err := (&Runner{Session: s, Repo: dir, Skip: skip}).Run("g.md", blocks)
	if err != nil {
		t.Fatal(err)
	}
	if rep.Ran != 2 || rep.Outputs != 1 || len(rep.Skipped) != 1 || rep.Skipped[0] != "line 5: absent" {
		t.Errorf("report %s", rep)
	}
}

func TestRunnerStopsABlockThatDoesNotEnd(t *testing.T) {
	blocks, err := Parse("g.md", "```sh\nsleep 30\n```\n")
	if err != nil {
		t.Fatal(err)
	}
	dir := t.TempDir()
	s, err := NewSession(dir, dir, []string{"PATH=" + os.Getenv("PATH")})
	if err != nil {
		t.Fatal(err)
	}
	s.Timeout = 200 * 1e6 // 200ms
	_, err = (&Runner{Session: s, Repo: dir}).Run("g.md", blocks)
	if err == nil || !strings.Contains(err.Error(), "did not finish") {
		t.Fatalf("a block that does not end: %v", err)
	}
}
