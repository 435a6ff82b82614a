package catalog

import (
	"encoding/json"
	"fmt"
	"io/fs"
	"path"
	"slices"
	"strings"

	"github.com/takokit/takokit/catalog/wire"
)

var (
	interfaceNameRe = lazyRegexp(`^[a-z][a-z0-9]*(?:\.[a-z][a-z0-9]*)*$`)
	bindingNameRe   = lazyRegexp(`^[a-z][a-z0-9]*(?:[.-][a-z][a-z0-9]*)*$`)
	releaseRe       = lazyRegexp(`^(0|[1-9][0-9]*)\.(0|[1-9][0-9]*)\.(0|[1-9][0-9]*)$`)
	operationNameRe = lazyRegexp(`^[a-z][a-zA-Z0-9]{0,63}$`)
	errorCodeRe     = lazyRegexp(`^[a-z][a-z0-9_]{2,63}$`)
	limitNameRe     = lazyRegexp(`^[a-z][a-zA-Z0-9]{0,63}$`)
	accessModeRe    = lazyRegexp(`^[a-z][a-z0-9_]{0,63}$`)
)

var (
	consistencies = []string{"eventual", "read_after_write", "per_key_linearizable", "serializable"}
	paginations   = []string{"none", "cursor"}
	deliveries    = []string{"at_least_once", "exactly_once_effect"}
	orderings     = []string{"none", "per_key", "total"}
	roles         = []string{"identity", "revision", "deployment", "attachment", "policy"}
)

// readDoc reads a file, applies the I-JSON gate and strict typed decoding, and
// returns the raw bytes and their canonical digest. ok is false when the document
// could not be decoded (the problems are recorded).
func readDoc(fsys fs.FS, file string, v any, ps *problems) (raw []byte, digest string, ok bool) {
	return readDocDigest(fsys, file, v, ps, true)
}

// readDocDigest is readDoc; withDigest false leaves the digest to the caller (a
// prechecked definition takes it from its package index, which Load verified).
func readDocDigest(fsys fs.FS, file string, v any, ps *problems, withDigest bool) (raw []byte, digest string, ok bool) {
	raw, err := fs.ReadFile(fsys, file)
	if err != nil {
		ps.add(file, "", "cannot read: %v", err)
		return nil, "", false
	}
	decode := wire.DecodeStrict
	if ps.prechecked { // Load has applied the I-JSON gate to these very bytes
		decode = json.Unmarshal
	}
	if err := decode(raw, v); err != nil {
		ps.addJSON(file, "", err)
		return raw, "", false
	}
	if !withDigest {
		return raw, "", true
	}
	digest, err = wire.Digest(raw)
	if err != nil {
		ps.addJSON(file, "", err)
		return raw, "", false
	}
	return raw, digest, true
}

func checkProse(file string, title, desc *string, ps *problems) {
	if title != nil && (len([]rune(*title)) < 1 || len([]rune(*title)) > 160) {
		ps.add(file, "/title", "title must be 1 to 160 characters")
	}
	if desc != nil && len([]rune(*desc)) > 4096 {
		ps.add(file, "/description", "description must be at most 4096 characters")
	}
}

func deref(s *string) string {
	if s == nil {
		return ""
	}
	return *s
}

func loadInterface(fsys fs.FS, cd contractDir, ps *problems) *Interface {
	var d interfaceDoc
	raw, digest, ok := readDoc(fsys, cd.file, &d, ps)
	if !ok {
		return nil
	}
	f := cd.file
	before := len(ps.list)
	if d.APIVersion != wire.InterfaceAPIVersion {
		ps.add(f, "/apiVersion", "apiVersion must be %q", wire.InterfaceAPIVersion)
	} else if cd.apiDir != path.Base(d.APIVersion) {
		ps.add(f, "/apiVersion", "document apiVersion %q belongs under interfaces/%s/, not interfaces/%s/", d.APIVersion, path.Base(d.APIVersion), cd.apiDir)
	}
	if d.Kind != "InterfaceDefinition" {
		ps.add(f, "/kind", "kind must be \"InterfaceDefinition\"")
	}
	checkContractName(f, d.Name, cd, interfaceNameRe, ps)
	checkContractVersion(f, d.Version, cd, ps)
	checkProse(f, d.Title, d.Description, ps)
	ops := checkOperations(f, d.Operations, ps)
	s := d.Semantics
	if !slices.Contains(consistencies, s.Consistency) {
		ps.add(f, "/semantics/consistency", "consistency must be one of %s", strings.Join(consistencies, ", "))
	}
	checkEnumPtr(f, "/semantics/pagination", s.Pagination, paginations, ps)
	checkEnumPtr(f, "/semantics/delivery", s.Delivery, deliveries, ps)
	checkEnumPtr(f, "/semantics/ordering", s.Ordering, orderings, ps)
	for _, k := range sortedKeys(d.Limits) {
		p := ptrJoin("/limits", k)
		if !limitNameRe.MatchString(k) {
			ps.add(f, p, "limit name must match ^[a-z][a-zA-Z0-9]{0,63}$")
		}
		if n, ok := rawInt(d.Limits[k]); !ok || n < 0 {
			ps.add(f, p, "limit must be an integer from 0 to 2^53−1")
		}
	}
	if len(d.Fixtures) > 32 {
		ps.add(f, "/fixtures", "at most 32 fixtures are allowed")
	}
	for i, fx := range d.Fixtures {
		fp := fmt.Sprintf("/fixtures/%d", i)
		if len(fx.Steps) < 1 || len(fx.Steps) > 64 {
			ps.add(f, fp+"/steps", "a fixture has 1 to 64 steps")
		}
		for j, st := range fx.Steps {
			sp := fmt.Sprintf("%s/steps/%d", fp, j)
			errs, ok := ops[st.Operation]
			if !ok {
				ps.add(f, sp+"/operation", "step names operation %q, which this Interface does not declare", st.Operation)
				continue
			}
			if st.ExpectedError != nil && !slices.Contains(errs, *st.ExpectedError) {
				ps.add(f, sp+"/expectedError", "expectedError %q is not in the errors of operation %q", *st.ExpectedError, st.Operation)
			}
		}
	}
	if len(ps.list) > before {
		ps.markContract(d.Name)
		return nil
	}
	names := make([]string, len(d.Operations))
	for i, o := range d.Operations {
		names[i] = o.Name
	}
	return &Interface{
		Ref:   wire.InterfaceRef{APIVersion: d.APIVersion, Name: d.Name, Version: d.Version, SchemaDigest: digest},
		Title: deref(d.Title), Description: deref(d.Description), Operations: names, JSON: raw,
	}
}

