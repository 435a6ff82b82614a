package release

import (
	"os"
	"os/exec"
	"path/filepath"
	"slices"
	"strings"
	"testing"
)

// TestSnapshotReportsAFailedGoreleaser: a goreleaser that exits non-zero fails the
// snapshot, naming its arguments, with what it printed kept in the log.
func TestSnapshotReportsAFailedGoreleaser(t *testing.T) {
	fake := filepath.Join(t.TempDir(), "goreleaser")
	if err := os.WriteFile(fake, []byte("#!/bin/sh\necho \"it went wrong: $*\"\nexit 3\n"), 0o755); err != nil {
		t.Fatal(err)
	}
	var log strings.Builder
	err := Snapshot(fake, t.TempDir(), "cfg.yaml", &log)
	if want := "goreleaser release --snapshot --clean --skip=publish,sign --config cfg.yaml: exit status 3"; err == nil || err.Error() != want {
		t.Errorf("Snapshot = %v, want %s", err, want)
	}
	if !strings.Contains(log.String(), "it went wrong: release --snapshot --clean --skip=publish,sign --config cfg.yaml") {
		t.Errorf("the log lacks goreleaser's output:\n%s", log.String())
	}
}

// TestGitEnvNamesARemoteOnlyWhenNoneIs: a repository without a remote gets one
// through git's environment, naming itself; one with a remote gets nothing, and
// neither does a caller who set GIT_CONFIG_COUNT (ours would replace theirs).
func TestGitEnvNamesARemoteOnlyWhenNoneIs(t *testing.T) {
	if _, err := exec.LookPath("git"); err != nil {
		t.Fatal("git is not installed; the release needs it")
	}
	t.Setenv("GIT_CONFIG_COUNT", "")
	os.Unsetenv("GIT_CONFIG_COUNT")
	repo := t.TempDir()
	git := func(args ...string) {
		t.Helper()
		cmd := exec.Command("git", args...)
		cmd.Dir = repo
		if out, err := cmd.CombinedOutput(); err != nil {
			t.Fatalf("git %v: %v\n%s", args, err, out)
		}
	}
	git("init", "-q")
	want := []string{"GIT_CONFIG_COUNT=1", "GIT_CONFIG_KEY_0=remote.origin.url", "GIT_CONFIG_VALUE_0=" + repo}
	if got := gitEnv(repo); !slices.Equal(got, want) {
		t.Errorf("without a remote: %v, want %v", got, want)
	}
	// a configuration git accepts (one it refused would fail `git remote` first)
	t.Setenv("GIT_CONFIG_COUNT", "1")
	t.Setenv("GIT_CONFIG_KEY_0", "user.name")
	t.Setenv("GIT_CONFIG_VALUE_0", "someone")
	if got := gitEnv(repo); got != nil {
		t.Errorf("with the caller's GIT_CONFIG_COUNT: %v, want nothing", got)
	}
	os.Unsetenv("GIT_CONFIG_COUNT")
	git("remote", "add", "origin", "https://example.invalid/x.git")
	if got := gitEnv(repo); got != nil {
		t.Errorf("with a remote: %v, want nothing", got)
	}
	if got := gitEnv(filepath.Join(repo, "missing")); got != nil {
		t.Errorf("outside a repository: %v, want nothing", got)
	}
}
