package store

import (
	"os"
	"path/filepath"
	"testing"
)

// TestOpenNamesTheDirectoryItCannotUse: a file database in a missing directory,
// under a file, at a directory, or at a file that is not SQLite's is refused
// saying which and what to do, before SQLite answers only "unable to open
// database file" or "file is not a database" (the file is left as it was); a
// database file, a new path and an empty file open.
func TestOpenNamesTheDirectoryItCannotUse(t *testing.T) {
	dir := t.TempDir()
	file := filepath.Join(dir, "plain")
	if err := os.WriteFile(file, []byte("x"), 0o600); err != nil {
		t.Fatal(err)
	}
	for _, tc := range []struct{ path, want string }{
		{filepath.Join(dir, "no", "x.db"), `open database "` + filepath.Join(dir, "no", "x.db") + `": the directory ` + filepath.Join(dir, "no") + ` does not exist; create it, or name a file in one that exists (an empty path keeps the database in memory)`},
		{filepath.Join(file, "x.db"), `open database "` + filepath.Join(file, "x.db") + `": the directory ` + file + ` is a file; name a file in a directory (an empty path keeps the database in memory)`},
		{dir, `open database "` + dir + `": ` + dir + ` is a directory; name a file in it, such as ` + filepath.Join(dir, "hostsim.db") + ` (an empty path keeps the database in memory)`},
		{file, `open database "` + file + `": ` + file + ` is not a SQLite database (it was left as it is); name a hostsim database file, or a path where no file is yet (an empty path keeps the database in memory)`},
	} {
		s, err := Open(tc.path)
		if err == nil {
			s.Close()
			t.Fatalf("Open(%s) opened", tc.path)
		}
		if err.Error() != tc.want {
			t.Errorf("Open(%s):\n got %s\nwant %s", tc.path, err, tc.want)
		}
		if tc.path == file {
			if b, err := os.ReadFile(file); err != nil || string(b) != "x" {
				t.Errorf("Open(%s) changed the file it refused: %q %v", file, b, err)
			}
		} else if st, err := os.Lstat(tc.path); err == nil && !st.IsDir() {
			t.Errorf("Open(%s) made the file", tc.path)
		}
	}
	ok := filepath.Join(dir, "x.db")
	s, err := Open(ok)
	if err != nil {
		t.Fatalf("Open(%s) in an existing directory: %v", ok, err)
	}
	s.Close()
	if err := CheckPath(ok); err != nil {
		t.Errorf("CheckPath(%s), a database file = %v, want nil", ok, err)
	}
	empty := filepath.Join(dir, "empty.db")
	if err := os.WriteFile(empty, nil, 0o600); err != nil {
		t.Fatal(err)
	}
	if s, err := Open(empty); err != nil {
		t.Errorf("Open(%s), an empty file (SQLite makes a database of it): %v", empty, err)
	} else {
		s.Close()
	}
}
