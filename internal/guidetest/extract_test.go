package guidetest

import (
	"os"
	"path/filepath"
	"reflect"
	"strings"
	"testing"
)

func writeGuide(t *testing.T, text string) string {
	t.Helper()
	p := filepath.Join(t.TempDir(), "guide.md")
	if err := os.WriteFile(p, []byte(text), 0o644); err != nil {
		t.Fatal(err)
	}
	return p
}

func TestFilesTakesOnlyNamedBlocks(t *testing.T) {
	fence := "```"
	guide := writeGuide(t, "# A guide\n\nAn illustration:\n\n"+fence+"go\nfunc Ignored() {}\n"+fence+"\n\n"+
		"`go.mod`:\n\n"+fence+"go.mod\nmodule example.com/x\n"+fence+"\n\n"+
		"`x_test.go`:\n"+fence+"go\npackage x\n\nfunc TestOne(t *testing.T) {}\n\nfunc TestTwo(t *testing.T) {}\nfunc helper(t *testing.T) {}\n"+fence+"\n")
	files, err := Files(guide)
	if err != nil {
		t.Fatal(err)
	}
	want := map[string]string{"go.mod": "module example.com/x\n", "x_test.go": "package x\n\nfunc TestOne(t *testing.T) {}\n\nfunc TestTwo(t *testing.T) {}\nfunc helper(t *testing.T) {}\n"}
	if !reflect.DeepEqual(files, want) {
		t.Errorf("Files = %q; want %q", files, want)
	}
	if got := TestNames(files); !reflect.DeepEqual(got, []string{"TestOne", "TestTwo"}) {
		t.Errorf("TestNames = %v; want [TestOne TestTwo]", got)
	}
}

func TestFilesRefusesAGuideWithoutFilesOrWithOneTwice(t *testing.T) {
	fence := "```"
	for text, want := range map[string]string{
		"# nothing to copy\n\n" + fence + "go\npackage x\n" + fence + "\n":                                         "no copyable file",
		"`a.go`:\n" + fence + "go\npackage a\n" + fence + "\n`a.go`:\n" + fence + "go\npackage b\n" + fence + "\n": "names the file a.go twice",
	} {
		if _, err := Files(writeGuide(t, text)); err == nil || !strings.Contains(err.Error(), want) {
			t.Errorf("Files(%q) = %v; want an error saying %q", text, err, want)
		}
	}
}
