package conformance

import (
	"bytes"
	"fmt"
	"testing"

	"github.com/takokit/takokit/catalog"
	"github.com/takokit/takokit/catalog/wire"
)

// TestOverManifestPutsTheSizeInItsFirstEntryOnly: the manifest a ceiling check
// sends one past a limit carries its whole size in the first entry; every other
// entry is an empty file, with the empty blob's digest, so a host refusing it
// can only be refusing the count or the size, never a file's digest or size
// (docs/mutation-equivalent-conformance.md, checks_assets.go).
func TestOverManifestPutsTheSizeInItsFirstEntryOnly(t *testing.T) {
	for _, mk := range []*wire.ManifestKind{wire.WorkerBundleManifest, wire.StaticAssetBundleManifest, wire.MigrationBundleManifest} {
		t.Run(mk.Kind, func(t *testing.T) {
			m := overManifest(mk, 3, 1234)
			entries, _ := m[mk.Member].([]any)
			if len(entries) != 3 {
				t.Fatalf("%d entries under %q, want 3: %v", len(entries), mk.Member, m)
			}
			for i, e := range entries {
				got := e.(map[string]any)
				size, digest := 0, wire.RawDigest(nil)
				if i == 0 {
					size, digest = 1234, wire.RawDigest([]byte("1234"))
				}
				if got["size"] != size || got["digest"] != digest {
					t.Errorf("entry %d: size %v digest %v, want %d %s", i, got["size"], got["digest"], size, digest)
				}
				if p := fmt.Sprint(got[mk.PathMember]); p[:6] != fmt.Sprintf("f%05d", i) {
					t.Errorf("entry %d is named %s, want f%05d.*", i, p, i)
				}
				if !mk.Admits(fmt.Sprint(got["mediaType"])) {
					t.Errorf("entry %d has media type %v, which %s does not admit", i, got["mediaType"], mk.Kind)
				}
			}
			if _, main := m["mainModule"]; main != mk.HasMainModule() {
				t.Errorf("mainModule present %v, want %v (the kind loads modules: %v)", main, mk.HasMainModule(), mk.HasMainModule())
			}
			if m["kind"] != mk.Kind || m["apiVersion"] != ArtifactAPIVersion {
				t.Errorf("kind %v apiVersion %v, want %s %s", m["kind"], m["apiVersion"], mk.Kind, ArtifactAPIVersion)
			}
		})
	}
}

// TestCeilingsOfAreThePublishedOnesElseThePortable: a Form the host publishes no
// support profile for, or a profile silent on a ceiling, is measured against the
// portable ceiling of its manifest kind.
func TestCeilingsOfAreThePublishedOnesElseThePortable(t *testing.T) {
	mk := wire.StaticAssetBundleManifest
	listed := &catalog.Form{Ref: wire.FormRef{APIVersion: "forms.example/v1", Kind: "Listed", DefinitionVersion: "1.0.0"}}
	unlisted := &catalog.Form{Ref: wire.FormRef{APIVersion: "forms.example/v1", Kind: "Unlisted", DefinitionVersion: "1.0.0"}}
	for _, c := range []struct {
		name         string
		s            *Surface
		f            *catalog.Form
		files, bytes int64
	}{
		{"support listing unreadable", &Surface{}, listed, mk.MaxEntries, wire.MaxBundleBytes},
		{"no profile for the Form", &Surface{Profiles: map[wire.FormRef]*formSupport{listed.Ref: {Limits: map[string]int64{"maximumBundleFiles": 3}}}},
			unlisted, mk.MaxEntries, wire.MaxBundleBytes},
		{"files published", &Surface{Profiles: map[wire.FormRef]*formSupport{listed.Ref: {Limits: map[string]int64{"maximumBundleFiles": 3}}}},
			listed, 3, wire.MaxBundleBytes},
		{"both published", &Surface{Profiles: map[wire.FormRef]*formSupport{listed.Ref: {Limits: map[string]int64{"maximumBundleFiles": 3, "maximumBundleBytes": 99}}}},
			listed, 3, 99},
	} {
		files, bytes := (&Probe{S: c.s}).ceilingsOf(c.f, mk)
		if files != c.files || bytes != c.bytes {
			t.Errorf("%s: ceilings %d files, %d bytes; want %d, %d", c.name, files, bytes, c.files, c.bytes)
		}
	}
}

// TestOverStartIsTheStartOfOverManifest: the encoded body kept per kind, count and
// size is the upload start of overManifest, byte for byte, and the same on each call.
func TestOverStartIsTheStartOfOverManifest(t *testing.T) {
	for _, c := range []struct{ n, size int64 }{{17, 0}, {1, 1048577}, {17, 0}} {
		got := overStart(wire.WorkerBundleManifest, c.n, c.size)
		if want := startBody(overManifest(wire.WorkerBundleManifest, c.n, int(c.size))); !bytes.Equal(got, want) {
			t.Fatalf("overStart(%d, %d) = %.120s, want %.120s", c.n, c.size, got, want)
		}
	}
}
