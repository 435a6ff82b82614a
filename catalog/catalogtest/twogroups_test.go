package catalogtest

import "testing"

func TestTwoGroupsInstallsOneKindInTwoGroups(t *testing.T) {
	cat, kind, err := TwoGroups(t.TempDir())
	if err != nil {
		t.Fatal(err)
	}
	groups := map[string]bool{}
	for _, f := range cat.Forms() {
		if f.Ref.Kind == kind {
			groups[f.Ref.APIVersion] = true
		}
	}
	if len(groups) != 2 || !groups[SecondGroup] {
		t.Fatalf("kind %s is installed in %v, want its own group and %s", kind, groups, SecondGroup)
	}
}
