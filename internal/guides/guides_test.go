package guides

import (
	"math/rand/v2"
	"net"
	"os"
	"os/exec"
	"path/filepath"
	"strconv"
	"strings"
	"sync"
	"testing"

	"github.com/takokit/takokit/catalog/reftest"
	"github.com/takokit/takokit/internal/testinputs"
)

// TestGuides runs every docs/guides/*.md, a new guide included: each one's command blocks
// in order in a shell session of its own, in a copy of the repository (Workdir) against the
// binaries of bin/, matching the output blocks and comparing the files the guide shows. It
// needs bin/ (`go tool mage build tofu`; `go tool mage test` builds it first) and fails,
// never skips, when a binary is missing. The guide's host address 127.0.0.1:8484 becomes a
// free port, so the guides run beside each other and beside a host a developer keeps there.
func TestGuides(t *testing.T) {
	testinputs.DeclarePart("SOURCES") // runs programs that read the tree but its tests: docs/decisions.md#test-cache
	repo, err := filepath.Abs(filepath.Join("..", ".."))
	if err != nil {
		t.Fatal(err)
	}
	for _, b := range requiredBinaries {
		if _, err := os.Stat(filepath.Join(repo, "bin", b)); err != nil {
			t.Fatalf("the guides run bin/%s, which is missing: run `go tool mage build tofu` (or `go tool mage test`) first", b)
		}
	}
	guides, err := filepath.Glob(filepath.Join(repo, "docs", "guides", "*.md"))
	if err != nil || len(guides) == 0 {
		t.Fatalf("no guide under docs/guides (%v)", err)
	}
	reference, hasReference := reftest.Find(repo)
	goEnv := goEnvironment(t)
	for _, g := range guides {
		name := "docs/guides/" + filepath.Base(g)
		t.Run(strings.TrimSuffix(filepath.Base(g), ".md"), func(t *testing.T) {
			t.Parallel() // its own copy of the repository, home, session and port
			text, err := os.ReadFile(g)
			if err != nil {
				t.Fatal(err)
			}
			blocks, err := Parse(name, string(text))
			if err != nil {
				t.Fatal(err)
			}
			ref, skip := "", func(Block) string { return "" }
			if needsReference(blocks) {
				switch {
				case hasReference:
					ref = reference
				case os.Getenv("CI") == "true":
					t.Fatalf("%s reads the published reference documents, absent at %s: set TAKOKIT_REFERENCE_DIR", name, reference)
				default:
					skip = func(b Block) string {
						if b.Needs == "reference" {
							return "the published reference documents are absent at " + reference + " (set TAKOKIT_REFERENCE_DIR; CI fails here)"
						}
						return ""
					}
				}
			}
			dir := t.TempDir()
			root, copied, err := Workdir(repo, dir, ref)
			if err != nil {
				t.Fatal(err)
			}
			state := filepath.Join(dir, "state")
			home := filepath.Join(dir, "home")
			for _, d := range []string{state, home} {
				if err := os.Mkdir(d, 0o755); err != nil {
					t.Fatal(err)
				}
			}
			port := freePort(t)
			s, err := NewSession(root, state, guideEnv(home, port, goEnv))
			if err != nil {
				t.Fatal(err)
			}
			r := &Runner{Session: s, Repo: repo, Log: t.Logf, Skip: skip,
				Rewrite: strings.NewReplacer("127.0.0.1:8484", "127.0.0.1:"+port, "localhost:8484", "localhost:"+port)}
			rep, err := r.Run(name, blocks)
			if err != nil {
				t.Fatal(err)
			}
			left, err := Unignored(repo, root, copied)
			if err != nil {
				t.Fatal(err)
			}
			if len(left) > 0 {
				t.Errorf("%s leaves files in the checkout that git would offer to commit (ignore them in the folder's .gitignore): %s", name, strings.Join(left, ", "))
			}
			t.Logf("%s: %s", name, rep)
			if len(rep.Skipped) > 0 {
				t.Skipf("%s: %d command blocks could not run here: %s", name, len(rep.Skipped), strings.Join(rep.Skipped, "; "))
			}
		})
	}
}

