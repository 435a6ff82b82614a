package mutate

import (
	"context"
	"encoding/json"
	"fmt"
	"os"
	"os/exec"
	"path/filepath"
	"strconv"
	"strings"
	"testing"
	"time"
)

// schemaSample has every operator the tool mutates, in the places a schema must
// get right: nested and short-circuit conditions, a nil guard, multi-line
// operands with comments, a loop's post statement, package-level initializers,
// and what it must leave to single builds (strings, constants, a named bool,
// type parameters, x * 0).
const schemaSample = `package p

import (
	"fmt"
	"time"
)

type flag bool

type node struct{ next *node; v int }

var base = 7 * 3

var table [2 + 1]int

func Run(a, b int, f float64, d time.Duration, n *node) string {
	var out []string
	say := func(v any) { out = append(out, fmt.Sprint(v)) }
	say(a + b)
	say(a - b*2)
	say(a % (b + 10))
	say(f / 2.5)
	say(d * 3)
	say(-a)
	say(a < b && b <= 3 || a == 2)
	say(n != nil && n.v > 1) // n may be nil: && must still short-circuit
	say(a > 0 && b > 1 && a != b)    // the first && made || reads a > 0 || (b > 1 && a != b)
	say(a > 1 || b > 3 || a == b)    // the second || made && reads a > 1 || (b > 3 && a == b)
	say((a > 1 || b > 3) && a == -b) // parentheses keep the tree
	say(a >= b || // a comment between operands
		b > a)
	var g flag = a < b
	say(g)
	say("x" + strconv(a))
	say(a * 0)
	say(len(table) + base)
	for i := 0; i < 3; i++ {
		a++
		tick(i)
	}
	b--
	say(a + b)
	say(max2(a, b))
	total, err := guard(a, n)
	say(total)
	say(err)
	say(!g)
	say(seen)
	return fmt.Sprint(out)
}

var seen []int

func record(v int) { seen = append(seen, v) }

// guard has the statement, guard, condition, ! and error mutants.
func guard(a int, n *node) (int, error) {
	if a < 0 {
		return 0, fmt.Errorf("negative %d", a)
	}
	total := 0
	for i := 0; n != nil && i < 5; i++ {
		total += n.v
		n = n.next
	}
	if !(a > 2) {
		total++
	}
	ok := a%2 == 0
	if !ok {
		total--
	}
	if v := a * 2; v > 4 {
		total += v
	} else {
		total -= 1
	}
	var err error
	if total > 3 {
		err = fmt.Errorf("too much: %d", total)
	}
	record(total)
	switch {
	case a == 3:
		total = 7
	}
	return total, err
}

func strconv(a int) string { return fmt.Sprint(a) }

func max2[T int | float64](x, y T) T {
	if x > y {
		return x - 0
	}
	return y
}
`

// sampleNode is the sample's other file, which no mutant changes. tick makes the one
// mutant that never ends (i-- in Run's loop) wait instead of spin: it runs until the
// two-second limit twice, once per build, and spinning made it half of the test's CPU.
const sampleNode = `package p

import "time"

type Node = node

func (n *node) Ptr() *node { return n }

// tick pauses a loop gone past its bound.
func tick(i int) {
	if i < 0 || i > 3 {
		time.Sleep(time.Millisecond)
	}
}
`

const schemaMain = `package main

import (
	"fmt"
	"time"

	"m/p"
)

func main() {
	for _, a := range []int{-1, 0, 2, 3} {
		for _, b := range []int{1, 3, 4} {
			var n *p.Node
			if a > 0 {
				n = &p.Node{}
			}
			fmt.Println(p.Run(a, b, float64(a)+0.5, time.Duration(b), n.Ptr()))
		}
	}
}
`

