package guides

import (
	"bytes"
	"fmt"
	"io"
	"os"
	"os/exec"
	"path/filepath"
	"strings"
)

// Linked are the repository folders a guide's commands read but never write: the workdir
// links them. Copied are those the guides' commands write into (state, a CLI configuration,
// a provider mirror): the workdir holds a copy, so running the guides leaves the repository
// as it was.
var (
	Linked = []string{"bin", "catalog"}
	Copied = []string{"examples"}
)

// Workdir lays out under dir what a guide's commands see from the repository root:
// dir/repo with Linked linked and Copied copied (the files git tracks or would track, so
// state or a mirror left in the repository by hand is not copied), and, when reference is
// not empty, dir/shared/reference linked to it, so ../shared/reference reads as from a
// checkout beside shared/. It returns dir/repo.
func Workdir(repo, dir, reference string) (string, error) {
	root := filepath.Join(dir, "repo")
	if err := os.MkdirAll(root, 0o755); err != nil {
		return "", err
	}
	for _, l := range Linked {
		if err := os.Symlink(filepath.Join(repo, l), filepath.Join(root, l)); err != nil {
			return "", err
		}
	}
	if reference != "" {
		if err := os.MkdirAll(filepath.Join(dir, "shared"), 0o755); err != nil {
			return "", err
		}
		if err := os.Symlink(reference, filepath.Join(dir, "shared", "reference")); err != nil {
			return "", err
		}
	}
	args := append([]string{"ls-files", "-z", "--cached", "--others", "--exclude-standard", "--"}, Copied...)
	cmd := exec.Command("git", args...)
	cmd.Dir = repo
	var stderr bytes.Buffer
	cmd.Stderr = &stderr
	list, err := cmd.Output()
	if err != nil {
		return "", fmt.Errorf("git ls-files in %s (the guides' files are copied from the checkout): %v: %s", repo, err, stderr.String())
	}
	for _, rel := range strings.Split(string(list), "\x00") {
		if rel == "" {
			continue
		}
		if err := copyFile(filepath.Join(repo, rel), filepath.Join(root, rel)); err != nil && !os.IsNotExist(err) {
			return "", err
		}
	}
	return root, nil
}

func copyFile(from, to string) error {
	in, err := os.Open(from)
	if err != nil {
		return err
	}
	defer in.Close()
	st, err := in.Stat()
	if err != nil {
		return err
	}
	if err := os.MkdirAll(filepath.Dir(to), 0o755); err != nil {
		return err
	}
	out, err := os.OpenFile(to, os.O_CREATE|os.O_WRONLY|os.O_TRUNC, st.Mode().Perm())
	if err != nil {
		return err
	}
	if _, err := io.Copy(out, in); err != nil {
		out.Close()
		return err
	}
	return out.Close()
}
