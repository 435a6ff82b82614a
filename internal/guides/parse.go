// Package guides runs the commands of the guides under docs/guides, so a guide cannot rot:
// every ```sh block is run in order, in one shell session per guide, against the binaries
// of bin/ (TestGuides). A block says how it is run with an HTML comment right before its
// fence, which a reader of the rendered page never sees:
//
//	<!-- guide: not run: REASON -->      a command block the test does not run, and why
//	<!-- guide: background until "TEXT" --> run it in the background (a server); the next block
//	                                       waits until its output shows TEXT
//	<!-- guide: input "TEXT" -->          what the reader types (a newline follows it)
//	<!-- guide: exit N -->                the block must end with status N (default 0)
//	<!-- guide: needs reference -->       the block reads the published reference documents
//	<!-- guide: output -->                a block of expected output of the command block before it
//	<!-- guide: file PATH -->             the reader saves this block as PATH (from the repository root)
//	<!-- guide: same as PATH -->          this block shows the repository's file PATH exactly
//
// A command block without a comment is run; docs/decisions.md says why the guides are tested
// this way.
package guides

import (
	"fmt"
	"strconv"
	"strings"
)

// Block is one fenced block of a guide with the directives written before it.
type Block struct {
	Line int    // the line of the opening fence, from 1
	Lang string // the fence's info string ("sh", "hcl", ...)
	Body string // the lines between the fences, each ending in a newline
	Directives
}

// Directives are what the <!-- guide: ... --> comments before a block say about it.
type Directives struct {
	NotRun     string // why the command block is not run ("" = it is run)
	Background string // output that says the background command is ready ("" = foreground)
	Input      string // typed on standard input
	Exit       int    // the exit status the block must end with
	Needs      string // "reference": the block needs the published reference documents
	Output     bool   // the block is output the previous command block must print
	File       string // the block is saved as this file
	SameAs     string // the block must equal this repository file
}

// IsCommand reports whether the block holds shell commands.
func (b Block) IsCommand() bool {
	switch b.Lang {
	case "sh", "bash", "shell":
		return true
	}
	return false
}

const marker = "<!-- guide:"

// Parse returns the fenced blocks of a guide with their directives. It refuses a directive it
// does not know, a directive that stands anywhere but right before a fence or that does not fit
// its block, and a shell prompt ("$ ") in a block that is not a command block, so a command
// cannot escape the test by being written in the wrong kind of block.
func Parse(name, text string) ([]Block, error) {
	var blocks []Block
	var pending Directives
	var pendingLine int // the line of the first pending directive, 0 = none
	lines := strings.Split(strings.TrimRight(text, "\n"), "\n")
	for i := 0; i < len(lines); i++ {
		line := strings.TrimSpace(lines[i])
		switch {
		case strings.HasPrefix(line, marker):
			if pendingLine == 0 {
				pendingLine = i + 1
			}
			if err := pending.parse(line); err != nil {
				return nil, fmt.Errorf("%s:%d: %v", name, i+1, err)
			}
		case strings.HasPrefix(line, "```"):
			fence := line[:strings.LastIndex(line, "`")+1]
			b := Block{Line: i + 1, Lang: strings.TrimSpace(line[len(fence):]), Directives: pending}
			var body strings.Builder
			for i++; i < len(lines) && strings.TrimSpace(lines[i]) != fence; i++ {
				body.WriteString(lines[i] + "\n")
			}
			if i == len(lines) {
				return nil, fmt.Errorf("%s:%d: the block is never closed", name, b.Line)
			}
			b.Body = body.String()
			if err := b.check(); err != nil {
				return nil, fmt.Errorf("%s:%d: %v", name, b.Line, err)
			}
			blocks = append(blocks, b)
			pending, pendingLine = Directives{}, 0
		default:
			if pendingLine != 0 {
				return nil, fmt.Errorf("%s:%d: a guide: comment stands right before the fenced block it marks, with nothing between", name, pendingLine)
			}
		}
	}
	if pendingLine != 0 {
		return nil, fmt.Errorf("%s:%d: a guide: comment marks no block", name, pendingLine)
	}
	return blocks, nil
}

// parse reads one <!-- guide: ... --> line into d.
func (d *Directives) parse(line string) error {
	if !strings.HasSuffix(line, "-->") {
		return fmt.Errorf("a guide: comment fits on one line and ends with -->")
	}
	s := strings.TrimSpace(strings.TrimSuffix(strings.TrimPrefix(line, marker), "-->"))
	word, rest, _ := strings.Cut(s, " ")
	rest = strings.TrimSpace(rest)
	var err error
	switch {
	case strings.HasPrefix(s, "not run:"):
		d.NotRun = strings.TrimSpace(strings.TrimPrefix(s, "not run:"))
		if d.NotRun == "" {
			err = fmt.Errorf("not run: says why")
		}
	case word == "background":
		text, ok := strings.CutPrefix(rest, "until ")
		if !ok {
			return fmt.Errorf(`background until "TEXT": name the output that says it is ready`)
		}
		d.Background, err = strconv.Unquote(strings.TrimSpace(text))
	case word == "input":
		d.Input, err = strconv.Unquote(rest)
		d.Input += "\n"
	case word == "exit":
		d.Exit, err = strconv.Atoi(rest)
	case s == "needs reference":
		d.Needs = "reference"
	case s == "output":
		d.Output = true
	case word == "file" && rest != "":
		d.File = rest
	case strings.HasPrefix(s, "same as ") && strings.TrimSpace(s[len("same as "):]) != "":
		d.SameAs = strings.TrimSpace(s[len("same as "):])
	default:
		return fmt.Errorf("unknown guide: directive %q (known: not run: REASON, background until \"TEXT\", input \"TEXT\", exit N, needs reference, output, file PATH, same as PATH)", s)
	}
	if err != nil {
		return fmt.Errorf("guide: %s: %v", s, err)
	}
	return nil
}

// check refuses directives that do not fit the block.
func (b Block) check() error {
	d := b.Directives
	if b.IsCommand() {
		if d.Output || d.File != "" || d.SameAs != "" {
			return fmt.Errorf("output, file and same as mark a block that is not a command block; this one is ```%s", b.Lang)
		}
		if d.NotRun != "" && (d.Background != "" || d.Input != "" || d.Exit != 0 || d.Needs != "") {
			return fmt.Errorf("a block that is not run takes no other directive")
		}
		if d.Background != "" && (d.Input != "" || d.Exit != 0) {
			return fmt.Errorf("a background block takes no input and no exit status")
		}
		return nil
	}
	for _, l := range strings.Split(b.Body, "\n") {
		if strings.HasPrefix(strings.TrimSpace(l), "$ ") {
			return fmt.Errorf("a command (%q) in a ```%s block: write commands in a ```sh block, their output in the block after it (marked output)", strings.TrimSpace(l), b.Lang)
		}
	}
	if d.NotRun != "" || d.Background != "" || d.Input != "" || d.Exit != 0 || d.Needs != "" {
		return fmt.Errorf("not run, background, input, exit and needs mark a command block (```sh); this one is ```%s", b.Lang)
	}
	n := 0
	for _, set := range []bool{d.Output, d.File != "", d.SameAs != ""} {
		if set {
			n++
		}
	}
	if n > 1 {
		return fmt.Errorf("a block is output, a file or the same as a file: one of them")
	}
	return nil
}
