package testrun

import (
	"path"
	"reflect"
	"testing"
)

func TestBinaryGroupsKeepLibrariesTogetherAndCommandsApart(t *testing.T) {
	for _, tc := range []struct {
		name string
		in   []string
		want [][]string
	}{
		{"no two names alike: one group, order kept",
			[]string{"ex/p", "ex/p/wire", "ex/p/internal/x", "ex/p/cmd/tool"},
			[][]string{{"ex/p", "ex/p/wire", "ex/p/internal/x", "ex/p/cmd/tool"}}},
		{"a command named as its module",
			[]string{"ex/hostsim", "ex/hostsim/cmd/hostsim", "ex/hostsim/internal/lane"},
			[][]string{{"ex/hostsim", "ex/hostsim/internal/lane"}, {"ex/hostsim/cmd/hostsim"}}},
		{"commands listed before the libraries they share names with (go list sorts cmd/ first)",
			[]string{"ex/catalog", "ex/catalog/cmd/modelgen", "ex/catalog/cmd/seal", "ex/catalog/internal/modelgen", "ex/catalog/internal/seal", "ex/catalog/wire"},
			[][]string{{"ex/catalog", "ex/catalog/internal/modelgen", "ex/catalog/internal/seal", "ex/catalog/wire"}, {"ex/catalog/cmd/modelgen", "ex/catalog/cmd/seal"}}},
		{"three of one name: three groups",
			[]string{"ex/a/x", "ex/b/x", "ex/c/x", "ex/y"},
			[][]string{{"ex/a/x", "ex/y"}, {"ex/b/x"}, {"ex/c/x"}}},
		{"nothing", nil, nil},
	} {
		t.Run(tc.name, func(t *testing.T) {
			got := BinaryGroups(tc.in)
			if !reflect.DeepEqual(got, tc.want) {
				t.Errorf("BinaryGroups(%q)\n got %q\nwant %q", tc.in, got, tc.want)
			}
			seen := map[string]int{}
			for _, g := range got {
				names := map[string]bool{}
				for _, p := range g {
					if names[path.Base(p)] {
						t.Errorf("group %q holds two packages named %s", g, path.Base(p))
					}
					names[path.Base(p)] = true
					seen[p]++
				}
			}
			for _, p := range tc.in {
				if seen[p] != 1 {
					t.Errorf("%s is in %d groups, want 1", p, seen[p])
				}
			}
		})
	}
}
