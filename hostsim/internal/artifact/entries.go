package artifact

import (
	"encoding/json"
	"fmt"
	"math"
	"slices"
	"sort"
	"strings"

	"github.com/takokit/takokit/catalog/wire"
	"github.com/takokit/takokit/hostsim/internal/rules"
)

// entries decodes and checks the modules or files list of a manifest of kind k.
func entries(v any, k *wire.ManifestKind) ([]Entry, *rules.Refusal) {
	ptr, pathKey := "/"+k.Member, k.PathMember
	arr, ok := v.([]any)
	if !ok {
		return nil, bad(ptr, "must be an array of {%s, mediaType, size, digest}; got %s", pathKey, show(v))
	}
	if len(arr) < 1 || int64(len(arr)) > k.MaxEntries {
		return nil, bad(ptr, "has %d entries; accepted 1..%d", len(arr), k.MaxEntries)
	}
	members := []string{pathKey, "mediaType", "size", "digest"}
	out := make([]Entry, 0, len(arr))
	for i, it := range arr {
		ip := fmt.Sprintf("%s/%d", ptr, i)
		obj, ok := it.(map[string]any)
		if !ok {
			return nil, bad(ip, "must be an object {%s}; got %s", strings.Join(members, ", "), show(it))
		}
		for _, k := range sortedKeys(obj) {
			if !slices.Contains(members, k) {
				return nil, bad(ip+"/"+wire.EscapePointerToken(k), "unknown member %q; an entry has only %s", k, strings.Join(members, ", "))
			}
		}
		for _, k := range members {
			if _, ok := obj[k]; !ok {
				return nil, bad(ip+"/"+k, "missing required member %q", k)
			}
		}
		e := Entry{Pointer: ip}
		var r *rules.Refusal
		if e.Path, r = str(obj[pathKey], ip+"/"+pathKey); r != nil {
			return nil, r
		}
		if r = checkPath(ip+"/"+pathKey, e.Path); r != nil {
			return nil, r
		}
		if e.MediaType, r = str(obj["mediaType"], ip+"/mediaType"); r != nil {
			return nil, r
		}
		if r = checkMediaType(ip+"/mediaType", e.MediaType, k); r != nil {
			return nil, r
		}
		if e.Size, r = size(obj["size"], ip+"/size"); r != nil {
			return nil, r
		}
		if e.Digest, r = str(obj["digest"], ip+"/digest"); r != nil {
			return nil, r
		}
		if !digestRe.MatchString(e.Digest) {
			return nil, bad(ip+"/digest", "digest %q is not sha256: followed by 64 lowercase hex characters", e.Digest)
		}
		out = append(out, e)
	}
	return out, nil
}

func checkPath(ptr, p string) *rules.Refusal {
	const accepted = "accepted: 1..240 characters of /-separated segments, each starting with a letter, digit or _ " +
		"and holding only letters, digits, ., _ and -; no . or .. segment"
	switch {
	case len(p) == 0 || len(p) > wire.MaxArtifactPath:
		return bad(ptr, "path %q is %d characters long; %s", p, len(p), accepted)
	case slices.Contains(strings.Split(p, "/"), "."), slices.Contains(strings.Split(p, "/"), ".."):
		return bad(ptr, "path %q has a . or .. segment; %s", p, accepted)
	case !wire.ValidArtifactPath(p):
		return bad(ptr, "path %q is not a relative artifact path; %s", p, accepted)
	}
	return nil
}

// checkMediaType applies the kind's media-type policy (catalog/wire/artifact.go).
func checkMediaType(ptr, mt string, k *wire.ManifestKind) *rules.Refusal {
	if k.Admits(mt) {
		return nil
	}
	switch {
	case k.HasMainModule():
		return bad(ptr, "%s media type %q is not accepted in a %s manifest; loadable: %s; auxiliary: %s",
			singular(k.Member), mt, k.Kind, strings.Join(k.Loadable, ", "), strings.Join(k.Auxiliary(), ", "))
	case len(k.MediaTypes) > 0:
		return bad(ptr, "%s media type %q is not accepted in a %s manifest; accepted: exactly %s",
			singular(k.Member), mt, k.Kind, strings.Join(k.MediaTypes, ", "))
	}
	return bad(ptr, "%s media type %q is not a lowercase type/subtype without parameters of at most 255 characters",
		singular(k.Member), mt)
}

func str(v any, ptr string) (string, *rules.Refusal) {
	s, ok := v.(string)
	if !ok {
		return "", bad(ptr, "must be a string; got %s", show(v))
	}
	return s, nil
}

func size(v any, ptr string) (int64, *rules.Refusal) {
	n, ok := v.(json.Number)
	if !ok {
		return 0, bad(ptr, "size must be an integer 0..%d; got %s", MaxEntrySize, show(v))
	}
	i, err := n.Int64()
	if err != nil {
		f, ferr := n.Float64()
		if ferr != nil || f != math.Trunc(f) || f < 0 || f > float64(MaxEntrySize) {
			return 0, bad(ptr, "size %s is not an integer 0..%d", n, MaxEntrySize)
		}
		i = int64(f)
	}
	if i < 0 || i > MaxEntrySize {
		return 0, bad(ptr, "size %d is outside 0..%d", i, MaxEntrySize)
	}
	return i, nil
}

func sortedKeys(m map[string]any) []string {
	keys := make([]string, 0, len(m))
	for k := range m {
		keys = append(keys, k)
	}
	sort.Strings(keys)
	return keys
}

func show(v any) string {
	if v == nil {
		return "absent or null"
	}
	b, _ := json.Marshal(v)
	if len(b) > 80 {
		b = append(b[:80], "…"...)
	}
	return string(b)
}
