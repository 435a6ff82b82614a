package hostsim_test

import (
	"bytes"
	"encoding/json"
	"io"
	"net/http"
	"slices"
	"strings"
	"testing"

	"github.com/takokit/takokit/catalog/wire"
	"github.com/takokit/takokit/hostsim/hostsimtest"
	"github.com/takokit/takokit/hostsim/hostsimtest/openapicheck"
)

// A document that accepted anything would validate every answer too: the
// OpenAPI document must also refuse what the protocol refuses. Each row below
// takes one recorded exchange of a kind, breaks one rule of docs/protocol.md in
// its answer (or, for a request, in what was sent), and the validator must
// refuse the result; every request that was answered 2xx must validate as sent.
// Called by TestOpenAPIDescribesEveryAnswer on the exchanges it recorded.
func assertDocumentRefusesBrokenExchanges(t *testing.T, v *openapicheck.Doc, kept []hostsimtest.Exchange) {
	t.Helper()
	for _, x := range kept {
		if x.Resp.StatusCode < 200 || x.Resp.StatusCode > 299 {
			continue
		}
		if errs := v.Request(resend(t, x, nil)); errs != nil {
			t.Errorf("%s %s (answered %d) does not validate as a request: %s", x.Req.Method, x.Req.URL.Path, x.Resp.StatusCode, strings.Join(errs, "\n"))
		}
	}
	kinds := map[string]func(x hostsimtest.Exchange, doc map[string]any) bool{
		"read with outputs": func(x hostsimtest.Exchange, doc map[string]any) bool {
			return x.Req.Method == "GET" && x.Resp.StatusCode == 200 && has(doc, "status", "outputs")
		},
		"read without outputs": func(x hostsimtest.Exchange, doc map[string]any) bool {
			return x.Req.Method == "GET" && x.Resp.StatusCode == 200 && has(doc, "status", "conditions") && !has(doc, "status", "outputs")
		},
		"error": func(x hostsimtest.Exchange, doc map[string]any) bool {
			return x.Resp.StatusCode == 404 && x.Req.URL.Path == api+"/operations/op_missing"
		},
		"operation": func(x hostsimtest.Exchange, doc map[string]any) bool {
			return x.Req.Method == "GET" && x.Resp.StatusCode == 200 && strings.HasPrefix(x.Req.URL.Path, api+"/operations/") && has(doc, "id")
		},
		"discovery": func(x hostsimtest.Exchange, doc map[string]any) bool {
			return x.Req.URL.Path == wire.DefaultLane.DiscoveryPath && x.Resp.StatusCode == 200
		},
		"validate": func(x hostsimtest.Exchange, doc map[string]any) bool {
			return x.Req.URL.Path == api+"/resources/validate" && x.Resp.StatusCode == 200
		},
		"prepare": func(x hostsimtest.Exchange, doc map[string]any) bool {
			return x.Req.URL.Path == api+"/resources/prepare" && x.Resp.StatusCode == 200
		},
		"support forms": func(x hostsimtest.Exchange, doc map[string]any) bool {
			return x.Req.URL.Path == api+"/support/forms" && x.Resp.StatusCode == 200
		},
		"create": func(x hostsimtest.Exchange, doc map[string]any) bool {
			return x.Req.Method == "PUT" && x.Resp.StatusCode == 201
		},
		"forms": func(x hostsimtest.Exchange, doc map[string]any) bool {
			list, _ := doc["forms"].([]any)
			return x.Req.URL.Path == api+"/forms" && x.Resp.StatusCode == 200 && len(list) > 0
		},
		"accepted apply": func(x hostsimtest.Exchange, doc map[string]any) bool {
			return x.Req.Method == "PUT" && x.Resp.StatusCode == 202
		},
	}
	found := map[string]hostsimtest.Exchange{}
	for _, x := range kept {
		var doc map[string]any
		_ = json.Unmarshal(x.Body, &doc)
		for k, is := range kinds {
			if _, ok := found[k]; !ok && is(x, doc) {
				found[k] = x
			}
		}
	}
	for k := range kinds {
		if _, ok := found[k]; !ok {
			t.Fatalf("no recorded exchange is a %s answer: the rows below need one", k)
		}
	}
	zeros := "sha256:" + strings.Repeat("0", 64)
	type row struct {
		kind, rule string
		edit       func(doc map[string]any, h http.Header)
	}
	answers := []row{
		{"read without outputs", "metadata.uid is required", func(d map[string]any, _ http.Header) { delete(obj(d, "metadata"), "uid") }},
		{"read without outputs", "metadata.generation is a canonical decimal", func(d map[string]any, _ http.Header) { obj(d, "metadata")["generation"] = "0" }},
		{"read without outputs", "metadata.revision is a canonical decimal", func(d map[string]any, _ http.Header) { obj(d, "metadata")["revision"] = "01" }},
		{"read without outputs", "metadata.name is a name", func(d map[string]any, _ http.Header) { obj(d, "metadata")["name"] = "Bad_Name" }},
		{"read without outputs", "metadata.uid is a uid", func(d map[string]any, _ http.Header) { obj(d, "metadata")["uid"] = "-x" }},
		{"read without outputs", "apiVersion is the Form's", func(d map[string]any, _ http.Header) { d["apiVersion"] = "other.example/v1" }},
		{"read without outputs", "kind is the Form's", func(d map[string]any, _ http.Header) { d["kind"] = "Other" }},
		{"read without outputs", "formRef.schemaDigest is the Form's", func(d map[string]any, _ http.Header) { obj(d, "form", "formRef")["schemaDigest"] = zeros }},
		{"read without outputs", "formRef.definitionVersion is required", func(d map[string]any, _ http.Header) { delete(obj(d, "form", "formRef"), "definitionVersion") }},
		{"read without outputs", "formRef.schemaDigest is required", func(d map[string]any, _ http.Header) { delete(obj(d, "form", "formRef"), "schemaDigest") }},
		{"read without outputs", "formRef.apiVersion is the Form's", func(d map[string]any, _ http.Header) { obj(d, "form", "formRef")["apiVersion"] = "other.example/v1" }},
		{"read without outputs", "formRef is closed", func(d map[string]any, _ http.Header) { obj(d, "form", "formRef")["extra"] = 1 }},
		{"read without outputs", "form is closed", func(d map[string]any, _ http.Header) { obj(d, "form")["extra"] = 1 }},
		{"read without outputs", "the resource is closed", func(d map[string]any, _ http.Header) { d["extra"] = 1 }},
		{"read without outputs", "spec is the Form's desired schema", func(d map[string]any, _ http.Header) { d["spec"] = "not an object" }},
		{"read without outputs", "spec is required", func(d map[string]any, _ http.Header) { delete(d, "spec") }},
		{"read without outputs", "status is required", func(d map[string]any, _ http.Header) { delete(d, "status") }},
		{"read without outputs", "status is closed", func(d map[string]any, _ http.Header) { obj(d, "status")["extra"] = 1 }},
		{"read without outputs", "status.conditions is required", func(d map[string]any, _ http.Header) { delete(obj(d, "status"), "conditions") }},
		{"read without outputs", "status.observedGeneration is required", func(d map[string]any, _ http.Header) { delete(obj(d, "status"), "observedGeneration") }},
		{"read without outputs", "at most 16 conditions", func(d map[string]any, _ http.Header) {
			st := obj(d, "status")
			c := st["conditions"].([]any)[0]
			st["conditions"] = slices.Repeat([]any{c}, 17)
		}},
		{"read without outputs", "a condition's type is the protocol's", func(d map[string]any, _ http.Header) { condition(d)["type"] = "Bogus" }},
		{"read without outputs", "a condition's reason is the protocol's", func(d map[string]any, _ http.Header) { condition(d)["reason"] = "Bogus" }},
		{"read without outputs", "a Form without outputs is served without them", func(d map[string]any, _ http.Header) { obj(d, "status")["outputs"] = map[string]any{} }},
		{"read without outputs", "the ETag is a quoted canonical decimal", func(_ map[string]any, h http.Header) { h.Set("ETag", "abc") }},
		{"read with outputs", "outputs are the Form's output schema", func(d map[string]any, _ http.Header) { obj(d, "status")["outputs"] = "not an object" }},
		{"error", "error.requestId is required", func(d map[string]any, _ http.Header) { delete(obj(d, "error"), "requestId") }},
		{"error", "error.retryable is required", func(d map[string]any, _ http.Header) { delete(obj(d, "error"), "retryable") }},
		{"error", "error.code is the protocol's", func(d map[string]any, _ http.Header) { obj(d, "error")["code"] = "bogus_code" }},
		{"error", "the error is closed", func(d map[string]any, _ http.Header) { obj(d, "error")["extra"] = 1 }},
		{"operation", "an operation id starts op_", func(d map[string]any, _ http.Header) { d["id"] = "x1" }},
		{"operation", "done is required", func(d map[string]any, _ http.Header) { delete(d, "done") }},
		{"operation", "apiVersion is required", func(d map[string]any, _ http.Header) { delete(d, "apiVersion") }},
		{"operation", "an operation is closed", func(d map[string]any, _ http.Header) { d["extra"] = 1 }},
		{"discovery", "api_versions is the lane's", func(d map[string]any, _ http.Header) { d["api_versions"] = []any{"x.example/v9"} }},
		{"discovery", "api_versions has one member", func(d map[string]any, _ http.Header) {
			d["api_versions"] = []any{wire.DefaultLane.APIVersion, wire.DefaultLane.APIVersion}
		}},
		{"discovery", "endpoints.api is required", func(d map[string]any, _ http.Header) { delete(obj(d, "endpoints"), "api") }},
		{"discovery", "endpoints is closed", func(d map[string]any, _ http.Header) { obj(d, "endpoints")["extra"] = "http://x.example" }},
		{"discovery", "a feature is a boolean", func(d map[string]any, _ http.Header) { obj(d, "features")["x"] = "yes" }},
		{"validate", "diagnostics is required", func(d map[string]any, _ http.Header) { delete(d, "diagnostics") }},
		{"prepare", "review.specDigest is required", func(d map[string]any, _ http.Header) { delete(obj(d, "review"), "specDigest") }},
		{"prepare", "review.prepareDigest is a digest", func(d map[string]any, _ http.Header) { obj(d, "review")["prepareDigest"] = "sha256:abc" }},
		{"prepare", "the prepared resource is required", func(d map[string]any, _ http.Header) { delete(d, "resource") }},
		{"prepare", "the prepared resource is the Form's", func(d map[string]any, _ http.Header) { obj(d, "resource")["kind"] = "Other" }},
		{"support forms", "a limit is an integer", func(d map[string]any, _ http.Header) {
			p := d["profiles"].([]any)[0].(map[string]any)
			p["limits"] = map[string]any{"x": "many"}
		}},
		{"forms", "a Form's availability says whether it is installed", func(d map[string]any, _ http.Header) {
			delete(d["forms"].([]any)[0].(map[string]any), "installed")
		}},
		{"accepted apply", "an accepted apply answers its operation", func(d map[string]any, _ http.Header) { delete(obj(d, "operation"), "id") }},
		{"create", "a created resource's metadata.revision is required", func(d map[string]any, _ http.Header) { delete(obj(d, "metadata"), "revision") }},
	}
	// each kind as recorded, rebuilt as the rows rebuild it, validates (a row's
	// refusal is its edit's), and so does an answer at a bound: 16 conditions
	for k := range kinds {
		answers = append([]row{{k, "", func(map[string]any, http.Header) {}}}, answers...)
	}
	answers = append([]row{{"read without outputs", "", func(d map[string]any, _ http.Header) {
		st := obj(d, "status")
		st["conditions"] = slices.Repeat(st["conditions"].([]any)[:1], 16)
	}}}, answers...)
	for _, r := range answers {
		x := found[r.kind]
		var doc map[string]any
		if err := json.Unmarshal(x.Body, &doc); err != nil {
			t.Fatalf("%s: %v", r.kind, err)
		}
		h := x.Resp.Header.Clone()
		r.edit(doc, h)
		b, _ := json.Marshal(doc)
		resp := *x.Resp
		resp.Header, resp.Body, resp.Request = h, io.NopCloser(bytes.NewReader(b)), resend(t, x, nil)
		errs := v.Response(resp.Request, &resp)
		switch {
		case r.rule == "" && errs != nil:
			t.Errorf("the %s answer as recorded, rebuilt, does not validate: %s", r.kind, strings.Join(errs, "\n"))
		case r.rule != "" && errs == nil:
			t.Errorf("the document accepts a %s answer that breaks %q", r.kind, r.rule)
		}
	}
	requests := []row{
		{"create", "spec is required", func(d map[string]any, _ http.Header) { delete(d, "spec") }},
		{"create", "metadata.name is a name", func(d map[string]any, _ http.Header) { obj(d, "metadata")["name"] = "Bad_Name" }},
		{"create", "metadata is closed", func(d map[string]any, _ http.Header) { obj(d, "metadata")["extra"] = 1 }},
		{"create", "the request is closed", func(d map[string]any, _ http.Header) { d["extra"] = 1 }},
		{"create", "review.prepareDigest is required", func(d map[string]any, _ http.Header) { d["review"] = map[string]any{} }},
		{"create", "nativeId is not empty", func(d map[string]any, _ http.Header) { d["nativeId"] = "" }},
		{"create", "formRef.schemaDigest is the Form's", func(d map[string]any, _ http.Header) { obj(d, "form", "formRef")["schemaDigest"] = zeros }},
		{"create", "the Idempotency-Key header is required", func(_ map[string]any, h http.Header) { h.Del(wire.HeaderIdempotencyKey) }},
	}
	requests = append(requests, row{"prepare", "a prepare's spec is required", func(d map[string]any, _ http.Header) { delete(d, "spec") }})
	requests = append([]row{{"create", "", func(map[string]any, http.Header) {}}}, requests...)
	for _, r := range requests {
		errs := v.Request(resend(t, found[r.kind], r.edit))
		switch {
		case r.rule == "" && errs != nil:
			t.Errorf("the %s request as sent, rebuilt, does not validate: %s", r.kind, strings.Join(errs, "\n"))
		case r.rule != "" && errs == nil:
			t.Errorf("the document accepts a %s request that breaks %q", r.kind, r.rule)
		}
	}
}

