package scripts

import (
	"bufio"
	"encoding/json"
	"fmt"
	"net/http"
	"os"
	"os/exec"
	"path/filepath"
	"strings"
	"testing"
	"time"
)

// BenchmarkTofuPlan200 measures, through the real OpenTofu CLI in one run, what takokit adds
// to a plan over a bare terraform-plugin-framework provider serving the very same schemas
// with no behaviour (provider/cmd/bareprovider, built here from the same catalog), and
// prints the ratios next to their targets (docs/decisions.md, "plan cost"):
//
//	go tool mage build tofu
//	go test -run '^$' -bench TofuPlan200 -benchtime 3x ./scripts
//
// Cases, each against `hostsim --profile full`: a plan of 10 resources (wall time of
// `tofu plan`), a create plan of 200 and a refresh plan of 200 existing resources (CPU of
// the provider processes only, charged through scripts/internal/cpuwrap; the refresh plan
// also with the SDK's trace lines off in both providers, the work alone), and the
// shortest provider process (the start that serves only the schema). It fails unless a
// create plan of 200 makes exactly one support request per distinct route.
func BenchmarkTofuPlan200(b *testing.B) {
	bin, err := filepath.Abs("../bin")
	if err != nil {
		b.Fatal(err)
	}
	for _, name := range []string{"tofu", "hostsim", "terraform-provider-takoform"} {
		if _, err := os.Stat(filepath.Join(bin, name)); err != nil {
			b.Skipf("%s is missing: run `go tool mage build tofu` first", filepath.Join(bin, name))
		}
	}
	benchTofuPath = filepath.Join(bin, "tofu")
	dir := b.TempDir()
	tk := benchProviders(b, bin, dir)
	url, admin := benchHostsim(b, bin, dir)
	env := benchEnv(dir, url, tk.schema)
	// Our provider turns the SDK's trace lines off for itself unless the user asks for
	// them; the bare provider writes them, as a framework provider does. The refresh plan
	// runs twice: as each provider runs for a user, and with the lines off in both, the
	// comparison of the work alone (docs/decisions.md, "plan cost").
	quiet := append(env[:len(env):len(env)], "TF_LOG_SDK=off")
	tako10 := benchDir(b, dir, "tako10", benchTakoformConfig(10))
	bare10 := benchDir(b, dir, "bare10", benchTakoformConfig(10))
	data10 := benchDir(b, dir, "data10", benchDataConfig(10))
	tako200 := benchDir(b, dir, "tako200", benchTakoformConfig(200))
	bare200 := benchDir(b, dir, "bare200", benchTakoformConfig(200))
	takoRefresh := benchDir(b, dir, "takoRefresh", benchTakoformConfig(200))
	bareRefresh := benchDir(b, dir, "bareRefresh", benchTakoformConfig(200))
	takoRC, bareRC, wrapRC := tk.rc(b, "tako", bin), tk.rc(b, "bare", tk.bare), tk.rc(b, "wrap", tk.wrap)
	benchTofu(b, "apply", takoRefresh, env, takoRC, "Apply complete! Resources: 200 added")
	benchTofu(b, "apply", bareRefresh, env, bareRC, "Apply complete! Resources: 200 added")

	const routes = 11 // 5 Form routes + edge.queue, edge.kv, edge.objects, edge.sql, worker.runtime, worker.service
	var m benchFigures
	b.ResetTimer()
	for i := 0; i < b.N; i++ {
		// the providers take turns at going first, so neither always plans right after the
		// previous iteration's refresh plans left the machine and the host busy
		if i%2 == 0 {
			m.wall10Tako += benchTofu(b, "plan", tako10, env, takoRC, "Plan: 10 to add").wall
			m.wall10Bare += benchTofu(b, "plan", bare10, env, bareRC, "Plan: 10 to add").wall
		} else {
			m.wall10Bare += benchTofu(b, "plan", bare10, env, bareRC, "Plan: 10 to add").wall
			m.wall10Tako += benchTofu(b, "plan", tako10, env, takoRC, "Plan: 10 to add").wall
		}
		m.wall10Data += benchTofu(b, "plan", data10, env, takoRC, "Plan: 10 to add").wall

		before := benchSupportReads(b, admin)
		m.createTako.add(tk.wrapped(b, tako200, env, wrapRC, filepath.Join(bin, "terraform-provider-takoform"), "Plan: 200 to add"))
		if got := benchSupportReads(b, admin) - before; got != routes {
			b.Fatalf("tofu plan of 200 takoform resources made %d support requests, want %d (one per distinct route)", got, routes)
		}
		m.createBare.add(tk.wrapped(b, bare200, env, wrapRC, tk.bareExe(), "Plan: 200 to add"))
		m.refreshTako.add(tk.wrapped(b, takoRefresh, env, wrapRC, filepath.Join(bin, "terraform-provider-takoform"), "No changes."))
		m.refreshBare.add(tk.wrapped(b, bareRefresh, env, wrapRC, tk.bareExe(), "No changes."))
		m.quietTako.add(tk.wrapped(b, takoRefresh, quiet, wrapRC, filepath.Join(bin, "terraform-provider-takoform"), "No changes."))
		m.quietBare.add(tk.wrapped(b, bareRefresh, quiet, wrapRC, tk.bareExe(), "No changes."))
	}
	b.StopTimer()
	m.report(b)
}

