package artifact_test

import (
	"bytes"
	"errors"
	"fmt"
	"slices"
	"strings"
	"testing"

	"github.com/takokit/takokit/catalog/wire"
	"github.com/takokit/takokit/hostsim/internal/artifact"
	"github.com/takokit/takokit/hostsim/internal/artifact/artifacttest"
	"github.com/takokit/takokit/hostsim/internal/rules"
)

var (
	alice = artifact.Caller{Tenant: "tenant-a", Principal: "alice"}
	bob   = artifact.Caller{Tenant: "tenant-a", Principal: "bob"}
	carol = artifact.Caller{Tenant: "tenant-b", Principal: "carol"}
)

func wantCode(t *testing.T, err error, code wire.Code, says string) {
	t.Helper()
	r, ok := rules.AsRefusal(err)
	if !ok {
		t.Fatalf("error %v, want a %s refusal", err, code)
	}
	if r.Code != code || !strings.Contains(r.Message, says) {
		t.Fatalf("refusal %+v, want %s saying %q", r, code, says)
	}
}

func start(t *testing.T, st artifact.Store, c artifact.Caller, raw []byte) *artifact.Started {
	t.Helper()
	s, err := artifact.Start(st, c, raw, nil)
	if err != nil {
		t.Fatal(err)
	}
	return s
}

func put(t *testing.T, st artifact.Store, c artifact.Caller, id string, b []byte) bool {
	t.Helper()
	created, err := artifact.PutBlob(st, c, id, sha(b), bytes.NewReader(b))
	if err != nil {
		t.Fatal(err)
	}
	return created
}

func TestUploadHappyPath(t *testing.T) {
	forEachStore(t, func(t *testing.T, st testStore) {
		raw := doc(t, nil)
		s := start(t, st, alice, raw)
		wantMissing := []string{sha(indexJS), sha(indexMap)}
		slices.Sort(wantMissing)
		if !strings.HasPrefix(s.UploadID, "up_") || !slices.Equal(s.MissingBlobs, wantMissing) {
			t.Fatalf("start = %+v", s)
		}
		if !put(t, st, alice, s.UploadID, indexJS) {
			t.Fatal("first PUT must store (201)")
		}
		if put(t, st, alice, s.UploadID, indexJS) {
			t.Fatal("second PUT of a held blob must be 204")
		}
		if ok, _ := artifact.HeadBlob(st, alice.Tenant, sha(indexJS)); !ok {
			t.Fatal("HEAD of an uploaded blob must be 200")
		}
		// Commit before every blob is held → artifact_missing naming the missing one.
		_, _, err := artifact.Commit(st, alice, s.UploadID, nil)
		wantCode(t, err, wire.CodeArtifactMissing, sha(indexMap))
		put(t, st, alice, s.UploadID, indexMap)
		digest, created, err := artifact.Commit(st, alice, s.UploadID, nil)
		want, _ := wire.Digest(raw)
		if err != nil || !created || digest != want {
			t.Fatalf("commit = %s %v %v, want %s created", digest, created, err, want)
		}
		d2, created, err := artifact.Commit(st, alice, s.UploadID, nil)
		if err != nil || created || d2 != digest {
			t.Fatalf("second commit = %s %v %v, want the same digest, not created", d2, created, err)
		}
		got, err := artifact.ReadManifest(st, alice.Tenant, digest)
		if err != nil || !bytes.Equal(got, raw) {
			t.Fatalf("read = %s %v, want the manifest exactly as uploaded", got, err)
		}
		// Starting again lists nothing missing: the tenant holds every blob.
		if s2 := start(t, st, bob, raw); len(s2.MissingBlobs) != 0 || s2.UploadID == s.UploadID {
			t.Fatalf("restart = %+v", s2)
		}
		// Bundle resolution and handler export.
		m, err := artifact.ResolveBundle(st, alice, "/manifestDigest", digest, wire.WorkerBundleManifest, nil)
		if err != nil || m.MainModule != "index.js" {
			t.Fatalf("resolve = %+v %v", m, err)
		}
		handlers, main, err := artifact.MainModuleExports(st, m)
		if err != nil || !slices.Equal(handlers, []string{"fetch"}) || main.Path != "index.js" {
			t.Fatalf("exports = %v %+v %v", handlers, main, err)
		}
	})
}

