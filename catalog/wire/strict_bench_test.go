package wire

import (
	"encoding/json"
	"testing"
)

// An apply request as the provider sends it (the shape hostsim decodes most).
var benchApply = []byte(`{"apiVersion":"edge.forms.takokit.dev/v1alpha1","kind":"EdgeKVNamespace","form":{"formRef":{"apiVersion":"edge.forms.takokit.dev/v1alpha1","kind":"EdgeKVNamespace","definitionVersion":"0.1.0","schemaDigest":"sha256:9d43b1aab140d6127e905be4a4d40e29840bc5bc2303b98d671c08b4108d96dd"}},"metadata":{"name":"r-1","space":"bench"},"spec":{"title":"a \"quoted\" title","ttl":300,"tags":["a","b"]},"review":{"prepareDigest":"sha256:d55cce63a99d755a6e04b8df880295ed08d766433d18dc79abf789b21e7b92d5"}}`)

type benchDoc struct {
	APIVersion string `json:"apiVersion,required"`
	Kind       string `json:"kind,required"`
	Form       struct {
		FormRef       *FormRef `json:"formRef,required"`
		PackageDigest *string  `json:"packageDigest"`
	} `json:"form,required"`
	Metadata struct {
		Name  *string `json:"name"`
		Space *string `json:"space"`
	} `json:"metadata,required"`
	Spec   json.RawMessage `json:"spec,required"`
	Review *struct {
		PrepareDigest string `json:"prepareDigest,required"`
	} `json:"review,required"`
}

func BenchmarkCheckIJSON(b *testing.B) {
	b.ReportAllocs()
	for b.Loop() {
		if err := CheckIJSON(benchApply); err != nil {
			b.Fatal(err)
		}
	}
}

func BenchmarkDecodeStrict(b *testing.B) {
	b.ReportAllocs()
	for b.Loop() {
		var d benchDoc
		if err := DecodeStrict(benchApply, &d); err != nil {
			b.Fatal(err)
		}
	}
}
