package catalogtest

import (
	"testing"
)

func TestSecondDefinitions(t *testing.T) {
	cat, vers, err := SecondDefinitions(t.TempDir())
	if err != nil {
		t.Fatal(err)
	}
	var kept, withheld int
	for _, f := range cat.Forms() {
		switch f.Ref.DefinitionVersion {
		case vers[0]:
			kept = len(f.Provided)
		case vers[1]:
			withheld = len(f.Provided) + 1
		}
	}
	if kept == 0 || withheld != 1 {
		t.Fatalf("versions %v: the first must keep its providedInterfaces (%d) and the second withhold them (%d-1)", vers, kept, withheld)
	}
}