// requiredBinaries are what the guides run; `go tool mage build tofu` writes them.
var requiredBinaries = []string{"tofu", "hostsim", "conformance", "terraform-provider-takoform", "v1alpha3/terraform-provider-takoform"}

func needsReference(blocks []Block) bool {
	for _, b := range blocks {
		if b.Needs == "reference" && b.NotRun == "" {
			return true
		}
	}
	return false
}

// guideEnv is the environment a guide starts from: the caller's, without what would steer
// OpenTofu, the provider, hostsim or the runner behind the guide's back, with a home of its
// own (no ~/.tofurc of the developer) and the Go caches of the caller. A hostsim serve
// without --addr lands on the guide's port too.
func guideEnv(home, port string, goEnv []string) []string {
	var env []string
	for _, kv := range os.Environ() {
		k, _, _ := strings.Cut(kv, "=")
		if k == "HOME" || k == "PWD" || k == "OLDPWD" || strings.HasPrefix(k, "GO") {
			continue
		}
		drop := false
		for _, p := range []string{"TF_", "TOFU_", "TAKOFORM_", "TAKOKIT_", "TAKO_", "HOSTSIM_", "CHECKPOINT_"} {
			drop = drop || strings.HasPrefix(k, p)
		}
		if !drop {
			env = append(env, kv)
		}
	}
	return append(append(env, goEnv...), "HOME="+home, "CHECKPOINT_DISABLE=1", "HOSTSIM_ADDR=127.0.0.1:"+port)
}

// goEnvironment keeps the caller's Go caches and toolchain choice in a guide's session,
// whose home is new.
func goEnvironment(t *testing.T) []string {
	keys := []string{"GOPATH", "GOCACHE", "GOMODCACHE", "GOTOOLCHAIN", "GOFLAGS", "GOPROXY"}
	out, err := exec.Command("go", append([]string{"env"}, keys...)...).Output()
	if err != nil {
		t.Fatalf("go env: %v", err)
	}
	var env []string
	for i, v := range strings.Split(strings.TrimRight(string(out), "\n"), "\n") {
		if i < len(keys) && v != "" {
			env = append(env, keys[i]+"="+v)
		}
	}
	return env
}

// freePort is a loopback port free now and below the kernel's ephemeral range. The
// guide's server binds it a moment later, once the guide's shell has started it, and a
// port from that range could be handed in between to a bind of port 0 or to an outgoing
// connection: the scenarios running beside the guides open thousands. A port is handed
// out once per process.
func freePort(t *testing.T) string {
	t.Helper()
	low := ephemeralLow()
	portsMu.Lock()
	defer portsMu.Unlock()
	for range 500 {
		p := portsFrom + rand.IntN(low-portsFrom)
		if portsGiven[p] {
			continue
		}
		l, err := net.Listen("tcp", "127.0.0.1:"+strconv.Itoa(p))
		if err != nil {
			continue
		}
		l.Close()
		portsGiven[p] = true
		return strconv.Itoa(p)
	}
	t.Fatalf("no free loopback port in %d-%d", portsFrom, low-1)
	return ""
}

// portsFrom is the lowest port freePort hands out.
const portsFrom = 20000

var (
	portsMu    sync.Mutex
	portsGiven = map[int]bool{}
)

// ephemeralLow is the first port of the kernel's ephemeral range (Linux's
// ip_local_port_range; 32768, its default, when it cannot be read or leaves no room).
func ephemeralLow() int {
	b, err := os.ReadFile("/proc/sys/net/ipv4/ip_local_port_range")
	if err == nil {
		if f := strings.Fields(string(b)); len(f) == 2 {
			if n, err := strconv.Atoi(f[0]); err == nil && n > portsFrom+1000 {
				return n
			}
		}
	}
	return 32768
}

// The guides' ports come from below the ephemeral range, each once.
func TestFreePortsAreBelowTheEphemeralRange(t *testing.T) {
	seen := map[string]bool{}
	for range 50 {
		p := freePort(t)
		n, _ := strconv.Atoi(p)
		if n < portsFrom || n >= ephemeralLow() || seen[p] {
			t.Fatalf("freePort gave %s (seen before: %v); want a new port in %d-%d", p, seen[p], portsFrom, ephemeralLow()-1)
		}
		seen[p] = true
	}
}
