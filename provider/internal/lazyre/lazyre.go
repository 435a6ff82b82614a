// Package lazyre holds regular expressions that compile on first use. A bounded
// repetition such as {0,124} expands into thousands of instructions, so compiling the
// provider's grammars at package init (or for every kind at construction) costs a
// process that only serves its schema more than the schema itself.
package lazyre

import (
	"regexp"
	"sync"
)

// Regexp is a pattern compiled once, when first matched. The pattern must compile
// (grammars of the code itself, or catalog patterns the catalog loader checked).
type Regexp struct {
	pattern string
	once    sync.Once
	re      *regexp.Regexp
}

// New returns a lazily compiled pattern.
func New(pattern string) *Regexp { return &Regexp{pattern: pattern} }

// MatchString reports whether s matches, compiling the pattern the first time.
func (r *Regexp) MatchString(s string) bool {
	r.once.Do(func() { r.re = regexp.MustCompile(r.pattern) })
	return r.re.MatchString(s)
}

// String is the pattern as written.
func (r *Regexp) String() string { return r.pattern }