// benchFigures accumulates every iteration's measurements.
type benchFigures struct {
	wall10Tako, wall10Bare, wall10Data               time.Duration
	createTako, createBare, refreshTako, refreshBare benchCPU
	quietTako, quietBare                             benchCPU // the refresh plan, SDK lines off in both
}

// benchCPU is what the provider processes of some plans cost.
type benchCPU struct {
	plans    int
	cpu      time.Duration // user+sys of every provider process
	shortest time.Duration // wall of the shortest provider process seen
}

func (c *benchCPU) add(procs []benchProc) {
	c.plans++
	for _, p := range procs {
		c.cpu += p.cpu
		if c.shortest == 0 || p.wall < c.shortest {
			c.shortest = p.wall
		}
	}
}

func (c benchCPU) perPlan() float64 { return c.cpu.Seconds() / float64(c.plans) }

func (m benchFigures) report(b *testing.B) {
	n := float64(b.N)
	w10t, w10b, w10d := m.wall10Tako.Seconds()/n, m.wall10Bare.Seconds()/n, m.wall10Data.Seconds()/n
	ct, cb := m.createTako.perPlan(), m.createBare.perPlan()
	rt, rb := m.refreshTako.perPlan(), m.refreshBare.perPlan()
	qt, qb := m.quietTako.perPlan(), m.quietBare.perPlan()
	st, sb := min(m.createTako.shortest, m.refreshTako.shortest).Seconds(), min(m.createBare.shortest, m.refreshBare.shortest).Seconds()
	b.ReportMetric(w10t/w10b, "plan10-wall-ratio")
	b.ReportMetric(ct/cb, "create200-cpu-ratio")
	b.ReportMetric(rt/rb, "refresh200-cpu-ratio")
	b.ReportMetric(qt/qb, "refresh200-quiet-cpu-ratio")
	b.ReportMetric(st*1000, "schema-only-ms")
	b.ReportMetric(0, "ns/op") // the table below is the result; ns/op of a whole suite says nothing
	verdict := func(ok bool) string {
		if ok {
			return "ok"
		}
		return "OVER"
	}
	var sb2 strings.Builder
	fmt.Fprintf(&sb2, "\nBenchmarkTofuPlan200 with b.N=%d: plan against hostsim --profile full, mean per plan; a loaded machine makes these indicative\n", b.N)
	fmt.Fprintf(&sb2, "%-44s %10s %10s %10s %8s %10s\n", "case", "data", "bare", "takokit", "ratio", "target")
	fmt.Fprintf(&sb2, "%-44s %9.3fs %9.3fs %9.3fs %7.2fx %10s %s\n", "plan of 10 resources, wall", w10d, w10b, w10t, w10t/w10b, "<= 1.15x", verdict(w10t/w10b <= 1.15))
	fmt.Fprintf(&sb2, "%-44s %10s %9.3fs %9.3fs %7.2fx %10s %s\n", "create plan of 200, provider CPU", "-", cb, ct, ct/cb, "<= 1.10x", verdict(ct/cb <= 1.10))
	fmt.Fprintf(&sb2, "%-44s %10s %9.3fs %9.3fs %7.2fx %10s %s\n", "refresh plan of 200 (200 host reads), CPU", "-", rb, rt, rt/rb, "<= 1.25x", verdict(rt/rb <= 1.25))
	fmt.Fprintf(&sb2, "%-44s %10s %9.3fs %9.3fs %7.2fx %10s %s\n", "  the same, SDK trace lines off in both", "-", qb, qt, qt/qb, "<= 1.25x", verdict(qt/qb <= 1.25))
	fmt.Fprintf(&sb2, "%-44s %10s %9.3fs %9.3fs %8s %10s %s\n", "shortest provider process (schema), wall", "-", sb, st, "", "<= 0.040s", verdict(st <= 0.040))
	fmt.Print(sb2.String()) // straight to stdout: b.Log would trim the table
}

