package seal

import (
	"bytes"
	"encoding/json"
	"fmt"
	"path"
	"sort"
	"strings"

	"github.com/takokit/takokit/catalog/wire"
)

const (
	indexName           = "package-index.json"
	definitionName      = "definition.json"
	packageAPIVersion   = "packages.forms.takoform.com/v1alpha4"
	definitionMediaType = "application/vnd.takoform.form-definition.v1+json"
)

// The index's member order is the order of these fields (docs/catalog-rules.md#documents).
type packageIndex struct {
	APIVersion     string      `json:"apiVersion"`
	Kind           string      `json:"kind"`
	FormRef        indexRef    `json:"formRef"`
	DefinitionPath string      `json:"definitionPath"`
	Files          []indexFile `json:"files"`
}

type indexRef struct {
	APIVersion        string `json:"apiVersion"`
	Kind              string `json:"kind"`
	DefinitionVersion string `json:"definitionVersion"`
	SchemaDigest      string `json:"schemaDigest"`
}

type indexFile struct {
	Path      string `json:"path"`
	MediaType string `json:"mediaType"`
	Size      int64  `json:"size"`
	Digest    string `json:"digest"`
}

// buildIndex lists every file of the package directory except the index itself,
// sorted by path in byte order, with raw size and digest. A media type already
// recorded for a path is kept; new files get one from their name.
func buildIndex(dir string, d *document, digest string, files map[string][]byte) ([]byte, error) {
	known := map[string]string{}
	if old, ok := files[path.Join(dir, indexName)]; ok {
		var prev packageIndex
		if json.Unmarshal(old, &prev) == nil {
			for _, f := range prev.Files {
				known[f.Path] = f.MediaType
			}
		}
	}
	idx := packageIndex{APIVersion: packageAPIVersion, Kind: "FormPackage", DefinitionPath: definitionName}
	idx.FormRef.APIVersion, _ = d.top.member("apiVersion")
	idx.FormRef.Kind, _ = d.top.member("kind")
	idx.FormRef.DefinitionVersion, _ = d.top.member("definitionVersion")
	idx.FormRef.SchemaDigest = digest
	fixtures := fixturePaths(d.top)
	prefix := dir + "/"
	for p, b := range files {
		if !strings.HasPrefix(p, prefix) {
			continue
		}
		rel := strings.TrimPrefix(p, prefix)
		if rel == indexName {
			continue
		}
		mt := mediaType(rel, known[rel])
		if fixtures[rel] {
			mt = "application/json"
		}
		if rel == definitionName {
			mt = definitionMediaType
		} else if mt == definitionMediaType {
			return nil, fmt.Errorf("seal: %s: only %s may carry the definition media type; change its entry in %s", p, definitionName, indexName)
		}
		idx.Files = append(idx.Files, indexFile{Path: rel, MediaType: mt, Size: int64(len(b)), Digest: wire.RawDigest(b)})
	}
	sort.Slice(idx.Files, func(i, j int) bool { return idx.Files[i].Path < idx.Files[j].Path })
	var buf bytes.Buffer
	enc := json.NewEncoder(&buf)
	enc.SetEscapeHTML(false)
	enc.SetIndent("", "  ")
	if err := enc.Encode(idx); err != nil {
		return nil, err
	}
	return buf.Bytes(), nil
}

// mediaType keeps a recorded media type and otherwise derives one from the name.
func mediaType(name, recorded string) string {
	if recorded != "" {
		return recorded
	}
	switch {
	case strings.HasSuffix(name, ".schema.json"):
		return "application/schema+json"
	case strings.HasSuffix(name, ".json"):
		return "application/json"
	case strings.HasSuffix(name, ".md"):
		return "text/markdown"
	default:
		return "text/plain"
	}
}

// fixturePaths are the package paths the Definition names as fixtures; the index must
// list them as application/json (docs/catalog-rules.md#documents).
func fixturePaths(top *node) map[string]bool {
	out := map[string]bool{}
	for _, list := range []string{"conformanceFixtures", "negativeConformanceFixtures"} {
		arr := top.members[list]
		if arr == nil || arr.kind != 'a' {
			continue
		}
		for _, e := range arr.elems {
			for _, k := range []string{"desiredPath", "observedPath", "outputPath", "inputPath"} {
				if v, ok := e.member(k); ok {
					out[v] = true
				}
			}
		}
	}
	return out
}
