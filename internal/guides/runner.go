package guides

import (
	"fmt"
	"os"
	"path/filepath"
	"strings"
)

// Report says what a guide's run did, for the test's log.
type Report struct {
	Ran, Background, Outputs, Files, Shown int
	NotRun                                 []string // "line N: reason"
	Skipped                                []string // "line N: reason": blocks this run could not run
}

func (r Report) String() string {
	s := fmt.Sprintf("%d command blocks run (%d in the background), %d outputs matched, %d files saved, %d shown files compared",
		r.Ran+r.Background, r.Background, r.Outputs, r.Files, r.Shown)
	if len(r.NotRun) > 0 {
		s += "; not run: " + strings.Join(r.NotRun, "; ")
	}
	if len(r.Skipped) > 0 {
		s += "; SKIPPED here: " + strings.Join(r.Skipped, "; ")
	}
	return s
}

// Runner runs the blocks of one guide in a session.
type Runner struct {
	Session *Session
	Repo    string            // the repository itself, for same as
	Rewrite *strings.Replacer // applied to every block before it is used (the guide's port)
	Log     func(format string, args ...any)
	// Skip says why a command block cannot run here ("" = it can), e.g. the published
	// reference documents it reads are absent. The output blocks after it are skipped with it.
	Skip func(Block) string
}

// Run runs the blocks in order and stops at the first that fails, naming its line, the
// commands and what they printed. The background block still running is stopped at the end.
func (r *Runner) Run(guide string, blocks []Block) (Report, error) {
	var rep Report
	defer r.Session.Stop()
	var last *Block    // the last command block run
	var lastOut string // what it printed
	skipping := false  // the last command block was skipped: so are its outputs
	for i := range blocks {
		b := blocks[i]
		body := r.rewrite(b.Body)
		where := fmt.Sprintf("%s:%d", guide, b.Line)
		if b.IsCommand() && b.NotRun == "" {
			skipping = false
			if r.Skip != nil {
				if why := r.Skip(b); why != "" {
					rep.Skipped = append(rep.Skipped, fmt.Sprintf("line %d: %s", b.Line, why))
					skipping = true
					continue
				}
			}
		}
		switch {
		case b.Output && skipping:
		case b.IsCommand() && b.NotRun != "":
			rep.NotRun = append(rep.NotRun, fmt.Sprintf("line %d: %s", b.Line, b.NotRun))
		case b.IsCommand() && b.Background != "":
			r.logf("%s: starting in the background:\n%s", where, body)
			out, err := r.Session.Start(body, b.Background)
			if err != nil {
				return rep, failure(where, body, out, err)
			}
			rep.Background++
			last, lastOut = &blocks[i], out
		case b.IsCommand():
			r.logf("%s: running:\n%s", where, body)
			out, err := r.Session.Run(body, b.Input, b.Exit)
			if err != nil {
				return rep, failure(where, body, out, err)
			}
			rep.Ran++
			last, lastOut = &blocks[i], out
		case b.Output:
			if last == nil {
				return rep, fmt.Errorf("%s: an output block follows no command block that ran", where)
			}
			out := lastOut
			if last.Background != "" {
				out = r.Session.BackgroundOutput() // what the server printed so far
			}
			if err := MatchOutput(body, out); err != nil {
				return rep, failure(where, r.rewrite(last.Body), out, fmt.Errorf("the command block of line %d: %v", last.Line, err))
			}
			rep.Outputs++
		case b.File != "":
			path := filepath.Join(r.Session.Root, filepath.FromSlash(b.File))
			if err := os.MkdirAll(filepath.Dir(path), 0o755); err != nil {
				return rep, err
			}
			if err := os.WriteFile(path, []byte(body), 0o644); err != nil {
				return rep, err
			}
			rep.Files++
		case b.SameAs != "":
			want, err := os.ReadFile(filepath.Join(r.Repo, filepath.FromSlash(b.SameAs)))
			if err != nil {
				return rep, fmt.Errorf("%s: the block shows %s, which cannot be read: %v", where, b.SameAs, err)
			}
			if string(want) != b.Body {
				return rep, fmt.Errorf("%s: the block differs from %s, which it shows: copy the file into the guide again", where, b.SameAs)
			}
			rep.Shown++
		}
	}
	return rep, nil
}

func (r *Runner) rewrite(s string) string {
	if r.Rewrite == nil {
		return s
	}
	return r.Rewrite.Replace(s)
}

func (r *Runner) logf(format string, args ...any) {
	if r.Log != nil {
		r.Log(format, args...)
	}
}

func failure(where, body, out string, err error) error {
	const max = 6000
	if len(out) > max {
		out = "…" + out[len(out)-max:]
	}
	return fmt.Errorf("%s: %v\ncommands:\n%s\noutput:\n%s", where, err, indent(body), indent(ansi.ReplaceAllString(out, "")))
}

func indent(s string) string {
	return "    " + strings.ReplaceAll(strings.TrimRight(s, "\n"), "\n", "\n    ")
}