func TestDigestIsNotACapability(t *testing.T) {
	forEachStore(t, func(t *testing.T, st testStore) {
		raw := doc(t, nil)
		s := start(t, st, alice, raw)
		put(t, st, alice, s.UploadID, indexJS)
		put(t, st, alice, s.UploadID, indexMap)
		digest, _, err := artifact.Commit(st, alice, s.UploadID, nil)
		if err != nil {
			t.Fatal(err)
		}
		// Another tenant sees nothing: HEAD 404, read artifact_missing, missingBlobs lists everything.
		if ok, _ := artifact.HeadBlob(st, carol.Tenant, sha(indexJS)); ok {
			t.Fatal("another tenant's blob must be a 404")
		}
		_, err = artifact.ReadManifest(st, carol.Tenant, digest)
		wantCode(t, err, wire.CodeArtifactMissing, "not held by this tenant")
		_, err = artifact.ResolveBundle(st, carol, "/manifestDigest", digest, wire.WorkerBundleManifest, nil)
		wantCode(t, err, wire.CodeArtifactMissing, "/manifestDigest: ")
		sc := start(t, st, carol, raw)
		if len(sc.MissingBlobs) != 2 {
			t.Fatalf("other tenant's missingBlobs = %v, want both (never \"some tenant stored these\")", sc.MissingBlobs)
		}
		// Committing without uploading is refused even though the bytes exist in storage.
		_, _, err = artifact.Commit(st, carol, sc.UploadID, nil)
		wantCode(t, err, wire.CodeArtifactMissing, "never uploaded")
		// Uploading gains the hold (201, storage shared), then commit works.
		if !put(t, st, carol, sc.UploadID, indexJS) || !put(t, st, carol, sc.UploadID, indexMap) {
			t.Fatal("the other tenant's first PUT is a new hold (201)")
		}
		if d, created, err := artifact.Commit(st, carol, sc.UploadID, nil); err != nil || !created || d != digest {
			t.Fatalf("carol commit = %s %v %v", d, created, err)
		}
	})
}

func TestSessionBoundToPrincipal(t *testing.T) {
	forEachStore(t, func(t *testing.T, st testStore) {
		s := start(t, st, alice, doc(t, nil))
		// alice of another tenant is another principal, though she bears the name
		for _, c := range []artifact.Caller{bob, carol, {Tenant: "tenant-b", Principal: "alice"}} {
			_, err := artifact.PutBlob(st, c, s.UploadID, sha(indexJS), bytes.NewReader(indexJS))
			wantCode(t, err, wire.CodeArtifactMissing, "unknown, abandoned or was started by another principal")
			_, _, err = artifact.Commit(st, c, s.UploadID, nil)
			wantCode(t, err, wire.CodeArtifactMissing, "unknown, abandoned")
			wantCode(t, artifact.Abandon(st, c, s.UploadID), wire.CodeArtifactMissing, "unknown, abandoned")
		}
		_, err := artifact.PutBlob(st, alice, "up_nope", sha(indexJS), bytes.NewReader(indexJS))
		wantCode(t, err, wire.CodeArtifactMissing, `"up_nope"`)
		if err := artifact.Abandon(st, alice, s.UploadID); err != nil {
			t.Fatal(err)
		}
		_, err = artifact.PutBlob(st, alice, s.UploadID, sha(indexJS), bytes.NewReader(indexJS))
		wantCode(t, err, wire.CodeArtifactMissing, "abandoned")
		wantCode(t, artifact.Abandon(st, alice, s.UploadID), wire.CodeArtifactMissing, "abandoned")
		if ok, _ := artifact.HeadBlob(st, alice.Tenant, sha(indexJS)); ok {
			t.Fatal("refused PUTs stored nothing")
		}
	})
}