// TestSchemaRunsEachMutantAsItsOwnBuildWould builds every mutant of the sample
// on its own and through one schema, and compares what each prints: a schema
// that changed what a mutant does would count kills that are not.
func TestSchemaRunsEachMutantAsItsOwnBuildWould(t *testing.T) {
	if testing.Short() {
		t.Skip("runs the go command")
	}
	t.Parallel() // its own sample module
	root := t.TempDir()
	write := func(name, body string) {
		p := filepath.Join(root, name)
		os.MkdirAll(filepath.Dir(p), 0o755)
		if err := os.WriteFile(p, []byte(body), 0o644); err != nil {
			t.Fatal(err)
		}
	}
	write("go.mod", "module m\n\ngo 1.24\n")
	write("p/p.go", schemaSample)
	write("p/node.go", sampleNode)
	write("cmd/main.go", schemaMain)

	file := filepath.Join(root, "p", "p.go")
	ms, err := Find(file)
	if err != nil {
		t.Fatal(err)
	}
	p, err := loadPackage(t.Context(), root, "m/p")
	if err != nil {
		t.Fatal(err)
	}
	refusals := newChecker(p).viability(ms, 2)
	viable := make([]bool, len(ms))
	for i, e := range refusals {
		viable[i] = e == nil
	}
	sch, err := newSchema(t.Context(), root, "m/p", filepath.Join(root, "schema"), p, ms, viable, t.Logf)
	if err != nil {
		t.Fatal(err)
	}
	schemaBin := filepath.Join(root, "schema.bin")
	if out, err := goCmd(t.Context(), root, nil, 0, "build", "-overlay="+sch.overlay, "-o", schemaBin, "./cmd"); err != nil {
		t.Fatalf("the schema does not build: %s", out)
	}
	runSchema := func(id int) string { return execute(t, schemaBin, mutantEnv+"="+strconv.Itoa(id)) }
	own := ownBuilds(t, root, file, ms)
	if got := runSchema(0); got != own.unmutated {
		t.Fatalf("no mutant switched on: schema prints\n%s\nthe code prints\n%s", got, own.unmutated)
	}
	held := 0
	for i, m := range ms {
		if own.builds[i] != viable[i] {
			t.Errorf("%s: builds on its own %v, type-checks %v (%v)", m, own.builds[i], viable[i], refusals[i])
		}
		id, ok := sch.holds(i)
		if !ok {
			continue
		}
		held++
		if !own.builds[i] {
			t.Errorf("%s: held by the schema, but does not build on its own", m)
			continue
		}
		if got := runSchema(id); got != own.prints(i) {
			t.Errorf("%s: the schema prints\n%s\nits own build prints\n%s", m, got, own.prints(i))
		}
	}
	// left to single builds: "x" +, 2 + 1 and 7 * 3 (constants), both mutants
	// of a < b into a flag, a * 0, x - 0 on a type parameter (x > y on one is
	// held: its wrapper is a func() bool whatever T is), and the two logical
	// operators whose mutant text groups differently; not viable, so never in
	// the schema: say(total) and say(err) removed (declared and not used), !ok
	// forced true or false (ok is then unused), and err made nil (err is only
	// assigned then)
	if want := len(ms) - 14; held != want {
		for i, m := range ms {
			_, ok := sch.holds(i)
			t.Logf("held %v: %s", ok, m)
		}
		t.Errorf("the schema holds %d of %d mutants, want %d", held, len(ms), want)
	}
}

// ownBuilt is every mutant of the sample built on its own: each mutated copy of
// package p is a package of its own (m/own/pN), so one go build compiles them
// all and links them once into a binary that runs the copy its argument names.
// A mutant that does not type-check is compiled alone (it fails before any
// link), and one the combined build cannot compile fails the test by name.
type ownBuilt struct {
	t         *testing.T
	bin       string
	builds    []bool
	unmutated string
}

func (o ownBuilt) prints(i int) string { return execute(o.t, o.bin, "OWN_MUTANT="+strconv.Itoa(i+1)) }