// benchTools are the binaries the benchmark builds beside bin/: the bare provider, the
// capture that writes its schema file, the CPU-charging wrapper, and the schema file.
type benchTools struct {
	dir, bare, capture, wrap, schema string
}

func (t benchTools) bareExe() string { return filepath.Join(t.bare, "terraform-provider-takoform") }

func benchProviders(b *testing.B, bin, dir string) benchTools {
	t := benchTools{dir: dir, bare: filepath.Join(dir, "bare"), capture: filepath.Join(dir, "barecapture"),
		wrap: filepath.Join(dir, "wrap"), schema: filepath.Join(dir, "bare-schema.json")}
	for _, c := range []struct{ out, pkg string }{
		{t.bareExe(), "./provider/cmd/bareprovider"},
		{t.capture, "./provider/cmd/barecapture"},
		{filepath.Join(t.wrap, "terraform-provider-takoform"), "./scripts/internal/cpuwrap"},
	} {
		cmd := exec.Command("go", "build", "-o", c.out, c.pkg)
		cmd.Dir = filepath.Dir(bin)
		if out, err := cmd.CombinedOutput(); err != nil {
			b.Fatalf("go build %s: %v\n%s", c.pkg, err, out)
		}
	}
	if out, err := exec.Command(t.capture, t.schema).CombinedOutput(); err != nil {
		b.Fatalf("barecapture: %v\n%s", err, out)
	}
	return t
}

// rc writes a CLI configuration whose dev_overrides point at providerDir.
func (t benchTools) rc(b *testing.B, name, providerDir string) string {
	rc := filepath.Join(t.dir, name+".tofurc")
	if err := os.WriteFile(rc, []byte(cliConfig(providerDir)), 0o644); err != nil {
		b.Fatal(err)
	}
	return rc
}

// benchProc is one provider process: its wall time and its own CPU.
type benchProc struct{ wall, cpu time.Duration }

// wrapped runs `tofu plan` with exe behind the wrapper and returns its provider processes.
func (t benchTools) wrapped(b *testing.B, dir string, env []string, rc, exe, want string) []benchProc {
	rusage := filepath.Join(t.dir, "rusage.txt")
	_ = os.Remove(rusage)
	benchTofu(b, "plan", dir, append(env, "TAKOKIT_WRAP_EXEC="+exe, "TAKOKIT_WRAP_RUSAGE="+rusage), rc, want)
	f, err := os.Open(rusage)
	if err != nil {
		b.Fatalf("the provider wrapper recorded nothing: %v", err)
	}
	defer f.Close()
	var procs []benchProc
	sc := bufio.NewScanner(f)
	for sc.Scan() {
		var wall, user, sys int64
		if _, err := fmt.Sscan(sc.Text(), &wall, &user, &sys); err != nil {
			b.Fatalf("%s: %q: %v", rusage, sc.Text(), err)
		}
		procs = append(procs, benchProc{wall: time.Duration(wall), cpu: time.Duration(user + sys)})
	}
	if len(procs) == 0 {
		b.Fatalf("tofu plan in %s started no provider process", dir)
	}
	return procs
}

type benchRun struct{ wall time.Duration }

// benchTofuPath is bin/tofu, set once the benchmark has found it.
var benchTofuPath = "tofu"

// benchTofu runs one `tofu plan` or `tofu apply` under the CLI configuration rc and
// fails unless its output holds want.
func benchTofu(b *testing.B, verb, dir string, env []string, rc, want string) benchRun {
	args := []string{verb, "-no-color", "-lock=false", "-input=false"}
	if verb == "apply" {
		args = append(args, "-auto-approve")
	}
	cmd := exec.Command(benchTofuPath, args...)
	cmd.Dir, cmd.Env = dir, append(env, "TF_CLI_CONFIG_FILE="+rc)
	start := time.Now()
	out, err := cmd.CombinedOutput()
	elapsed := time.Since(start)
	if err != nil || !strings.Contains(string(out), want) {
		b.Fatalf("tofu %s in %s (want %q): %v\n%s", verb, dir, want, err, out)
	}
	return benchRun{wall: elapsed}
}