// resend rebuilds x's request with its body, edited by edit when given.
func resend(t *testing.T, x hostsimtest.Exchange, edit func(map[string]any, http.Header)) *http.Request {
	t.Helper()
	r := x.Req.Clone(x.Req.Context())
	var b []byte
	if x.Req.GetBody != nil {
		rc, err := x.Req.GetBody()
		if err != nil {
			t.Fatal(err)
		}
		b, _ = io.ReadAll(rc)
	}
	if edit != nil {
		var doc map[string]any
		if err := json.Unmarshal(b, &doc); err != nil {
			t.Fatalf("%s %s: the request body is no JSON object: %v", x.Req.Method, x.Req.URL.Path, err)
		}
		edit(doc, r.Header)
		b, _ = json.Marshal(doc)
	}
	r.Body = io.NopCloser(bytes.NewReader(b))
	r.ContentLength = int64(len(b))
	if len(b) > 0 && r.Header.Get("Content-Type") == "" { // the test client names none; the provider sends these
		r.Header.Set("Content-Type", wire.ContentTypeJSON)
		if strings.Contains(r.URL.Path, "/blobs/") {
			r.Header.Set("Content-Type", "application/octet-stream")
		}
	}
	return r
}

func has(doc map[string]any, path ...string) bool {
	var v any = doc
	for _, p := range path {
		m, ok := v.(map[string]any)
		if !ok {
			return false
		}
		if v, ok = m[p]; !ok {
			return false
		}
	}
	return true
}

func obj(doc map[string]any, path ...string) map[string]any {
	m := doc
	for _, p := range path {
		m = m[p].(map[string]any)
	}
	return m
}

func condition(doc map[string]any) map[string]any {
	return obj(doc, "status")["conditions"].([]any)[0].(map[string]any)
}