func TestBlobPutRefusals(t *testing.T) {
	forEachStore(t, func(t *testing.T, st testStore) {
		s := start(t, st, alice, doc(t, nil))
		cases := []struct {
			name, digest string
			body         []byte
			says         string
		}{
			{"undeclared digest", sha([]byte("other")), []byte("other"), "not declared by the manifest"},
			{"not a digest", "sha256:zz", indexJS, "not declared"},
			{"too many bytes", sha(indexJS), append(slices.Clone(indexJS), '!'), "larger than its declared size"},
			{"too few bytes", sha(indexJS), indexJS[:5], "has 5 bytes; its declared size is"},
			{"wrong bytes of the right size", sha(indexJS), bytes.Repeat([]byte("x"), len(indexJS)), "hash to"},
		}
		for _, c := range cases {
			t.Run(c.name, func(t *testing.T) {
				_, err := artifact.PutBlob(st, alice, s.UploadID, c.digest, bytes.NewReader(c.body))
				wantCode(t, err, wire.CodeArtifactInvalid, c.says)
				if ok, _ := artifact.HeadBlob(st, alice.Tenant, c.digest); ok {
					t.Fatal("a refused PUT must hold nothing")
				}
			})
		}
	})
}

// infinite is a body that never ends: PutBlob must stop after size+1 bytes.
type infinite struct{ n int }

func (r *infinite) Read(p []byte) (int, error) {
	for i := range p {
		p[i] = 'a'
	}
	r.n += len(p)
	return len(p), nil
}

func TestBlobPutReadsBoundedBody(t *testing.T) {
	forEachStore(t, func(t *testing.T, st testStore) {
		s := start(t, st, alice, doc(t, nil))
		body := &infinite{}
		_, err := artifact.PutBlob(st, alice, s.UploadID, sha(indexJS), body)
		wantCode(t, err, wire.CodeArtifactInvalid, "larger than its declared size")
		if body.n > 64*1024 {
			t.Fatalf("read %d bytes of an endless body", body.n)
		}
	})
}

func TestCommitRechecks(t *testing.T) {
	forEachStore(t, func(t *testing.T, st testStore) {
		raw := doc(t, nil)
		s := start(t, st, alice, raw)
		put(t, st, alice, s.UploadID, indexJS)
		put(t, st, alice, s.UploadID, indexMap)
		// A narrower maximumBundleBytes at commit refuses the same manifest.
		_, _, err := artifact.Commit(st, alice, s.UploadID, bytesAtMost(10))
		wantCode(t, err, wire.CodeArtifactInvalid, "over maximumBundleBytes 10")
		// Stored bytes that no longer match the declared size are refused.
		st.CorruptBlob(sha(indexMap), []byte("short"))
		_, _, err = artifact.Commit(st, alice, s.UploadID, nil)
		wantCode(t, err, wire.CodeArtifactInvalid, "has 5 bytes")
		// So are stored bytes of the declared size that do not hash to the digest.
		other := bytes.Repeat([]byte("x"), len(indexMap))
		st.CorruptBlob(sha(indexMap), other)
		_, _, err = artifact.Commit(st, alice, s.UploadID, nil)
		wantCode(t, err, wire.CodeArtifactInvalid, "the stored bytes hash to "+sha(other))
		if ok, _ := st.HoldsManifest(alice.Tenant, s.Manifest.Digest); ok {
			t.Fatal("a refused commit must not hold the manifest")
		}
	})
}

// TestCommitRefusesABlobHeldUnderAnotherSize: a blob the tenant already holds (from a
// committed upload) is not asked for again, and a later manifest declaring the same
// digest with another size is refused at its commit: the size is checked against the
// bytes the tenant holds, not trusted from the manifest.
func TestCommitRefusesABlobHeldUnderAnotherSize(t *testing.T) {
	forEachStore(t, func(t *testing.T, st testStore) {
		first := start(t, st, alice, doc(t, nil))
		put(t, st, alice, first.UploadID, indexJS)
		put(t, st, alice, first.UploadID, indexMap)
		if _, _, err := artifact.Commit(st, alice, first.UploadID, nil); err != nil {
			t.Fatal(err)
		}
		second := start(t, st, alice, doc(t, func(m map[string]any) {
			m["modules"].([]any)[1].(map[string]any)["size"] = len(indexMap) + 1
		}))
		if len(second.MissingBlobs) != 0 {
			t.Fatalf("the second upload asks for %v; the tenant holds both blobs", second.MissingBlobs)
		}
		_, _, err := artifact.Commit(st, alice, second.UploadID, nil)
		wantCode(t, err, wire.CodeArtifactInvalid, fmt.Sprintf(`declares "index.js.map" with size %d, but the stored blob %s has %d bytes`, len(indexMap)+1, sha(indexMap), len(indexMap)))
	})
}