// benchHostsim starts bin/hostsim (profile full) and stops it when the benchmark ends.
func benchHostsim(b *testing.B, bin, dir string) (url, admin string) {
	ready := filepath.Join(dir, "hostsim.ready")
	logf, err := os.Create(filepath.Join(dir, "hostsim.log"))
	if err != nil {
		b.Fatal(err)
	}
	cmd := exec.Command(filepath.Join(bin, "hostsim"), "serve", "--addr", "127.0.0.1:0", "--profile", "full", "--ready-file", ready)
	cmd.Stdout, cmd.Stderr = logf, logf
	if err := cmd.Start(); err != nil {
		b.Fatal(err)
	}
	b.Cleanup(func() {
		_ = cmd.Process.Signal(os.Interrupt)
		done := make(chan struct{})
		go func() { _ = cmd.Wait(); close(done) }()
		select {
		case <-done:
		case <-time.After(5 * time.Second):
			_ = cmd.Process.Kill()
			<-done
		}
		_ = logf.Close()
	})
	for deadline := time.Now().Add(20 * time.Second); time.Now().Before(deadline); time.Sleep(25 * time.Millisecond) {
		var r struct{ URL, Admin string }
		if raw, err := os.ReadFile(ready); err == nil && json.Unmarshal(raw, &r) == nil && r.URL != "" {
			return r.URL, r.Admin
		}
	}
	b.Fatalf("hostsim wrote no ready file within 20s; log:\n%s", readLog(logf.Name()))
	return "", ""
}

// benchEnv is the scenario environment (sanitized, a private HOME) plus the provider
// settings; each run adds its own TF_CLI_CONFIG_FILE.
func benchEnv(dir, url, bareSchema string) []string {
	var env []string
	for _, kv := range os.Environ() {
		if strings.HasPrefix(kv, "TF_") || strings.HasPrefix(kv, "TOFU_") || strings.HasPrefix(kv, "TAKOFORM_") ||
			strings.HasPrefix(kv, "TAKOKIT_") || strings.HasPrefix(kv, "HOME=") {
			continue
		}
		env = append(env, kv)
	}
	return append(env, "HOME="+dir, "TF_IN_AUTOMATION=1", "CHECKPOINT_DISABLE=1",
		"TAKOFORM_ENDPOINT="+url, "TAKOFORM_TOKEN=sim-primary", "TAKOFORM_SPACE=bench",
		"TAKOKIT_BARE_SCHEMA="+bareSchema)
}

func benchDir(b *testing.B, dir, name, config string) string {
	d := filepath.Join(dir, name)
	if err := os.MkdirAll(d, 0o755); err != nil {
		b.Fatal(err)
	}
	if err := os.WriteFile(filepath.Join(d, "main.tf"), []byte(config), 0o644); err != nil {
		b.Fatal(err)
	}
	return d
}

func benchSupportReads(b *testing.B, admin string) int64 {
	resp, err := http.Get(strings.TrimSuffix(admin, "/") + "/counters")
	if err != nil {
		b.Fatal(err)
	}
	defer resp.Body.Close()
	var c struct {
		SupportReads int64 `json:"supportReads"`
	}
	if resp.StatusCode != http.StatusOK || json.NewDecoder(resp.Body).Decode(&c) != nil {
		b.Fatalf("GET %s/counters answered HTTP %d", admin, resp.StatusCode)
	}
	return c.SupportReads
}

// benchTakoformConfig declares n resources spread evenly over five kinds.
func benchTakoformConfig(n int) string {
	var sb strings.Builder
	sb.WriteString("terraform {\n  required_providers {\n    takoform = { source = \"takokit/takoform\" }\n  }\n}\n\nprovider \"takoform\" {}\n")
	kinds := []struct{ typ, extra string }{
		{"takoform_at_least_once_queue", "  message_retention_seconds = 3600\n"},
		{"takoform_edge_kv_namespace", ""},
		{"takoform_edge_object_bucket", ""},
		{"takoform_sqlite_database", ""},
		{"takoform_module_worker", ""},
	}
	for i, k := range kinds {
		fmt.Fprintf(&sb, "\nresource %q \"r\" {\n  count = %d\n  name  = \"r%d-${count.index}\"\n%s}\n", k.typ, n/len(kinds), i, k.extra)
	}
	return sb.String()
}

func benchDataConfig(n int) string {
	return fmt.Sprintf("resource \"terraform_data\" \"r\" {\n  count = %d\n  input = \"r-${count.index}\"\n}\n", n)
}
