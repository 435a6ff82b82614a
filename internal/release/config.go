// Package release holds what a release's dist/ must be for a provider registry to take it,
// reads the build matrix of .goreleaser.yaml, runs a goreleaser snapshot, and does the one
// step goreleaser leaves undone: putting the registry manifest into dist/
// (docs/provider-design.md#releases).
package release

import (
	"fmt"
	"os"
	"slices"
	"strings"

	"go.yaml.in/yaml/v3"
)

// ConfigFile is the goreleaser configuration at the repository root.
const ConfigFile = ".goreleaser.yaml"

// Target is one platform of the build matrix.
type Target struct{ OS, Arch string }

func (t Target) String() string { return t.OS + "_" + t.Arch }

type buildEntry struct {
	ID      string   `yaml:"id"`
	GOOS    []string `yaml:"goos"`
	GOARCH  []string `yaml:"goarch"`
	Targets []string `yaml:"targets"`
	Ignore  []any    `yaml:"ignore"`
}

// Matrix returns each build id's platforms as the configuration at path lists them
// (goos x goarch). A build that names its platforms another way (targets, ignore) is
// refused: this reader would get its matrix wrong.
func Matrix(path string) (map[string][]Target, error) {
	raw, err := os.ReadFile(path)
	if err != nil {
		return nil, err
	}
	var cfg struct {
		Builds []buildEntry `yaml:"builds"`
	}
	if err := yaml.Unmarshal(raw, &cfg); err != nil {
		return nil, fmt.Errorf("%s: %v", path, err)
	}
	out := map[string][]Target{}
	for _, b := range cfg.Builds {
		if len(b.Targets) > 0 || len(b.Ignore) > 0 {
			return nil, fmt.Errorf("%s: build %q lists targets or ignore; internal/release reads only goos x goarch", path, b.ID)
		}
		for _, goos := range b.GOOS {
			for _, arch := range b.GOARCH {
				out[b.ID] = append(out[b.ID], Target{goos, arch})
			}
		}
		slices.SortFunc(out[b.ID], func(a, b Target) int { return strings.Compare(a.String(), b.String()) })
	}
	return out, nil
}

// Narrow writes to dst the configuration at src with every build's matrix cut to the one
// platform t and dist set to dist; every other line, comment included, stays as it was.
// The release test runs goreleaser on it: the whole pipeline for one platform instead of six.
func Narrow(src, dst, dist string, t Target) error {
	raw, err := os.ReadFile(src)
	if err != nil {
		return err
	}
	var doc yaml.Node
	if err := yaml.Unmarshal(raw, &doc); err != nil {
		return fmt.Errorf("%s: %v", src, err)
	}
	if doc.Kind != yaml.DocumentNode || len(doc.Content) != 1 || doc.Content[0].Kind != yaml.MappingNode {
		return fmt.Errorf("%s: the top level is not a mapping", src)
	}
	top := doc.Content[0]
	builds := member(top, "builds")
	if builds == nil || builds.Kind != yaml.SequenceNode || len(builds.Content) == 0 {
		return fmt.Errorf("%s: no builds", src)
	}
	for _, b := range builds.Content {
		for key, v := range map[string]string{"goos": t.OS, "goarch": t.Arch} {
			n := member(b, key)
			if n == nil {
				return fmt.Errorf("%s: a build has no %s", src, key)
			}
			*n = yaml.Node{Kind: yaml.SequenceNode, Style: yaml.FlowStyle,
				Content: []*yaml.Node{{Kind: yaml.ScalarNode, Value: v}}}
		}
	}
	if n := member(top, "dist"); n != nil {
		n.Value = dist
	} else {
		top.Content = append(top.Content, &yaml.Node{Kind: yaml.ScalarNode, Value: "dist"},
			&yaml.Node{Kind: yaml.ScalarNode, Value: dist})
	}
	out, err := yaml.Marshal(&doc)
	if err != nil {
		return err
	}
	return os.WriteFile(dst, out, 0o644)
}

// member is the value node of key in mapping m, or nil.
func member(m *yaml.Node, key string) *yaml.Node {
	if m.Kind != yaml.MappingNode {
		return nil
	}
	for i := 0; i+1 < len(m.Content); i += 2 {
		if m.Content[i].Value == key {
			return m.Content[i+1]
		}
	}
	return nil
}