func TestStartRefusesInvalidManifest(t *testing.T) {
	forEachStore(t, func(t *testing.T, st testStore) {
		_, err := artifact.Start(st, alice, doc(t, func(m map[string]any) { m["mainModule"] = "nope.js" }), nil)
		wantCode(t, err, wire.CodeArtifactInvalid, "names no declared module")
		_, err = artifact.Start(st, alice, doc(t, nil), bytesAtMost(int64(len(indexJS))))
		wantCode(t, err, wire.CodeArtifactInvalid, "maximumBundleBytes")
		if open, _ := st.OpenUploads(alice.Tenant); len(open) != 0 {
			t.Fatalf("refused starts opened sessions: %v", open)
		}
	})
}

func TestAbandonReleasesOnlyUnneededHolds(t *testing.T) {
	forEachStore(t, func(t *testing.T, st testStore) {
		shared := []byte("shared module bytes")
		// Alice commits a manifest naming shared; carol uploads the same bytes.
		committed := doc(t, func(m map[string]any) {
			m["modules"] = []any{map[string]any{"name": "index.js", "mediaType": "text/plain", "size": len(shared), "digest": sha(shared)}}
		})
		s1 := start(t, st, alice, committed)
		put(t, st, alice, s1.UploadID, shared)
		if _, _, err := artifact.Commit(st, alice, s1.UploadID, nil); err != nil {
			t.Fatal(err)
		}
		sc := start(t, st, carol, committed)
		put(t, st, carol, sc.UploadID, shared)

		// Alice starts another session naming shared and indexJS, uploads both, abandons.
		s2 := start(t, st, alice, doc(t, func(m map[string]any) {
			m["modules"] = append(m["modules"].([]any)[:1], map[string]any{"name": "lib.js", "mediaType": "text/plain", "size": len(shared), "digest": sha(shared)})
		}))
		put(t, st, alice, s2.UploadID, indexJS)
		// A third open session also names indexMap only.
		s3 := start(t, st, alice, doc(t, func(m map[string]any) {
			m["modules"] = []any{map[string]any{"name": "index.js", "mediaType": "text/plain", "size": len(indexMap), "digest": sha(indexMap)}}
		}))
		put(t, st, alice, s3.UploadID, indexMap)
		if err := artifact.Abandon(st, alice, s2.UploadID); err != nil {
			t.Fatal(err)
		}
		if ok, _ := artifact.HeadBlob(st, alice.Tenant, sha(indexJS)); ok || st.StoredBlob(sha(indexJS)) {
			t.Fatal("abandon must drop the hold on a blob nothing else names and free its bytes")
		}
		if ok, _ := artifact.HeadBlob(st, alice.Tenant, sha(shared)); !ok {
			t.Fatal("abandon must keep blobs a committed manifest names")
		}
		if ok, _ := artifact.HeadBlob(st, alice.Tenant, sha(indexMap)); !ok {
			t.Fatal("abandon must keep blobs another open session of the tenant names")
		}
		// Carol's abandon drops carol's hold but never alice's bytes.
		if err := artifact.Abandon(st, carol, sc.UploadID); err != nil {
			t.Fatal(err)
		}
		if ok, _ := artifact.HeadBlob(st, carol.Tenant, sha(shared)); ok {
			t.Fatal("carol's hold must be gone")
		}
		if ok, _ := artifact.HeadBlob(st, alice.Tenant, sha(shared)); !ok || !st.StoredBlob(sha(shared)) {
			t.Fatal("another tenant's abandon removed alice's bytes")
		}
		// Abandoning a committed session keeps its manifest readable.
		if err := artifact.Abandon(st, alice, s1.UploadID); err != nil {
			t.Fatal(err)
		}
		if _, err := artifact.ReadManifest(st, alice.Tenant, s1.Manifest.Digest); err != nil {
			t.Fatalf("committed manifest unreadable after abandon: %v", err)
		}
	})
}

