package render

// appendPlain writes the representation as json.Marshal would when that
// needs no escaping at all: every string is printable ASCII without '"',
// '\\', '<', '>' or '&', and the embedded spec and outputs are the compact
// JSON they are built as, with none of the bytes json.Marshal would escape
// or compact away. ok is false otherwise, and the caller marshals.
func (r *Representation) appendPlain(b []byte) (_ []byte, ok bool) {
	w := plainWriter{b: b, ok: true}
	w.raw(`{"apiVersion":`)
	w.str(r.APIVersion)
	w.raw(`,"kind":`)
	w.str(r.Kind)
	w.raw(`,"form":{"formRef":{"apiVersion":`)
	w.str(r.Form.FormRef.APIVersion)
	w.raw(`,"kind":`)
	w.str(r.Form.FormRef.Kind)
	w.raw(`,"definitionVersion":`)
	w.str(r.Form.FormRef.DefinitionVersion)
	w.raw(`,"schemaDigest":`)
	w.str(r.Form.FormRef.SchemaDigest)
	w.raw(`}`)
	if r.Form.PackageDigest != "" {
		w.raw(`,"packageDigest":`)
		w.str(r.Form.PackageDigest)
	}
	w.raw(`},"metadata":{"name":`)
	w.str(r.Metadata.Name)
	w.raw(`,"space":`)
	w.str(r.Metadata.Space)
	w.raw(`,"uid":`)
	w.str(r.Metadata.UID)
	w.raw(`,"generation":`)
	w.str(r.Metadata.Generation)
	w.raw(`,"revision":`)
	w.str(r.Metadata.Revision)
	w.raw(`},"spec":`)
	w.embedded(r.Spec, false)
	w.raw(`,"status":{"observedGeneration":`)
	w.str(r.Status.ObservedGeneration)
	w.raw(`,"conditions":`)
	if r.Status.Conditions == nil {
		w.raw(`null`)
	} else {
		w.raw(`[`)
		for i, c := range r.Status.Conditions {
			if i > 0 {
				w.raw(`,`)
			}
			w.raw(`{"type":`)
			w.str(c.Type)
			w.raw(`,"status":`)
			w.str(c.Status)
			w.raw(`,"reason":`)
			w.str(c.Reason)
			w.raw(`,"lastTransitionTime":`)
			w.str(c.LastTransitionTime)
			if c.HostReason != "" {
				w.raw(`,"hostReason":`)
				w.str(c.HostReason)
			}
			if c.Message != "" {
				w.raw(`,"message":`)
				w.str(c.Message)
			}
			w.raw(`}`)
		}
		w.raw(`]`)
	}
	if len(r.Status.Outputs) > 0 {
		w.raw(`,"outputs":`)
		w.embedded(r.Status.Outputs, true)
	}
	w.raw(`}}`)
	return w.b, w.ok
}

type plainWriter struct {
	b  []byte
	ok bool
}

func (w *plainWriter) raw(s string) { w.b = append(w.b, s...) }

// str writes a string that needs no escape, else gives up.
func (w *plainWriter) str(s string) {
	for i := 0; i < len(s); i++ {
		if c := s[i]; c < 0x20 || c >= 0x7f || c == '"' || c == '\\' || c == '<' || c == '>' || c == '&' {
			w.ok = false
			return
		}
	}
	w.b = append(w.b, '"')
	w.b = append(w.b, s...)
	w.b = append(w.b, '"')
}

// embedded writes JSON built compact (JCS or json.Marshal output) as it is,
// when it holds nothing json.Marshal would escape or strip: no white space,
// no '<', '>' or '&' and nothing outside ASCII. A nil spec is null.
func (w *plainWriter) embedded(j []byte, omitted bool) {
	if j == nil && !omitted {
		w.raw(`null`)
		return
	}
	for _, c := range j {
		if c <= ' ' || c >= 0x7f || c == '<' || c == '>' || c == '&' {
			w.ok = false
			return
		}
	}
	w.b = append(w.b, j...)
}
