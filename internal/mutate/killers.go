package mutate

import (
	"bufio"
	"bytes"
	"crypto/sha256"
	"encoding/hex"
	"fmt"
	"os"
	"path/filepath"
	"slices"
	"strings"
	"sync"
)

// Killers is what the last runs learned of which tests kill which mutant
// (docs/mutation.md#killers-first): a killed mutant's tests run its last killer
// first, before the cost order of unitsFor. It only orders: a mutant whose
// recorded killer passes still runs every other test that executes it, and a
// mutant that lives runs them all, so no verdict depends on it. Most of a
// run's time went to killed mutants whose killer came late in the cost order
// (a test that had killed nothing of the row yet): 3,900 of about 9,900 test
// seconds in the run of 674af53.
type Killers struct {
	path string
	mu   sync.Mutex
	last map[string][]Killer // read from path
	now  map[string][]Killer // what this run measured: a killer, or nil for a mutant nothing killed
}

// Killer is one unit of a killing run: a test of a test package, with the
// split's value it ran with (none outside a split).
type Killer struct {
	Pkg  string // the test package as the scope row names it ("." or an import path)
	Test string
	Env  string // NAME=value of a split, or ""
}

// killersHeader opens the file; every other line is key, package, test, env.
const killersHeader = "# go tool mage mutate: the tests that killed each mutant in the last run (docs/mutation.md#killers-first); key\tpackage\ttest\tsplit value\n"

// LoadKillers reads path; a missing file is an empty record.
func LoadKillers(path string) (*Killers, error) {
	k := &Killers{path: path, last: map[string][]Killer{}, now: map[string][]Killer{}}
	err := eachRecordLine(path, func(n int, l string) error {
		f := strings.Split(l, "\t")
		if len(f) != 4 {
			return fmt.Errorf("%s:%d: want 4 tab-separated fields (key, package, test, split value), got %d; delete the file to start afresh", path, n, len(f))
		}
		k.last[f[0]] = append(k.last[f[0]], Killer{Pkg: f[1], Test: f[2], Env: f[3]})
		return nil
	})
	if err != nil {
		return nil, err
	}
	return k, nil
}

// eachRecordLine hands each line of a record file (the killers', the
// equivalents') to each, with its number, leaving out blank lines and
// comments; a missing file has no lines.
func eachRecordLine(path string, each func(n int, line string) error) error {
	b, err := os.ReadFile(path)
	if os.IsNotExist(err) {
		return nil
	}
	if err != nil {
		return err
	}
	sc := bufio.NewScanner(bytes.NewReader(b))
	for n := 1; sc.Scan(); n++ {
		if l := sc.Text(); l != "" && !strings.HasPrefix(l, "#") {
			if err := each(n, l); err != nil {
				return err
			}
		}
	}
	return sc.Err()
}

// get is what killed the mutant of key when it last ran (nil: nothing known).
func (k *Killers) get(key string) []Killer {
	if k == nil {
		return nil
	}
	k.mu.Lock()
	defer k.mu.Unlock()
	return k.last[key]
}

// set records this run's outcome for key: the killing units, or none for a
// mutant no test killed (it lived, timed out, crashed or was not covered).
func (k *Killers) set(key string, ks []Killer) {
	if k == nil {
		return
	}
	k.mu.Lock()
	defer k.mu.Unlock()
	k.now[key] = ks
}

// Save writes the record: this run's outcomes over the last, and the last's
// entries for mutants this run did not reach (another row, not sampled, cut by
// the deadline) kept. Lines are sorted, so a run that learned nothing new
// leaves the file as it was.
func (k *Killers) Save() error {
	k.mu.Lock()
	merged := map[string][]Killer{}
	for key, ks := range k.last {
		merged[key] = ks
	}
	for key, ks := range k.now {
		if ks == nil {
			delete(merged, key)
			continue
		}
		merged[key] = ks
	}
	k.mu.Unlock()
	var lines []string
	for key, ks := range merged {
		for _, kl := range ks {
			lines = append(lines, strings.Join([]string{key, kl.Pkg, kl.Test, kl.Env}, "\t"))
		}
	}
	slices.Sort(lines)
	var b strings.Builder
	b.WriteString(killersHeader)
	for _, l := range lines {
		b.WriteString(l + "\n")
	}
	if err := os.MkdirAll(filepath.Dir(k.path), 0o755); err != nil {
		return err
	}
	tmp := k.path + ".tmp"
	if err := os.WriteFile(tmp, []byte(b.String()), 0o644); err != nil {
		return err
	}
	return os.Rename(tmp, k.path)
}

// killerKeys names each mutant so that the name survives edits elsewhere in
// its file: the file (relative to root), the operator, a digest of the line's
// text and of what is replaced by what, and which of the mutants alike in all
// of that it is, in source order. Line numbers move with every edit above a
// line; its text does not.
func killerKeys(root string, ms []Mutant) []string {
	keys := make([]string, len(ms))
	texts := lineTexts{} // an unreadable file: the key still names the file and operator
	seen := map[string]int{}
	for i, m := range ms {
		h := sha256.New()
		for _, part := range [][]byte{texts.at(m.File, m.Line), []byte(m.Old), []byte(m.New)} {
			h.Write(part)
			h.Write([]byte{0})
		}
		rel, err := filepath.Rel(root, m.File)
		if err != nil {
			rel = m.File
		}
		base := fmt.Sprintf("%s:%s:%s", filepath.ToSlash(rel), m.Kind, hex.EncodeToString(h.Sum(nil))[:16])
		keys[i] = fmt.Sprintf("%s#%d", base, seen[base])
		seen[base]++
	}
	return keys
}

// killerUnits finds the recorded killers among us, the units that execute the
// mutant (a recorded test that no longer runs the position, or no longer
// exists, is left out).
func (p *plan) killerUnits(ks []Killer, us []unit) []unit {
	var out []unit
	for _, u := range us {
		for _, k := range ks {
			if p.pkgs[u.pkg].path == k.Pkg && u.name == k.Test && strings.Join(u.env, " ") == k.Env {
				out = append(out, u)
				break
			}
		}
	}
	return out
}

// asKillers is the record of the units of a killing run that ran the test the
// failure names (the whole run's units when none matches: a whole selection).
func (p *plan) asKillers(units []unit, test string) []Killer {
	var named []unit
	for _, u := range units {
		if u.name == test {
			named = append(named, u)
		}
	}
	if len(named) == 0 {
		named = units
	}
	ks := make([]Killer, 0, len(named))
	for _, u := range named {
		ks = append(ks, Killer{Pkg: p.pkgs[u.pkg].path, Test: u.name, Env: strings.Join(u.env, " ")})
	}
	return ks
}
