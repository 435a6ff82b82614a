// Package synthetic builds the Form definitions a conformance run asks a host to
// install beside its catalog (docs/protocol.md#probes): a second definition
// version of a kind that withholds an interface the first provides, and the same
// kind name in a second group. They are the project's own documents, derived at
// run time from the loaded catalog's definitions as probes.json describes, sealed
// and loaded like any catalog root; hostsim installs them under
// --conformance-probes and a runner may extend its own catalog the same way.
package synthetic

import (
	_ "embed"
	"encoding/json"
	"fmt"
	"path"
	"slices"
	"strings"
	"testing/fstest"

	"github.com/takokit/takokit/catalog"
	"github.com/takokit/takokit/catalog/internal/seal"
	"github.com/takokit/takokit/catalog/wire"
)

//go:embed probes.json
var probesJSON []byte

type plan struct {
	Comment                 string `json:"comment"`
	SecondDefinitionVersion struct {
		Kind              string `json:"kind"`
		DefinitionVersion string `json:"definitionVersion"`
		Withhold          []struct {
			Name    string `json:"name"`
			Version string `json:"version"`
		} `json:"withhold"`
	} `json:"secondDefinitionVersion"`
	SecondGroup struct {
		Kind       string `json:"kind"`
		FirstLabel string `json:"firstLabel"`
		Version    string `json:"version"`
	} `json:"secondGroup"`
}

// Forms builds the synthetic Forms for cat: each one whose source kind cat holds
// and whose identity cat does not hold yet. The result is a catalog of cat's lane
// holding only them (and the Interfaces they reference).
//
// The sealed documents load with catalog.LoadPrechecked: what it skips is settled
// already. seal.Files has just written every digest over these very bytes; the
// fixtures are cat's, under the desired and output schemas of their source
// definition, which the edits leave alone; the Interfaces are cat's own documents
// (catalog.Extend refuses any other); and the definitions are re-encoded by
// encoding/json from decoded documents (no duplicate member, the source's numbers).
// The rest of Load's rules run as in any load. So over a cat a checking Load
// accepted (or the embedded data, which the catalog module's tests hold to it) the
// result is what Load would derive; TestSyntheticFilesPassTheCheckingLoad holds
// each lane's embedded catalog and the test catalog to that.
func Forms(cat *catalog.Catalog) (*catalog.Catalog, error) {
	files, err := sealedFiles(cat)
	if err != nil || files == nil {
		return nil, err
	}
	fsys := fstest.MapFS{}
	for p, b := range files {
		fsys[p] = &fstest.MapFile{Data: b}
	}
	out, err := catalog.LoadPrechecked(fsys)
	if err != nil {
		return nil, fmt.Errorf("the synthetic conformance definitions do not load: %w", err)
	}
	return out, nil
}

// sealedFiles is the sealed catalog root of the synthetic Forms for cat, nil when
// cat holds every one already.
func sealedFiles(cat *catalog.Catalog) (map[string][]byte, error) {
	var p plan
	if err := wire.DecodeStrict(probesJSON, &p); err != nil {
		return nil, fmt.Errorf("catalog/synthetic/probes.json: %w", err)
	}
	files := map[string][]byte{"lane.json": []byte(`{"lane": "` + cat.Lane().Name + `"}` + "\n")}
	named := map[*catalog.Interface]bool{} // the Interfaces the synthetic definitions reference
	added := 0
	if src := newest(cat, p.SecondDefinitionVersion.Kind); src != nil && !holds(cat, src.Ref.APIVersion, src.Ref.Kind, p.SecondDefinitionVersion.DefinitionVersion) {
		var withheld []string
		for _, w := range p.SecondDefinitionVersion.Withhold {
			withheld = append(withheld, w.Name+"@"+w.Version)
		}
		err := add(files, cat, named, src, func(def map[string]any) {
			def["definitionVersion"] = p.SecondDefinitionVersion.DefinitionVersion
			var kept []any
			for _, i := range asList(def["providedInterfaces"]) {
				m, _ := i.(map[string]any)
				if !slices.Contains(withheld, fmt.Sprint(m["name"])+"@"+fmt.Sprint(m["version"])) {
					kept = append(kept, i)
				}
			}
			if len(kept) == 0 {
				delete(def, "providedInterfaces")
			} else {
				def["providedInterfaces"] = kept
			}
			def["description"] = fmt.Sprintf("%s A synthetic second definition version built for conformance runs: it withholds %s, so the relations that require it refuse a %s created under it.",
				strings.TrimSpace(fmt.Sprint(def["description"])), strings.Join(withheld, ", "), src.Ref.Kind)
		})
		if err != nil {
			return nil, err
		}
		added++
	}
	if src := newest(cat, p.SecondGroup.Kind); src != nil {
		group := secondGroup(src.Ref.APIVersion, p.SecondGroup.FirstLabel, p.SecondGroup.Version)
		if group != src.Ref.APIVersion && !holds(cat, group, src.Ref.Kind, src.Ref.DefinitionVersion) {
			err := add(files, cat, named, src, func(def map[string]any) {
				def["apiVersion"] = group
				def["description"] = fmt.Sprintf("%s A synthetic copy in a second group built for conformance runs: the same kind name in %s is another kind.",
					strings.TrimSpace(fmt.Sprint(def["description"])), group)
			})
			if err != nil {
				return nil, err
			}
			added++
		}
	}
	if added == 0 {
		return nil, nil
	}
	for _, i := range cat.Interfaces() { // only those: sealing and loading an Interface is a JCS digest of tens of KiB
		if named[i] {
			files[path.Join("interfaces", interfaceDir(i), i.Ref.Name, "definition.json")] = i.JSON
		}
	}
	if _, err := seal.Files(files); err != nil {
		return nil, fmt.Errorf("seal the synthetic conformance definitions: %w", err)
	}
	return files, nil
}

