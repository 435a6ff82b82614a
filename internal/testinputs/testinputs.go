// Package testinputs tells `go test`'s result cache about inputs it cannot see.
//
// go test reuses a package's last result when its test binary, flags, the environment
// variables it read and the files it opened inside its module are unchanged. It does not
// see what a child process reads (goreleaser building the sources, OpenTofu running
// bin/terraform-provider-takoform, `go tool mage` building a family), nor files outside
// the package's module (bin/ for the provider and conformance modules). `go tool mage
// test` therefore puts two ids in the environment: BinID, of the binaries it built
// (EnvBinID), and TreeID, of every file of the work tree and those binaries (EnvTreeID).
// A test whose programs read only bin/ calls DeclareBin; one whose programs read the
// sources calls Declare. go test then keys the package's result on that id, so a change
// it covers reruns the package (docs/decisions.md#test-cache).
package testinputs

import (
	"bytes"
	"crypto/sha256"
	"encoding/hex"
	"fmt"
	"os"
	"os/exec"
	"path/filepath"
	"slices"
)

// EnvTreeID and EnvBinID are the environment variables that carry TreeID and BinID.
const (
	EnvTreeID = "TAKOKIT_TREE_ID"
	EnvBinID  = "TAKOKIT_BIN_ID"
)

// Declare reads EnvTreeID so that go test keys the calling package's result on the whole
// work tree: for tests whose programs read the sources. It returns the value, "" outside
// `go tool mage` (plain `go test` with -count=1 is then the way to rerun such a package).
func Declare() string {
	return os.Getenv(EnvTreeID)
}

// DeclareBin reads EnvBinID so that go test keys the calling package's result on the
// built binaries: for tests whose programs are bin/'s and read nothing else of the tree.
func DeclareBin() string {
	return os.Getenv(EnvBinID)
}

// Env is what `go tool mage` adds to every test job's environment: EnvTreeID and
// EnvBinID of the work tree at root and of its built binaries (paths relative to root).
func Env(root string, built ...string) ([]string, error) {
	tree, err := TreeID(root, built...)
	if err != nil {
		return nil, fmt.Errorf("the work tree's id for the test cache: %w", err)
	}
	return []string{EnvTreeID + "=" + tree, EnvBinID + "=" + BinID(root, built...)}, nil
}

// BinID hashes the path, size, mode and modification time of each file (relative to
// root; a missing one is hashed as missing).
func BinID(root string, files ...string) string {
	return hashStats(root, files)
}

// TreeID hashes the path, size, mode and modification time of every file git lists in
// root (tracked, and untracked unless ignored) and of each of the extra files (paths
// relative to root, such as the built binaries under the ignored bin/). A missing extra
// file is hashed as missing. Only metadata is read, as go test's own cache does for the
// files a test opens.
func TreeID(root string, extra ...string) (string, error) {
	cmd := exec.Command("git", "-C", root, "ls-files", "-z", "--cached", "--others", "--exclude-standard")
	var stderr bytes.Buffer
	cmd.Stderr = &stderr
	out, err := cmd.Output()
	if err != nil {
		return "", fmt.Errorf("git ls-files in %s: %v: %s", root, err, stderr.String())
	}
	var files []string
	for _, p := range bytes.Split(out, []byte{0}) {
		if len(p) > 0 {
			files = append(files, string(p))
		}
	}
	return hashStats(root, append(files, extra...)), nil
}

func hashStats(root string, files []string) string {
	files = slices.Clone(files)
	slices.Sort(files)
	files = slices.Compact(files)
	h := sha256.New()
	for _, f := range files {
		st, err := os.Lstat(filepath.Join(root, f))
		if err != nil {
			fmt.Fprintf(h, "%q missing\n", f)
			continue
		}
		fmt.Fprintf(h, "%q %d %o %d\n", f, st.Size(), st.Mode(), st.ModTime().UnixNano())
	}
	return hex.EncodeToString(h.Sum(nil))[:32]
}