func TestResolveBundle(t *testing.T) {
	forEachStore(t, func(t *testing.T, st testStore) {
		commit := func(raw []byte, blobs ...[]byte) string {
			s := start(t, st, alice, raw)
			for _, b := range blobs {
				put(t, st, alice, s.UploadID, b)
			}
			d, _, err := artifact.Commit(st, alice, s.UploadID, nil)
			if err != nil {
				t.Fatal(err)
			}
			return d
		}
		sql := []byte("abc")
		migration := commit(doc(t, filesDoc("MigrationBundle")), sql)
		_, err := artifact.ResolveBundle(st, alice, "/manifestDigest", migration, wire.WorkerBundleManifest, nil)
		wantCode(t, err, wire.CodeArtifactInvalid, "is a MigrationBundle manifest; this reference needs a WorkerBundle manifest")
		_, err = artifact.ResolveBundle(st, alice, "/manifestDigest", migration, wire.StaticAssetBundleManifest, nil)
		wantCode(t, err, wire.CodeArtifactInvalid, "needs a StaticAssetBundle manifest")
		if m, err := artifact.ResolveBundle(st, alice, "/manifestDigest", migration, wire.MigrationBundleManifest, nil); err != nil || !m.Has("db/0001.sql") {
			t.Fatalf("a MigrationBundle resolves for a Form committing to one: %v", err)
		}
		// The ceilings of the Form in force at apply are applied again.
		one := func(k *wire.ManifestKind) artifact.Ceilings {
			return artifact.Ceilings{Files: 0, Bytes: 100, FilesFrom: "test", BytesFrom: "test"}
		}
		_, err = artifact.ResolveBundle(st, alice, "/manifestDigest", migration, wire.MigrationBundleManifest, one)
		wantCode(t, err, wire.CodeArtifactInvalid, "over maximumBundleFiles 0")

		bundle := commit(doc(t, nil), indexJS, indexMap)
		_, err = artifact.ResolveBundle(st, alice, "/manifestDigest", bundle, wire.WorkerBundleManifest, bytesAtMost(int64(len(indexJS))))
		wantCode(t, err, wire.CodeArtifactInvalid, "maximumBundleBytes")

		_, err = artifact.ResolveBundle(st, alice, "/manifestDigest", "sha256:"+strings.Repeat("0", 64), wire.WorkerBundleManifest, nil)
		wantCode(t, err, wire.CodeArtifactMissing, "never committed")
		_, err = artifact.ResolveBundle(st, alice, "/manifestDigest", "not-a-digest", wire.WorkerBundleManifest, nil)
		wantCode(t, err, wire.CodeArtifactMissing, "not a manifest digest")

		// Stored bytes that canonicalize to another digest, or do not decode.
		st.CorruptManifest(bundle, doc(t, func(m map[string]any) { m["mainModule"] = "index.js"; mod(0)(m)["mediaType"] = "text/plain" }))
		_, err = artifact.ResolveBundle(st, alice, "/manifestDigest", bundle, wire.WorkerBundleManifest, nil)
		wantCode(t, err, wire.CodeArtifactInvalid, "canonicalizes to")
		st.CorruptManifest(bundle, []byte("{"))
		_, err = artifact.ResolveBundle(st, alice, "/manifestDigest", bundle, wire.WorkerBundleManifest, nil)
		wantCode(t, err, wire.CodeArtifactInvalid, "breaks the manifest rules")
	})
}

func TestStoreErrorsPropagate(t *testing.T) {
	st := artifacttest.NewMem()
	boom := errors.New("disk on fire")
	st.Fail = boom
	if _, err := artifact.Start(st, alice, doc(t, nil), nil); !errors.Is(err, boom) {
		t.Fatalf("Start = %v", err)
	}
	if _, err := artifact.PutBlob(st, alice, "up_x", sha(indexJS), bytes.NewReader(indexJS)); !errors.Is(err, boom) {
		t.Fatalf("PutBlob = %v", err)
	}
	if _, ok := rules.AsRefusal(boom); ok {
		t.Fatal("a store error is not a refusal")
	}
}
