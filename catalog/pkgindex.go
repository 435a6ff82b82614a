package catalog

import (
	"fmt"
	"io/fs"
	"path"
	"slices"

	"github.com/takokit/takokit/catalog/wire"
)

// The package index (docs/catalog-rules.md#documents) and the fixtures it lists.

const (
	mediaDefinition = "application/vnd.takoform.form-definition.v1+json"
	mediaJSON       = "application/json"
	maxPackageFile  = 67108864
)

var mediaTypes = []string{mediaDefinition, mediaJSON, "application/schema+json", "text/markdown", "text/plain"}

// loadIndex checks package-index.json against the package directory and the loaded
// definition, and records the package digest.
func (b *formBuild) loadIndex(fsys fs.FS, ps *problems) {
	file := path.Join(b.pkg.dir, indexFile)
	if !slices.Contains(b.pkg.files, indexFile) {
		ps.add(b.pkg.dir, "", "package has no package-index.json; write one listing every package file (mage catalog:seal does it)")
		return
	}
	var d packageIndexDoc
	_, digest, ok := readDoc(fsys, file, &d, ps)
	if !ok {
		return
	}
	b.form.PackageDigest = digest
	if ps.prechecked { // Load verified that the index names the definition's own digest
		b.form.Ref.SchemaDigest = d.FormRef.SchemaDigest
	}
	if d.APIVersion != wire.PackageAPIVersion {
		ps.add(file, "/apiVersion", "apiVersion must be %q", wire.PackageAPIVersion)
	}
	if d.Kind != "FormPackage" {
		ps.add(file, "/kind", "kind must be \"FormPackage\"")
	}
	if got, want := d.FormRef.ref(), b.form.Ref; got != want {
		switch {
		case got.APIVersion != want.APIVersion || got.Kind != want.Kind || got.DefinitionVersion != want.DefinitionVersion:
			ps.add(file, "/formRef", "formRef names %s %s@%s but the package holds %s %s@%s", got.APIVersion, got.Kind, got.DefinitionVersion, want.APIVersion, want.Kind, want.DefinitionVersion)
		default:
			ps.add(file, "/formRef/schemaDigest", "schemaDigest %s does not match the recomputed digest %s of definition.json; reseal the catalog (mage catalog:seal)", got.SchemaDigest, want.SchemaDigest)
		}
	}
	if d.DefinitionPath != definitionFile {
		ps.add(file, "/definitionPath", "definitionPath must be exactly %q", definitionFile)
	}
	if len(d.Files) == 0 {
		ps.add(file, "/files", "files must list at least the definition")
	}
	listed := map[string]string{} // path -> media type
	defs := 0
	for i, pf := range d.Files {
		ptr := fmt.Sprintf("/files/%d", i)
		if !validPackagePath(pf.Path) {
			ps.add(file, ptr+"/path", "%q is not a package path", pf.Path)
			continue
		}
		if i > 0 && pf.Path <= d.Files[i-1].Path {
			ps.add(file, ptr+"/path", "files must be sorted by path in byte order without duplicates; %q comes after %q", pf.Path, d.Files[i-1].Path)
		}
		if pf.Path == indexFile {
			ps.add(file, ptr+"/path", "the index never lists itself; remove this entry")
			continue
		}
		if !slices.Contains(mediaTypes, pf.MediaType) {
			ps.add(file, ptr+"/mediaType", "media type %q is not allowed; use one of %v", pf.MediaType, mediaTypes)
		}
		if pf.MediaType == mediaDefinition {
			defs++
			if pf.Path != d.DefinitionPath {
				ps.add(file, ptr+"/path", "the definition media type belongs only to definitionPath %q", d.DefinitionPath)
			}
		}
		if !wire.ValidDigest(pf.Digest) {
			ps.add(file, ptr+"/digest", "digest must be sha256: followed by 64 lowercase hex digits")
		}
		size, ok := rawInt(pf.Size)
		if !ok || size < 0 || size > maxPackageFile {
			ps.add(file, ptr+"/size", "size must be an integer from 0 to %d", maxPackageFile)
		}
		listed[pf.Path] = pf.MediaType
		if ps.prechecked {
			continue
		}
		if !slices.Contains(b.pkg.files, pf.Path) && !b.pkg.underUnread(pf.Path) {
			ps.add(file, ptr+"/path", "lists %q, which does not exist in the package; add the file or drop the entry", pf.Path)
			continue
		}
		raw, err := fs.ReadFile(fsys, path.Join(b.pkg.dir, pf.Path))
		if err != nil {
			ps.add(file, ptr+"/path", "cannot read %q: %v", pf.Path, err)
			continue
		}
		if size != int64(len(raw)) {
			ps.add(file, ptr+"/size", "size %d does not match the %d bytes of %q; reseal the catalog (mage catalog:seal)", size, len(raw), pf.Path)
		}
		if got := wire.RawDigest(raw); got != pf.Digest {
			ps.add(file, ptr+"/digest", "digest %s does not match the raw bytes of %q (%s); reseal the catalog (mage catalog:seal)", pf.Digest, pf.Path, got)
		}
	}
	if defs != 1 {
		ps.add(file, "/files", "exactly one file must have media type %q (found %d)", mediaDefinition, defs)
	}
	for _, f := range b.pkg.files {
		if _, ok := listed[f]; !ok && f != indexFile {
			ps.add(path.Join(b.pkg.dir, f), "", "file is in the package directory but not listed in package-index.json; list it or remove it")
		}
	}
	b.loadFixtures(fsys, listed, ps)
}

