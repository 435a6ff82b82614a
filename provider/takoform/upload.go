package takoform

import (
	"context"
	"fmt"

	"github.com/takokit/takokit/catalog/model"
	"github.com/takokit/takokit/catalog/wire"
)

// filesChanged is an upload stopped before anything was sent: the local files no
// longer describe the manifest the plan computed.
type filesChanged struct{ what, now, planned string }

func (e *filesChanged) Error() string {
	return fmt.Sprintf("the %s files changed since plan: they now describe %s, the plan has %s", e.what, e.now, e.planned)
}

// uploadBundle uploads and commits the local files before the resource request
// (docs/provider-design.md#bundles): start with the manifest, put each blob the host
// is missing, commit. Files that changed since plan stop it before anything is sent.
func (r *Resource) uploadBundle(ctx context.Context, plan values, form *model.Form) error {
	a := r.kind.model.bundle
	entries, ok := a.readEntries(plan[a.list])
	if !ok {
		return fmt.Errorf("the %s list is not known at apply", a.what())
	}
	main := plan.str(aMainModule)
	for i := range entries {
		size, digest, _, err := hashFile(entries[i].file)
		if err != nil {
			return err
		}
		entries[i].size, entries[i].digest = size, digest
	}
	manifest := a.manifestOf(main, entries)
	want, err := wire.DigestValue(manifest)
	if err != nil {
		return err
	}
	if planned := plan.str(form.Fields[0].Attr); planned != want {
		return &filesChanged{what: a.what(), now: want, planned: planned}
	}
	c := r.configured.client
	st, err := c.StartUpload(ctx, manifest)
	if err != nil {
		return err
	}
	for _, missing := range st.MissingBlobs {
		var entry *localEntry
		for i := range entries {
			if entries[i].digest == missing {
				entry = &entries[i]
			}
		}
		if entry == nil {
			return fmt.Errorf("the host asks for blob %s, which the manifest does not declare", missing)
		}
		_, digest, data, err := hashFile(entry.file)
		if err != nil {
			return err
		}
		if digest != missing {
			return fmt.Errorf("%s changed during the upload", entry.file)
		}
		if err := c.PutBlob(ctx, st.UploadID, missing, data); err != nil {
			return err
		}
	}
	got, err := c.CommitUpload(ctx, st.UploadID, want)
	if err != nil {
		return err
	}
	if got != want {
		return fmt.Errorf("the host committed manifest %s, not the computed %s", got, want)
	}
	return nil
}
