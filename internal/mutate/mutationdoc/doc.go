// Package mutationdoc holds the tests that hold docs/mutation.md to the mutation
// tester's tables (its scope rows and its operators). They live apart from
// internal/mutate's own tests because a test result is keyed on every file its
// package's tests read: here, an edit of the document re-runs these two checks
// (milliseconds), not the tester's minute of builds (docs/decisions.md, test cache).
package mutationdoc
