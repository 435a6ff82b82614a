package seal

import (
	"fmt"
	"path"
	"sort"
	"strings"
)

// Candidate-set listings (docs/catalog-rules.md#layout) carry the digests the loader
// compares with what it loads: each listed Form's formRef.schemaDigest and
// packageDigest, and each listed Interface's or Binding's schemaDigest. The seal
// rewrites exactly those strings, after the definitions and package indexes are
// sealed, so a listing never lags behind the documents it names.

const candidateSetName = "candidate-set.json"

// packageKey names the package digest of a Form in the digest map rewrite reads.
func packageKey(formKey string) string { return "Package " + formKey }

// sealCandidateSets rewrites the digests of every candidate-set.json under forms/,
// interfaces/ and bindings/. Every entry must name a document of the catalog.
func sealCandidateSets(files map[string][]byte, docs []*document) []string {
	var listings []string
	for p := range files {
		if path.Base(p) == candidateSetName {
			listings = append(listings, p)
		}
	}
	if len(listings) == 0 { // a catalog built at run time (catalog/synthetic) has none: no digest to compute
		return nil
	}
	sort.Strings(listings)
	digests := map[string]string{}
	for _, d := range docs {
		dg, err := digestOf(d.raw)
		if err != nil {
			return []string{fmt.Sprintf("seal: %s: %v", d.path, err)}
		}
		digests[d.key] = dg
		if d.cat != catForm {
			continue
		}
		idx := path.Join(path.Dir(d.path), indexName)
		pd, err := digestOf(files[idx])
		if err != nil {
			return []string{fmt.Sprintf("seal: %s: %v", idx, err)}
		}
		digests[packageKey(d.key)] = pd
	}
	var probs []string
	for _, p := range listings {
		top, err := parse(files[p])
		if err != nil {
			probs = append(probs, fmt.Sprintf("seal: %s: %v", p, err))
			continue
		}
		refs := candidateRefs(p, top)
		for _, r := range refs {
			if _, ok := digests[r.key]; !ok {
				probs = append(probs, fmt.Sprintf("seal: %s: %s: names %s, which is not in this catalog; add that document or drop the entry", p, r.pointer, strings.TrimPrefix(r.key, "Package ")))
			}
		}
		if len(probs) == 0 {
			files[p] = rewrite(files[p], refs, digests)
		}
	}
	return probs
}

// candidateRefs finds the digest strings of one listing: under forms/, each entry of
// "forms" with a FormRef-shaped formRef (its schemaDigest, and its packageDigest when
// that is a string); under interfaces/ or bindings/, each entry of "interfaces" or
// "bindings" with string name, version and schemaDigest. Other members are the
// listing's own and stay untouched.
func candidateRefs(file string, top *node) []ref {
	switch strings.SplitN(file, "/", 2)[0] {
	case "interfaces":
		return contractListingRefs(top, "interfaces", interfaceKey)
	case "bindings":
		return contractListingRefs(top, "bindings", bindingKey)
	}
	var out []ref
	for i, e := range listing(top, "forms") {
		fn := e.members["formRef"]
		if fn == nil || fn.kind != 'o' {
			continue
		}
		ptr := fmt.Sprintf("/forms/%d", i)
		fr, ok := asRef(fn, ptr+"/formRef")
		if !ok || !strings.HasPrefix(fr.key, "Form ") {
			continue
		}
		out = append(out, fr)
		if _, ok := e.member("packageDigest"); ok {
			out = append(out, ref{key: packageKey(fr.key), pointer: ptr + "/packageDigest", digest: e.members["packageDigest"]})
		}
	}
	return out
}

func contractListingRefs(top *node, list string, keyOf func(name, version string) string) []ref {
	var out []ref
	for i, e := range listing(top, list) {
		name, ok1 := e.member("name")
		ver, ok2 := e.member("version")
		if _, ok3 := e.member("schemaDigest"); ok1 && ok2 && ok3 {
			out = append(out, ref{key: keyOf(name, ver), pointer: fmt.Sprintf("/%s/%d", list, i), digest: e.members["schemaDigest"]})
		}
	}
	return out
}

// listing returns the entries of the top-level array list (an entry that is not an
// object matches nothing in the callers).
func listing(top *node, list string) []*node {
	if top.kind != 'o' || top.members[list] == nil || top.members[list].kind != 'a' {
		return nil
	}
	return top.members[list].elems
}
