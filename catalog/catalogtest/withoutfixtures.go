package catalogtest

import (
	"bytes"
	"encoding/json"
	"fmt"
	"os"
	"path/filepath"
	"slices"
	"strings"

	"github.com/takokit/takokit/catalog"
)

// WithoutFixtures writes the built-in catalog to dir with every definition of each of
// kinds stripped of its conformance fixtures (the positive and negative declarations
// and the files they name), reseals it (the kinds' schema digests, every exact ref
// that names them and the package indexes follow) and loads it. A definition may
// declare no fixtures (docs/catalog-rules.md); a conformance runner then cannot build
// a valid instance of such a kind, nor of any Form whose fixture refers to one.
func WithoutFixtures(dir string, kinds ...string) (*catalog.Catalog, error) {
	return editBuiltIn(dir, "stripping the fixtures of "+strings.Join(kinds, ", "), kinds, func(pkg string, raw []byte) error {
		var def struct {
			Positive []struct {
				DesiredPath  string  `json:"desiredPath"`
				ObservedPath *string `json:"observedPath"`
				OutputPath   *string `json:"outputPath"`
			} `json:"conformanceFixtures"`
			Negative []struct {
				InputPath string `json:"inputPath"`
			} `json:"negativeConformanceFixtures"`
		}
		if err := json.Unmarshal(raw, &def); err != nil {
			return err
		}
		var files []string
		for _, fx := range def.Positive {
			files = append(files, fx.DesiredPath)
			for _, q := range []*string{fx.ObservedPath, fx.OutputPath} {
				if q != nil {
					files = append(files, *q)
				}
			}
		}
		for _, fx := range def.Negative {
			files = append(files, fx.InputPath)
		}
		out, err := withoutMembers(raw, "conformanceFixtures", "negativeConformanceFixtures")
		if err != nil {
			return err
		}
		if err := os.WriteFile(filepath.Join(pkg, "definition.json"), out, 0o644); err != nil {
			return err
		}
		for _, f := range files {
			if err := os.Remove(filepath.Join(pkg, filepath.FromSlash(f))); err != nil && !os.IsNotExist(err) {
				return err
			}
		}
		return nil
	})
}

// withoutMembers re-encodes the top-level JSON object raw without the named
// members, keeping the others in their order, indented by two spaces.
func withoutMembers(raw []byte, drop ...string) ([]byte, error) {
	dec := json.NewDecoder(bytes.NewReader(raw))
	if tok, err := dec.Token(); err != nil || tok != json.Delim('{') {
		return nil, fmt.Errorf("not a JSON object")
	}
	var buf bytes.Buffer
	buf.WriteString("{")
	first := true
	for dec.More() {
		tok, err := dec.Token()
		if err != nil {
			return nil, err
		}
		name, _ := tok.(string)
		var val json.RawMessage
		if err := dec.Decode(&val); err != nil {
			return nil, err
		}
		if slices.Contains(drop, name) {
			continue
		}
		key, _ := json.Marshal(name)
		var ind bytes.Buffer
		if err := json.Indent(&ind, val, "  ", "  "); err != nil {
			return nil, err
		}
		if !first {
			buf.WriteString(",")
		}
		first = false
		fmt.Fprintf(&buf, "\n  %s: %s", key, ind.Bytes())
	}
	buf.WriteString("\n}\n")
	return buf.Bytes(), nil
}
