// Package buildtimes gives a rebuilt binary back the modification time it had when it
// last held the same bytes, and a directory the time it had when it last held the same
// entries. go test keys a cached result on the size and modification
// time of every file a test opened or stat'ed, bin/hostsim and the providers included:
// a binary built again after an edit is undone has its old bytes but a new time, and
// every test that runs it would run again though nothing it sees changed
// (docs/decisions.md#test-cache). Beside each binary a small record,
// .builds-<name>, holds the digest and time of its last Kept builds.
package buildtimes

import (
	"bufio"
	"crypto/sha256"
	"encoding/hex"
	"fmt"
	"os"
	"path/filepath"
	"slices"
	"strconv"
	"strings"
	"time"

	"github.com/takokit/takokit/internal/fsx"
)

// Kept is how many builds' times a record holds: as many as the scenarios keep passes
// for, so an edit and its undoing, or a few branches switched between, all find theirs.
const Kept = 8

// RecordPath is the record beside the binary at path.
func RecordPath(path string) string {
	return filepath.Join(filepath.Dir(path), ".builds-"+filepath.Base(path))
}

// entry is one build: its bytes' digest and the modification time it was given.
type entry struct {
	digest string
	at     time.Time
}

// Settle runs after a build of the binary at path: when its bytes are those of a build
// the record holds, it gets that build's time back (restored reports it); either way
// the record then holds this build last. A record that does not read is started anew.
func Settle(path string) (restored bool, err error) {
	digest, err := fsx.SHA256(path)
	if err != nil {
		return false, err
	}
	return settleAt(path, digest, RecordPath(path))
}

// SettleDir does for the directory dir what Settle does for a binary, by its listing
// (each entry's name and type) instead of bytes, with its record at record. A
// directory's time moves whenever an entry is made or removed, even when a moment
// later the listing is what it was: `go tool mage` writes its generated main file
// beside the magefiles (the repository's root) and removes it on every run, and go
// test keys every test that runs a program in the root (os.StartProcess stats the
// working directory) on the root's time, so none of those results was ever reused.
func SettleDir(dir, record string) (restored bool, err error) {
	digest, err := listingDigest(dir)
	if err != nil {
		return false, err
	}
	return settleAt(dir, digest, record)
}

// listingDigest is the hex SHA-256 of a directory's entries' names and types.
func listingDigest(dir string) (string, error) {
	entries, err := os.ReadDir(dir) // sorted by name
	if err != nil {
		return "", err
	}
	h := sha256.New()
	for _, e := range entries {
		fmt.Fprintf(h, "%q %v\n", e.Name(), e.Type())
	}
	return hex.EncodeToString(h.Sum(nil)), nil
}

// settleAt gives path the time its record holds for digest, if any, and records this
// state last. A record that would not change is not written, so bin/ (a directory some
// tests stat) keeps its time too.
func settleAt(path, digest, record string) (restored bool, err error) {
	st, err := os.Stat(path)
	if err != nil {
		return false, err
	}
	entries := read(record)
	at := st.ModTime()
	kept := make([]entry, 0, len(entries)+1)
	for _, e := range entries {
		if e.digest == digest {
			at = e.at // the earlier build's time
			continue
		}
		kept = append(kept, e)
	}
	kept = append(kept, entry{digest, at})
	if len(kept) > Kept {
		kept = kept[len(kept)-Kept:]
	}
	if !at.Equal(st.ModTime()) {
		if err := os.Chtimes(path, at, at); err != nil {
			return false, fmt.Errorf("giving %s back the time of its earlier state with the same digest: %w", path, err)
		}
		restored = true
	}
	if slices.EqualFunc(kept, entries, func(a, b entry) bool { return a.digest == b.digest && a.at.Equal(b.at) }) {
		return restored, nil
	}
	return restored, write(record, kept)
}

// read returns a record's entries, oldest first; a missing or unreadable record, or a
// line that does not read, gives none of what it cannot read.
func read(path string) []entry {
	f, err := os.Open(path)
	if err != nil {
		return nil
	}
	defer f.Close()
	var entries []entry
	lines := bufio.NewScanner(f)
	for lines.Scan() {
		digest, nanos, ok := strings.Cut(lines.Text(), " ")
		n, err := strconv.ParseInt(nanos, 10, 64)
		if !ok || err != nil || len(digest) != 2*sha256.Size {
			continue
		}
		entries = append(entries, entry{digest, time.Unix(0, n)})
	}
	return entries
}

// write replaces the record through a temporary file, so a build stopped halfway
// leaves the old record or the new one, never half of one.
func write(path string, entries []entry) error {
	var b strings.Builder
	for _, e := range entries {
		fmt.Fprintf(&b, "%s %d\n", e.digest, e.at.UnixNano())
	}
	tmp := path + ".tmp"
	if err := os.WriteFile(tmp, []byte(b.String()), 0o644); err != nil {
		return err
	}
	return os.Rename(tmp, path)
}
