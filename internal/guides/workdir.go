package guides

import (
	"bytes"
	"errors"
	"fmt"
	"io"
	"io/fs"
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
// checkout beside shared/. It returns dir/repo and the files it copied (slash-separated,
// relative to it).
func Workdir(repo, dir, reference string) (string, []string, error) {
	root := filepath.Join(dir, "repo")
	if err := os.MkdirAll(root, 0o755); err != nil {
		return "", nil, err
	}
	for _, l := range Linked {
		if err := os.Symlink(filepath.Join(repo, l), filepath.Join(root, l)); err != nil {
			return "", nil, err
		}
	}
	if reference != "" {
		if err := os.MkdirAll(filepath.Join(dir, "shared"), 0o755); err != nil {
			return "", nil, err
		}
		if err := os.Symlink(reference, filepath.Join(dir, "shared", "reference")); err != nil {
			return "", nil, err
		}
	}
	list, err := git(repo, nil, append([]string{"ls-files", "-z", "--cached", "--others", "--exclude-standard", "--"}, Copied...)...)
	if err != nil {
		return "", nil, fmt.Errorf("the guides' files are copied from the checkout: %v", err)
	}
	var copied []string
	for _, rel := range list {
		err := copyFile(filepath.Join(repo, filepath.FromSlash(rel)), filepath.Join(root, filepath.FromSlash(rel)))
		if err == nil {
			copied = append(copied, rel)
		} else if !os.IsNotExist(err) {
			return "", nil, err
		}
	}
	return root, copied, nil
}

// Unignored returns the files a guide's commands left in the Copied folders under root that
// the repository's .gitignore files do not ignore: what a reader following the guide in the
// checkout would be offered to commit (state, a CLI configuration, a provider mirror).
func Unignored(repo, root string, copied []string) ([]string, error) {
	was := map[string]bool{}
	for _, c := range copied {
		was[c] = true
	}
	var left []string
	for _, c := range Copied {
		err := filepath.WalkDir(filepath.Join(root, c), func(path string, d fs.DirEntry, err error) error {
			if err != nil || d.IsDir() {
				return err
			}
			rel, err := filepath.Rel(root, path)
			if rel = filepath.ToSlash(rel); err == nil && !was[rel] {
				left = append(left, rel)
			}
			return err
		})
		if err != nil {
			return nil, err
		}
	}
	if len(left) == 0 {
		return nil, nil
	}
	ignored, err := git(repo, left, "check-ignore", "--no-index", "-z", "--stdin")
	if err != nil {
		return nil, err
	}
	skip := map[string]bool{}
	for _, i := range ignored {
		skip[i] = true
	}
	var out []string
	for _, l := range left {
		if !skip[l] {
			out = append(out, l)
		}
	}
	return out, nil
}

// git runs git in repo with the paths on standard input (NUL-separated) and returns the
// NUL-separated paths it prints. check-ignore's status 1 (nothing ignored) is no error.
func git(repo string, stdin []string, args ...string) ([]string, error) {
	// -C rather than a working directory: a child started in the repository's root would
	// have go test key the caller's cached result on the root directory, which every mage
	// run touches (docs/decisions.md#test-cache)
	cmd := exec.Command("git", append([]string{"-C", repo}, args...)...)
	cmd.Stdin = strings.NewReader(strings.Join(stdin, "\x00"))
	var stderr bytes.Buffer
	cmd.Stderr = &stderr
	out, err := cmd.Output()
	var exit *exec.ExitError
	if err != nil && !(args[0] == "check-ignore" && errors.As(err, &exit) && exit.ExitCode() == 1) {
		return nil, fmt.Errorf("git %s in %s: %v: %s", strings.Join(args, " "), repo, err, stderr.String())
	}
	var paths []string
	for _, p := range strings.Split(string(out), "\x00") {
		if p != "" {
			paths = append(paths, p)
		}
	}
	return paths, nil
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
