package store

import (
	"os"
	"path/filepath"
	"testing"
)

// TestOpenNamesTheDirectoryItCannotUse: a file database in a missing directory,
// or under a file, is refused saying which, before SQLite answers only
// "unable to open database file"; a file in a directory that is there opens.
func TestOpenNamesTheDirectoryItCannotUse(t *testing.T) {
	dir := t.TempDir()
	file := filepath.Join(dir, "plain")
	if err := os.WriteFile(file, []byte("x"), 0o600); err != nil {
		t.Fatal(err)
	}
	for _, tc := range []struct{ path, want string }{
		{filepath.Join(dir, "no", "x.db"), `open database "` + filepath.Join(dir, "no", "x.db") + `": the directory ` + filepath.Join(dir, "no") + ` does not exist; create it or name a file in another one (an empty path keeps the database in memory)`},
		{filepath.Join(file, "x.db"), `open database "` + filepath.Join(file, "x.db") + `": the directory ` + file + ` is a file; create it or name a file in another one (an empty path keeps the database in memory)`},
	} {
		s, err := Open(tc.path)
		if err == nil {
			s.Close()
			t.Fatalf("Open(%s) opened", tc.path)
		}
		if err.Error() != tc.want {
			t.Errorf("Open(%s):\n got %s\nwant %s", tc.path, err, tc.want)
		}
		if _, err := os.Lstat(tc.path); err == nil {
			t.Errorf("Open(%s) made the file", tc.path)
		}
	}
	ok := filepath.Join(dir, "x.db")
	s, err := Open(ok)
	if err != nil {
		t.Fatalf("Open(%s) in an existing directory: %v", ok, err)
	}
	s.Close()
	if err := CheckDir(ok); err != nil {
		t.Errorf("CheckDir(%s) = %v, want nil", ok, err)
	}
}
