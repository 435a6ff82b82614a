package release

import (
	"fmt"
	"io"
	"os"
	"os/exec"
	"slices"
	"strings"
)

// SnapshotArgs are goreleaser's arguments for a snapshot release: everything built,
// archived and summed into dist, nothing published or signed.
var SnapshotArgs = []string{"release", "--snapshot", "--clean", "--skip=publish,sign"}

// Snapshot runs goreleaser's snapshot release in root (with config, when not empty), its
// output to w.
func Snapshot(goreleaser, root, config string, w io.Writer) error {
	args := slices.Clone(SnapshotArgs)
	if config != "" {
		args = append(args, "--config", config)
	}
	fmt.Fprintf(w, "+ (cd %s && %s %s)\n", root, goreleaser, strings.Join(args, " "))
	cmd := exec.Command(goreleaser, args...)
	cmd.Dir = root
	cmd.Env = append(os.Environ(), gitEnv(root)...)
	cmd.Stdout, cmd.Stderr = w, w
	if err := cmd.Run(); err != nil {
		return fmt.Errorf("goreleaser %s: %w", strings.Join(args, " "), err)
	}
	return nil
}

// gitEnv names a remote for git when the repository has none. goreleaser reads the remote
// URL with the commit; in a snapshot a failure there is ignored by replacing the commit,
// and so the version, with "none". The URL given is the repository itself, set through
// git's environment so no configuration file changes (docs/decisions.md).
func gitEnv(root string) []string {
	cmd := exec.Command("git", "remote")
	cmd.Dir = root
	out, err := cmd.Output()
	if err != nil || strings.TrimSpace(string(out)) != "" || os.Getenv("GIT_CONFIG_COUNT") != "" {
		return nil
	}
	return []string{"GIT_CONFIG_COUNT=1", "GIT_CONFIG_KEY_0=remote.origin.url", "GIT_CONFIG_VALUE_0=" + root}
}
