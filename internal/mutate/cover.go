package mutate

import (
	"bufio"
	"fmt"
	"os"
	"path/filepath"
	"slices"
	"strings"
)

// coverMap holds the coverage blocks per file, executed or not.
type coverMap map[string][]block

type block struct {
	l0, c0, l1, c1 int
	count          int
}

// at reports whether m's position lies in a block that ran, and whether it lies in
// any block. go cover leaves some positions in no block (case expressions, the rest
// of a statement after a function literal); for those the first of m's anchors that
// lies in a block decides: the enclosing statement's start runs whenever the
// position does, so its tests are a superset of the position's. A position whose
// anchors too lie in no block is run rather than assumed dead; only a position
// inside blocks that never ran is not covered.
func (c coverMap) at(m Mutant) (ran, inBlock bool) {
	for _, p := range append([]Pos{{m.Line, m.Col}}, m.Anchors...) {
		if ran, in := c.atPos(m.File, p); in {
			return ran, true
		}
	}
	return false, false
}

func (c coverMap) atPos(file string, p Pos) (ran, inBlock bool) {
	for _, b := range c[file] {
		after := p.Line > b.l0 || (p.Line == b.l0 && p.Col >= b.c0)
		before := p.Line < b.l1 || (p.Line == b.l1 && p.Col <= b.c1)
		if after && before {
			if b.count > 0 {
				return true, true
			}
			inBlock = true
		}
	}
	return false, inBlock
}

// readProfile reads a coverage profile, keeping the blocks of files (base names)
// of the mutated package pkg (an import path: a shared profile covers several
// packages, and two of them may hold files of one name), keyed by their path
// under pkgDir.
func readProfile(path, pkg, pkgDir string, files []string) (coverMap, error) {
	f, err := os.Open(path)
	if err != nil {
		return nil, err
	}
	defer f.Close()
	c := coverMap{}
	sc := bufio.NewScanner(f)
	for sc.Scan() {
		// importpath/file.go:l0.c0,l1.c1 stmts count
		line := sc.Text()
		colon := strings.LastIndex(line, ".go:")
		if colon < 0 {
			continue
		}
		base := filepath.Base(line[:colon+3])
		if line[:colon+3] != pkg+"/"+base || !slices.Contains(files, base) {
			continue
		}
		var b block
		var stmts int
		if _, err := fmt.Sscanf(line[colon+4:], "%d.%d,%d.%d %d %d", &b.l0, &b.c0, &b.l1, &b.c1, &stmts, &b.count); err != nil {
			continue
		}
		file := filepath.Join(pkgDir, base)
		c[file] = append(c[file], b)
	}
	return c, sc.Err()
}