func ownBuilds(t *testing.T, root, file string, ms []Mutant) ownBuilt {
	t.Helper()
	o := ownBuilt{t: t, bin: filepath.Join(root, "own.bin"), builds: make([]bool, len(ms))}
	write := func(name, body string) {
		p := filepath.Join(root, "own", name)
		os.MkdirAll(filepath.Dir(p), 0o755)
		if err := os.WriteFile(p, []byte(body), 0o644); err != nil {
			t.Fatal(err)
		}
	}
	node, err := os.ReadFile(filepath.Join(filepath.Dir(file), "node.go"))
	if err != nil {
		t.Fatal(err)
	}
	copyOf := func(i int, src []byte) string {
		dir := "p" + strconv.Itoa(i)
		write(dir+"/p.go", string(src))
		write(dir+"/node.go", string(node))
		return dir
	}
	var imports, cases strings.Builder
	add := func(i int, dir string) {
		fmt.Fprintf(&imports, "\t%s \"m/own/%s\"\n", dir, dir)
		fmt.Fprintf(&cases, "\tcase %d:\n\t\tfor _, a := range []int{-1, 0, 2, 3} {\n\t\t\tfor _, b := range []int{1, 3, 4} {\n"+
			"\t\t\t\tvar n *%[2]s.Node\n\t\t\t\tif a > 0 {\n\t\t\t\t\tn = &%[2]s.Node{}\n\t\t\t\t}\n"+
			"\t\t\t\tfmt.Println(%[2]s.Run(a, b, float64(a)+0.5, time.Duration(b), n.Ptr()))\n\t\t\t}\n\t\t}\n", i, dir)
	}
	copyOf(0, []byte(schemaSample))
	for i, m := range ms {
		copyOf(i+1, m.Apply([]byte(schemaSample)))
	}
	// compile every copy (no link); the ones that fail are named in the output.
	// -trimpath leaves the folder out of each compile's key in go's cache: the
	// copies are the same every run, only the temporary folder is new, and
	// they then compile once per machine instead of once per run (what each
	// prints does not depend on where it was compiled)
	out, _ := goCmd(t.Context(), root, nil, 0, "build", "-trimpath", "./own/...")
	failed := map[string]bool{}
	for _, line := range strings.Split(string(out), "\n") {
		if name, ok := strings.CutPrefix(line, "# m/own/"); ok {
			failed[strings.TrimSpace(name)] = true
		}
	}
	if failed["p0"] {
		t.Fatalf("the unmutated sample does not compile: %s", firstLines(out, 5))
	}
	for i := 0; i <= len(ms); i++ {
		dir := "p" + strconv.Itoa(i)
		if failed[dir] {
			continue
		}
		if i > 0 {
			o.builds[i-1] = true
		}
		add(i, dir)
	}
	write("main/main.go", "package main\n\nimport (\n\t\"fmt\"\n\t\"os\"\n\t\"strconv\"\n\t\"time\"\n\n"+imports.String()+")\n\n"+
		"func main() {\n\ti, _ := strconv.Atoi(os.Getenv(\"OWN_MUTANT\"))\n\tswitch i {\n"+cases.String()+"\t}\n}\n")
	if out, err := goCmd(t.Context(), root, nil, 0, "build", "-trimpath", "-o", o.bin, "./own/main"); err != nil {
		t.Fatalf("the mutants that compile alone do not build together: %s", firstLines(out, 5))
	}
	o.unmutated = execute(t, o.bin, "OWN_MUTANT=0")
	return o
}

// execute runs bin for at most two seconds (i-- in a loop counting up never ends)
// and gives what it printed, or that it failed or did not end.
func execute(t *testing.T, bin string, env ...string) string {
	ctx, cancel := context.WithTimeout(t.Context(), 2*time.Second)
	defer cancel()
	cmd := exec.CommandContext(ctx, bin)
	cmd.Env = append(os.Environ(), env...)
	out, err := cmd.CombinedOutput()
	switch {
	case ctx.Err() != nil:
		return "did not end"
	case err != nil: // a panic's stack differs by the wrappers: its message does not
		msg, _, _ := strings.Cut(string(out), "\n[signal")
		msg, _, _ = strings.Cut(msg, "\n\ngoroutine")
		return "exit: " + err.Error() + "\n" + msg
	}
	return string(out)
}

// writeTestOverlay replaces file with src (nil: no replacement).
func writeTestOverlay(t *testing.T, root, file string, src []byte) string {
	t.Helper()
	dir, err := os.MkdirTemp(root, "overlay-")
	if err != nil {
		t.Fatal(err)
	}
	repl := map[string]string{}
	if src != nil {
		p := filepath.Join(dir, filepath.Base(file))
		if err := os.WriteFile(p, src, 0o644); err != nil {
			t.Fatal(err)
		}
		repl[file] = p
	}
	b, _ := json.Marshal(map[string]any{"Replace": repl})
	o := filepath.Join(dir, "overlay.json")
	if err := os.WriteFile(o, b, 0o644); err != nil {
		t.Fatal(err)
	}
	return o
}
