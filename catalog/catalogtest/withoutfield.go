package catalogtest

import (
	"bytes"
	"encoding/json"
	"fmt"
	"os"
	"path/filepath"
	"slices"

	"github.com/takokit/takokit/catalog"
)

// WithoutField writes the built-in catalog to dir with the optional top-level field
// of kind's desired spec taken out: the desiredSchema no longer declares it (so a
// reference it held is no relation of the kind any more), the positive fixtures' desired
// specs leave it out, and a negative fixture that exercised it (its value differs from the
// first positive fixture's) is dropped with its file, while the others leave it out
// too. The catalog is resealed and loaded. A family may shape a Form more narrowly
// than the built-in one, e.g. a queue consumer with no dead-letter queue; the
// conformance runner must then say a check does not apply rather than fail or crash.
func WithoutField(dir, kind, field string) (*catalog.Catalog, error) {
	return editBuiltIn(dir, "taking the field "+field+" out of "+kind, []string{kind}, func(pkg string, raw []byte) error {
		return withoutField(pkg, raw, field)
	})
}

// withoutField edits one definition package (its definition.json is raw).
func withoutField(pkg string, raw []byte, field string) error {
	def, err := decodeObject(raw)
	if err != nil {
		return err
	}
	schema, _ := def["desiredSchema"].(map[string]any)
	props, _ := schema["properties"].(map[string]any)
	if _, ok := props[field]; !ok {
		return fmt.Errorf("its desiredSchema declares no field %q", field)
	}
	if req, _ := schema["required"].([]any); slices.Contains(req, any(field)) {
		return fmt.Errorf("%q is required: a definition without it is another Form, not a narrower one", field)
	}
	delete(props, field)
	if imm, ok := def["immutableFields"].([]any); ok {
		def["immutableFields"] = slices.DeleteFunc(imm, func(p any) bool { return p == "/"+field })
	}
	var canonical json.RawMessage
	fixtures, _ := def["conformanceFixtures"].([]any)
	for i, fx := range fixtures {
		p, _ := fx.(map[string]any)["desiredPath"].(string)
		held, err := rewriteWithout(filepath.Join(pkg, filepath.FromSlash(p)), field)
		if err != nil {
			return err
		}
		if i == 0 {
			canonical = held
		}
	}
	negatives, _ := def["negativeConformanceFixtures"].([]any)
	kept := negatives[:0]
	for _, fx := range negatives {
		p, _ := fx.(map[string]any)["inputPath"].(string)
		file := filepath.Join(pkg, filepath.FromSlash(p))
		input, err := readObject(file)
		if err != nil {
			return err
		}
		if v, ok := input[field]; ok && !sameJSON(v, canonical) {
			if err := os.Remove(file); err != nil {
				return err
			}
			continue
		}
		if _, err := rewriteWithout(file, field); err != nil {
			return err
		}
		kept = append(kept, fx)
	}
	if negatives != nil {
		def["negativeConformanceFixtures"] = kept
	}
	return writeObject(filepath.Join(pkg, "definition.json"), def)
}

// rewriteWithout rewrites the JSON object in file without its member field and
// returns that member's value (nil when it had none).
func rewriteWithout(file, field string) (json.RawMessage, error) {
	obj, err := readObject(file)
	if err != nil {
		return nil, err
	}
	v, ok := obj[field]
	if !ok {
		return nil, nil
	}
	delete(obj, field)
	held, err := json.Marshal(v)
	if err != nil {
		return nil, err
	}
	return held, writeObject(file, obj)
}

// sameJSON reports whether v encodes as the JSON text want.
func sameJSON(v any, want json.RawMessage) bool {
	got, err := json.Marshal(v) // as rewriteWithout encoded the canonical value
	return err == nil && want != nil && bytes.Equal(got, want)
}

func readObject(file string) (map[string]any, error) {
	raw, err := os.ReadFile(file)
	if err != nil {
		return nil, err
	}
	obj, err := decodeObject(raw)
	if err != nil {
		return nil, fmt.Errorf("%s: %w", file, err)
	}
	return obj, nil
}

// decodeObject decodes a JSON object keeping its numbers as written.
func decodeObject(raw []byte) (map[string]any, error) {
	dec := json.NewDecoder(bytes.NewReader(raw))
	dec.UseNumber()
	var obj map[string]any
	if err := dec.Decode(&obj); err != nil {
		return nil, err
	}
	return obj, nil
}

// writeObject writes obj to file indented by two spaces, its text as it is (no HTML
// escapes).
func writeObject(file string, obj map[string]any) error {
	var buf bytes.Buffer
	enc := json.NewEncoder(&buf)
	enc.SetEscapeHTML(false)
	enc.SetIndent("", "  ")
	if err := enc.Encode(obj); err != nil {
		return err
	}
	return os.WriteFile(file, buf.Bytes(), 0o644)
}