// Extend returns cat with the synthetic Forms added (cat itself when it already
// holds every one).
func Extend(cat *catalog.Catalog) (*catalog.Catalog, error) {
	extra, err := Forms(cat)
	if err != nil || extra == nil {
		return cat, err
	}
	return catalog.Extend(cat, extra)
}

// newest is the newest definition version of the first group holding kind.
func newest(cat *catalog.Catalog, kind string) *catalog.Form {
	for _, k := range cat.Kinds() {
		if k.Kind == kind {
			return k.Versions[len(k.Versions)-1]
		}
	}
	return nil
}

func holds(cat *catalog.Catalog, group, kind, version string) bool {
	k, ok := cat.Kind(group, kind)
	return ok && slices.ContainsFunc(k.Versions, func(f *catalog.Form) bool { return f.Ref.DefinitionVersion == version })
}

// secondGroup replaces the first DNS label and the version of group:
// edge.forms.takokit.dev/v1beta1 → other.forms.takokit.dev/v1alpha1.
func secondGroup(group, label, version string) string {
	host, _, _ := strings.Cut(group, "/")
	_, rest, ok := strings.Cut(host, ".")
	if !ok {
		return group
	}
	return label + "." + rest + "/" + version
}

func interfaceDir(i *catalog.Interface) string {
	var d struct {
		APIVersion string `json:"apiVersion"`
	}
	_ = json.Unmarshal(i.JSON, &d)
	_, v, _ := strings.Cut(d.APIVersion, "/")
	return v
}

// add writes a package derived from src: its definition changed by edit, and its
// fixture documents at the paths the definition names. It marks in named each of
// cat's Interfaces the definition references (an object naming its name and version).
func add(files map[string][]byte, cat *catalog.Catalog, named map[*catalog.Interface]bool, src *catalog.Form, edit func(def map[string]any)) error {
	var def map[string]any
	if err := wire.DecodeNumbers(src.DefinitionJSON, &def); err != nil {
		return fmt.Errorf("read the definition of %s: %w", src.Ref, err)
	}
	edit(def)
	markInterfaces(def, cat, named)
	dir := path.Join("forms", strings.NewReplacer("/", "-", ".", "-").Replace(fmt.Sprint(def["apiVersion"])), src.Slug, fmt.Sprint(def["definitionVersion"]))
	raw, err := json.MarshalIndent(def, "", "  ")
	if err != nil {
		return err
	}
	files[path.Join(dir, "definition.json")] = append(raw, '\n')
	for _, e := range asList(def["conformanceFixtures"]) {
		m, _ := e.(map[string]any)
		for _, fx := range src.Fixtures {
			if fx.Name != m["name"] {
				continue
			}
			if p, ok := m["desiredPath"].(string); ok {
				files[path.Join(dir, p)] = fx.Desired
			}
			if p, ok := m["outputPath"].(string); ok {
				files[path.Join(dir, p)] = fx.Output
			}
		}
	}
	for _, e := range asList(def["negativeConformanceFixtures"]) {
		m, _ := e.(map[string]any)
		for _, fx := range src.NegativeFixtures {
			if p, ok := m["inputPath"].(string); ok && fx.Name == m["name"] {
				files[path.Join(dir, p)] = fx.Input
			}
		}
	}
	return nil
}

// markInterfaces marks the Interfaces of cat that an object under v names by its
// string members name and version: an Interface reference has that shape wherever it
// stands (providedInterfaces, x-takoform-required-interface), and marking an object
// of that shape that is no reference only carries one Interface more.
func markInterfaces(v any, cat *catalog.Catalog, named map[*catalog.Interface]bool) {
	switch x := v.(type) {
	case map[string]any:
		name, okN := x["name"].(string)
		version, okV := x["version"].(string)
		if okN && okV {
			if i, ok := cat.Interface(name, version); ok {
				named[i] = true
			}
		}
		for _, e := range x {
			markInterfaces(e, cat, named)
		}
	case []any:
		for _, e := range x {
			markInterfaces(e, cat, named)
		}
	}
}

func asList(v any) []any {
	l, _ := v.([]any)
	return l
}