func (b *formBuild) loadFixtures(fsys fs.FS, listed map[string]string, ps *problems) {
	f, file, sch := b.form, b.file, b.schemas
	read := func(ptr, p string) []byte {
		mt, ok := listed[p]
		if !ok {
			ps.add(file, ptr, "fixture %q is not listed in package-index.json", p)
			return nil
		}
		if mt != mediaJSON {
			ps.add(file, ptr, "fixture %q must be listed with media type %s", p, mediaJSON)
		}
		raw, err := fs.ReadFile(fsys, path.Join(b.pkg.dir, p))
		if err != nil {
			return nil
		}
		fp := path.Join(b.pkg.dir, p)
		if ps.prechecked {
			return raw
		}
		if err := wire.CheckIJSON(raw); err != nil {
			ps.addJSON(fp, "", err)
			return nil
		}
		g, _ := decodeGeneric(raw) // I-JSON already: it decodes
		if _, isObj := g.(map[string]any); !isObj {
			ps.add(fp, "", "a fixture is a JSON object")
			return nil
		}
		return raw
	}
	canonical := 0
	for i, fx := range b.doc.ConformanceFixtures {
		ptr := fmt.Sprintf("/conformanceFixtures/%d", i)
		if fx.Name == "canonical" {
			canonical++
		}
		out := Fixture{Name: fx.Name, Desired: read(ptr+"/desiredPath", fx.DesiredPath)}
		if out.Desired != nil && sch.desired != nil && !ps.prechecked {
			if err := f.ValidateDesired(out.Desired); err != nil {
				ps.add(file, ptr+"/desiredPath", "fixture %q should validate against desiredSchema but does not: %v", fx.Name, err)
			}
		}
		if fx.ObservedPath != nil {
			if sch.observed == nil {
				ps.add(file, ptr+"/observedPath", "fixture %q has an observed document but the Form declares no observedSchema", fx.Name)
			} else if raw := read(ptr+"/observedPath", *fx.ObservedPath); raw != nil && !ps.prechecked {
				if err := f.ValidateObserved(raw); err != nil {
					ps.add(file, ptr+"/observedPath", "fixture %q should validate against observedSchema but does not: %v", fx.Name, err)
				}
			}
		}
		if fx.OutputPath != nil {
			if f.OutputJSON == nil {
				ps.add(file, ptr+"/outputPath", "fixture %q has an output document but the Form declares no outputSchema", fx.Name)
			} else if out.Output = read(ptr+"/outputPath", *fx.OutputPath); out.Output != nil && sch.output != nil && !ps.prechecked {
				if err := f.ValidateOutputs(out.Output); err != nil {
					ps.add(file, ptr+"/outputPath", "fixture %q should validate against outputSchema but does not: %v", fx.Name, err)
				}
			}
		}
		f.Fixtures = append(f.Fixtures, out)
	}
	// The published definition schema makes conformanceFixtures optional: a definition
	// without any loads, and the checks that need a fixture are not applicable to it
	// (Form.CanonicalFixture says why). Declared fixtures still need one canonical.
	if canonical != 1 && len(b.doc.ConformanceFixtures) > 0 {
		ps.add(file, "/conformanceFixtures", "exactly one positive fixture must be named \"canonical\" (found %d)", canonical)
	}
	canonicalFirst(f.Fixtures)
	for i, fx := range b.doc.NegativeConformanceFixtures {
		ptr := fmt.Sprintf("/negativeConformanceFixtures/%d", i)
		raw := read(ptr+"/inputPath", fx.InputPath)
		f.NegativeFixtures = append(f.NegativeFixtures, NegativeFixture{Name: fx.Name, Stage: fx.Stage, ExpectedFailure: fx.ExpectedFailure, Input: raw})
		if raw == nil || ps.prechecked {
			continue
		}
		var err error
		switch fx.Stage {
		case "desired":
			if sch.desired == nil {
				continue
			}
			err = f.ValidateDesired(raw)
		case "output":
			if f.OutputJSON == nil {
				ps.add(file, ptr+"/stage", "negative fixture %q has stage output but the Form declares no outputSchema", fx.Name)
				continue
			}
			if sch.output == nil {
				continue
			}
			err = f.ValidateOutputs(raw)
		case "observed":
			if sch.observed == nil {
				ps.add(file, ptr+"/stage", "negative fixture %q has stage observed but the Form declares no observedSchema", fx.Name)
				continue
			}
			err = f.ValidateObserved(raw)
		}
		if err == nil {
			ps.add(file, ptr+"/inputPath", "negative fixture %q must fail %s validation but passes; make it break exactly one rule", fx.Name, fx.Stage)
		}
	}
}

// canonicalFirst moves the fixture named "canonical" to the front, the rest
// keeping their order: every consumer that needs one valid instance of a Form
// takes Fixtures[0], which so is the canonical fixture whatever the order
// the definition declares them in.
func canonicalFirst(fxs []Fixture) {
	for i, fx := range fxs {
		if fx.Name == "canonical" {
			copy(fxs[1:i+1], fxs[:i])
			fxs[0] = fx
			return
		}
	}
}