func checkContractName(f, name string, cd contractDir, re *lazyPattern, ps *problems) {
	if len(name) > 128 || !re.MatchString(name) {
		ps.add(f, "/name", "name %q must match %s and be at most 128 characters", name, re.String())
	}
	if name != cd.name {
		ps.add(f, "/name", "name %q must equal its directory name %q; rename one of them", name, cd.name)
	}
}

func checkContractVersion(f, version string, cd contractDir, ps *problems) {
	if !releaseRe.MatchString(version) {
		ps.add(f, "/version", "version %q must be MAJOR.MINOR.PATCH without a pre-release part", version)
	}
	if cd.verDir != "" && cd.verDir != version {
		ps.add(f, "/version", "version %q must equal its directory name %q", version, cd.verDir)
	}
}

func checkEnumPtr(f, ptr string, v *string, allowed []string, ps *problems) {
	if v != nil && !slices.Contains(allowed, *v) {
		ps.add(f, ptr, "value %q must be one of %s", *v, strings.Join(allowed, ", "))
	}
}

// checkOperations validates the operation list and returns each operation's errors.
func checkOperations(f string, ops []operationDoc, ps *problems) map[string][]string {
	out := map[string][]string{}
	if len(ops) < 1 || len(ops) > 64 {
		ps.add(f, "/operations", "an Interface declares 1 to 64 operations")
	}
	for i, o := range ops {
		p := fmt.Sprintf("/operations/%d", i)
		if !operationNameRe.MatchString(o.Name) {
			ps.add(f, p+"/name", "operation name %q must match ^[a-z][a-zA-Z0-9]{0,63}$", o.Name)
		}
		if _, dup := out[o.Name]; dup {
			ps.add(f, p+"/name", "operation %q is declared twice; operation names are unique", o.Name)
		}
		out[o.Name] = o.Errors
		if o.Description != nil && len([]rune(*o.Description)) > 1024 {
			ps.add(f, p+"/description", "operation description must be at most 1024 characters")
		}
		for _, sch := range []struct {
			name string
			raw  []byte
		}{{"inputSchema", o.InputSchema}, {"outputSchema", o.OutputSchema}} {
			sp := p + "/" + sch.name
			if ps.prechecked {
				continue
			}
			if g, err := decodeGeneric(sch.raw); err == nil && checkSchemaBasics(f, sp, g, ps) {
				compileSchema(f, sp, sch.raw, ps)
			}
		}
		if len(o.Errors) > 32 {
			ps.add(f, p+"/errors", "an operation lists at most 32 error codes")
		}
		seen := map[string]bool{}
		for j, e := range o.Errors {
			if !errorCodeRe.MatchString(e) || seen[e] {
				ps.add(f, fmt.Sprintf("%s/errors/%d", p, j), "error code %q must match ^[a-z][a-z0-9_]{2,63}$ and appear once", e)
			}
			seen[e] = true
		}
	}
	return out
}

// resolveInterface finds the Interface ref names, by every member.
func resolveInterface(f, ptr string, ref wire.InterfaceRef, ifaces []*Interface, ps *problems) *Interface {
	if ref.APIVersion != wire.InterfaceAPIVersion {
		ps.add(f, ptrJoin(ptr, "apiVersion"), "an InterfaceRef apiVersion must be %q", wire.InterfaceAPIVersion)
		return nil
	}
	return resolveContract(f, ptr, "Interface", "interfaces/", ref.Name, ref.Version, ref.SchemaDigest, ifaces,
		func(i *Interface) (string, string, string) { return i.Ref.Name, i.Ref.Version, i.Ref.SchemaDigest }, ps)
}
