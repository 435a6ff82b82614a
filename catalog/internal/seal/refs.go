package seal

import (
	"sort"
	"strconv"
	"strings"

	"github.com/takokit/takokit/catalog/wire"
)

const (
	interfaceAPIVersion = "interfaces.takoform.com/v1alpha1"
	bindingAPIVersion   = "bindings.takoform.com/v1alpha1"
)

// ref is one exact reference found inside a document: the identity it names and the
// schemaDigest string node the seal rewrites.
type ref struct {
	key     string // identity of the named document, as docKey builds it
	pointer string // JSON Pointer of the ref object
	digest  *node
}

func formKey(apiVersion, kind, version string) string {
	return "Form " + apiVersion + " " + kind + "@" + version
}

func interfaceKey(name, version string) string { return "Interface " + name + "@" + version }

func bindingKey(name, version string) string { return "Binding " + name + "@" + version }

// findRefs walks the whole document and returns every exact ref (docs/catalog-rules.md#documents):
// FormRefs by their four closed members, InterfaceRefs and BindingRefs by their
// closed members and document-type apiVersion.
func findRefs(root *node) []ref {
	var out []ref
	var walk func(n *node, ptr string)
	walk = func(n *node, ptr string) {
		switch n.kind {
		case 'o':
			if r, ok := asRef(n, ptr); ok {
				out = append(out, r)
				return
			}
			for _, k := range n.keys {
				walk(n.members[k], ptr+"/"+wire.EscapePointerToken(k))
			}
		case 'a':
			for i, e := range n.elems {
				walk(e, ptr+"/"+strconv.Itoa(i))
			}
		}
	}
	walk(root, "")
	return out
}

func asRef(n *node, ptr string) (ref, bool) {
	if n.members["schemaDigest"] == nil || n.members["schemaDigest"].kind != 's' {
		return ref{}, false
	}
	api, _ := n.member("apiVersion")
	switch {
	case n.hasExactly("apiVersion", "kind", "definitionVersion", "schemaDigest"):
		kind, ok1 := n.member("kind")
		ver, ok2 := n.member("definitionVersion")
		if ok1 && ok2 && api != "" {
			return ref{key: formKey(api, kind, ver), pointer: ptr, digest: n.members["schemaDigest"]}, true
		}
	case n.hasExactly("apiVersion", "name", "version", "schemaDigest"):
		name, ok1 := n.member("name")
		ver, ok2 := n.member("version")
		if !ok1 || !ok2 {
			return ref{}, false
		}
		switch api {
		case interfaceAPIVersion:
			return ref{key: interfaceKey(name, ver), pointer: ptr, digest: n.members["schemaDigest"]}, true
		case bindingAPIVersion:
			return ref{key: bindingKey(name, ver), pointer: ptr, digest: n.members["schemaDigest"]}, true
		}
	}
	return ref{}, false
}

// rewrite returns raw with each ref's digest string replaced by the digest its key
// resolves to. Only those string spans change; every other byte is kept. Replacement
// text is a plain JSON string (digests never need escapes).
func rewrite(raw []byte, refs []ref, digests map[string]string) []byte {
	sorted := append([]ref(nil), refs...)
	sort.Slice(sorted, func(i, j int) bool { return sorted[i].digest.start > sorted[j].digest.start })
	out := append([]byte(nil), raw...)
	for _, r := range sorted {
		d := digests[r.key]
		if r.digest.str == d && string(raw[r.digest.start:r.digest.end]) == strconv.Quote(d) {
			continue
		}
		var b strings.Builder
		b.Write(out[:r.digest.start])
		b.WriteString(strconv.Quote(d))
		b.Write(out[r.digest.end:])
		out = []byte(b.String())
	}
	return out
}
