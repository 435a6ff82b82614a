package seal

import (
	"fmt"
	"path"
	"sort"
	"strings"
)

// sealDocuments seals definitions in dependency order (a document after every document
// it names), which for the project's family is Interfaces, then Bindings, then Forms in
// reference order; then it writes each Form package's index.
func sealDocuments(docs []*document, files map[string][]byte) []string {
	order, probs := dependencyOrder(docs)
	if len(probs) > 0 {
		return probs
	}
	digests := map[string]string{}
	for _, d := range order {
		d.raw = rewrite(d.raw, d.refs, digests)
		dg, err := digestOf(d.raw)
		if err != nil {
			return []string{fmt.Sprintf("seal: %s: %v", d.path, err)}
		}
		digests[d.key] = dg
		files[d.path] = d.raw
	}
	for _, d := range order {
		if d.cat != catForm {
			continue
		}
		idx, err := buildIndex(path.Dir(d.path), d, digests[d.key], files)
		if err != nil {
			probs = append(probs, err.Error())
			continue
		}
		files[path.Join(path.Dir(d.path), indexName)] = idx
	}
	return probs
}

// dependencyOrder sorts documents so each follows everything it references. Ties are
// broken by category (Interfaces, Bindings, Forms) and then by path, so the order is
// stable. A ref to an unknown document or a reference cycle is reported.
func dependencyOrder(docs []*document) ([]*document, []string) {
	byKey := map[string]*document{}
	for _, d := range docs {
		byKey[d.key] = d
	}
	var probs []string
	indeg := map[*document]int{}
	users := map[*document][]*document{}
	for _, d := range docs {
		deps := map[*document]bool{}
		for _, r := range d.refs {
			t, ok := byKey[r.key]
			if !ok {
				probs = append(probs, fmt.Sprintf("seal: %s: %s: names %s, which is not in this catalog; add that document or correct the ref", d.path, r.pointer, r.key))
				continue
			}
			if t == d {
				probs = append(probs, fmt.Sprintf("seal: %s: %s: a document cannot name itself by exact ref (its digest would depend on itself)", d.path, r.pointer))
				continue
			}
			if !deps[t] {
				deps[t] = true
				users[t] = append(users[t], d)
				indeg[d]++
			}
		}
	}
	if len(probs) > 0 {
		return nil, probs
	}
	less := func(a, b *document) bool {
		if a.cat != b.cat {
			return a.cat < b.cat
		}
		return a.path < b.path
	}
	var ready, order []*document
	for _, d := range docs {
		if indeg[d] == 0 {
			ready = append(ready, d)
		}
	}
	for len(ready) > 0 {
		sort.Slice(ready, func(i, j int) bool { return less(ready[i], ready[j]) })
		d := ready[0]
		ready = ready[1:]
		order = append(order, d)
		for _, u := range users[d] {
			indeg[u]--
			if indeg[u] == 0 {
				ready = append(ready, u)
			}
		}
	}
	if len(order) != len(docs) {
		var stuck []string
		for _, d := range docs {
			if indeg[d] > 0 {
				stuck = append(stuck, d.path)
			}
		}
		sort.Strings(stuck)
		return nil, []string{fmt.Sprintf("seal: exact refs form a cycle among %s; digests chain, so break the cycle", strings.Join(stuck, ", "))}
	}
	return order, nil
}

// sealTransitions rewrites the FormRef digests of transitions.json. Every ref in it
// must name a Form of the catalog.
func sealTransitions(files map[string][]byte, docs []*document) []string {
	raw, ok := files["transitions.json"]
	if !ok {
		return nil
	}
	top, err := parse(raw)
	if err != nil {
		return []string{fmt.Sprintf("seal: transitions.json: %v", err)}
	}
	digests := map[string]string{}
	for _, d := range docs {
		if d.cat == catForm {
			dg, err := digestOf(d.raw)
			if err != nil {
				return []string{fmt.Sprintf("seal: %s: %v", d.path, err)}
			}
			digests[d.key] = dg
		}
	}
	refs := findRefs(top)
	var probs []string
	for _, r := range refs {
		if _, ok := digests[r.key]; !ok {
			probs = append(probs, fmt.Sprintf("seal: transitions.json: %s: names %s, which is not a Form of this catalog; add it or correct the ref", r.pointer, r.key))
		}
	}
	if len(probs) > 0 {
		return probs
	}
	files["transitions.json"] = rewrite(raw, refs, digests)
	return nil
}
