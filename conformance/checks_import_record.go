package conformance

import (
	"context"
	"net/http"

	"github.com/takokit/takokit/catalog"
	"github.com/takokit/takokit/catalog/wire"
)

// twoImportable picks two standalone Forms of different kinds the host lets import.
func (p *Probe) twoImportable() (*catalog.Form, *catalog.Form, error) {
	var first *catalog.Form
	var bare []string // importable standalone Forms the runner cannot build
	for _, f := range p.S.Forms {
		if !standalone(f) || !p.S.Offers(f, "create", "read", "delete", "import") {
			continue
		}
		if len(f.Fixtures) == 0 {
			bare = named(bare, f)
			continue
		}
		if first == nil {
			first = f
		} else if f.Ref.Kind != first.Ref.Kind || f.Ref.APIVersion != first.Ref.APIVersion {
			return first, f, nil
		}
	}
	if len(bare) > 0 {
		return nil, nil, notApplicable("the runner can build fewer than two kinds the host lets create without other resources and import: %s", noFixtures(bare))
	}
	return nil, nil, notApplicable("the host lets import fewer than two kinds creatable without other resources%s", p.S.foreignNote())
}

func checkImportRecordsClaim(ctx context.Context, p *Probe) error {
	k1, k2, err := p.twoImportable()
	if err != nil {
		return err
	}
	s1, err := p.specFor(ctx, k1)
	if err != nil {
		return err
	}
	s2, err := p.specFor(ctx, k2)
	if err != nil {
		return err
	}
	other := p.Space + "-b"
	rival := func(native, what string) error {
		return p.within(p.P, other, func() error {
			name := p.Name("rival")
			r, err := p.P.Do(ctx, p.importReq(k2.Ref, name, s2, native, ""))
			if err != nil {
				return err
			}
			if err := expectCode(r, wire.CodeImportConflict); err != nil {
				return failf("%s (%s)", err, what)
			}
			return p.notCreated(ctx, k2.Ref, name, what)
		})
	}
	// The first import onto a resource the host created records the claim.
	made, err := p.create(ctx, k1, p.Name("made"), s1)
	if err != nil {
		return err
	}
	native := p.nativeID("record")
	again, r, err := p.adopt(ctx, p.P, k1, made.Metadata.Name, s1, native, made.Metadata.Generation, http.StatusOK)
	if err != nil {
		return failf("%v (the first import onto a resource the host created records a claim)", err)
	}
	if again.Metadata.UID != made.Metadata.UID {
		return failf("%s: the import answered uid %s, expected the created incarnation %s", r.What(), again.Metadata.UID, made.Metadata.UID)
	}
	if err := rival(native, "a "+k2.Ref.Kind+" in another space adopting the identity the first import recorded onto a created "+k1.Ref.Kind); err != nil {
		return err
	}
	r, err = p.P.Do(ctx, p.importReq(k1.Ref, made.Metadata.Name, s1, native+"-other", again.Metadata.Generation))
	if err != nil {
		return err
	}
	if err := expectCode(r, wire.CodeImportConflict); err != nil {
		return failf("%s (re-importing the created resource under another nativeId after its claim was recorded)", err)
	}
	// A new adoption claims its identity too, across kinds and spaces.
	adopted := p.nativeID("adopted")
	if _, _, err := p.adopt(ctx, p.P, k1, p.Name("adopt"), s1, adopted, "", http.StatusCreated); err != nil {
		return err
	}
	if err := rival(adopted, "a "+k2.Ref.Kind+" in another space adopting the identity a "+k1.Ref.Kind+" adoption holds"); err != nil {
		return err
	}
	// Deleting the holder releases the claim, measured by the other kind.
	if err := p.deleted(ctx, again); err != nil {
		return err
	}
	return p.within(p.P, other, func() error {
		if _, _, err := p.adopt(ctx, p.P, k2, p.Name("rival"), s2, native, "", http.StatusCreated); err != nil {
			return failf("%v (deleting the holder releases its identity for a %s)", err, k2.Ref.Kind)
		}
		return nil
	})
}
