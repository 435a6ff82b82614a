package conformance

import (
	"context"
	"encoding/json"
	"fmt"
	"net/http"
	"strconv"
	"strings"

	"github.com/takokit/takokit/catalog"
	"github.com/takokit/takokit/catalog/wire"
)

// A U-label and its A-label (IDNA), put in front of a fresh name.
const (
	uLabel = "b\u00fccher"
	aLabel = "xn--bcher-kva"
)

// hostnameField finds a worker attachment with a top-level free string field that
// admits a DNS name in any ASCII spelling (upper case, a trailing root dot) and
// refuses a U-label: a hostname the host canonicalizes and claims per tenant
// (docs/protocol.md#aggregate).
func (p *Probe) hostnameField() (*catalog.Form, catalog.Field, error) {
	return p.attachmentField("an attachment of a worker with a hostname field", hostnameFieldOf)
}

// hostnameFieldOf is f's first top-level free string field that admits a DNS name
// in any ASCII spelling and refuses a U-label.
func hostnameFieldOf(f *catalog.Form) (catalog.Field, bool) {
	for _, fl := range f.Fields {
		if fl.Kind != catalog.FieldString || len(fl.Enum) > 0 {
			continue
		}
		if admits(f, fl, "Conformance.Example.COM.") && admits(f, fl, "conformance.example.com") && !admits(f, fl, uLabel+".example.com") {
			return fl, true
		}
	}
	return catalog.Field{}, false
}

// freshHost is a fresh canonical DNS name for this run.
func (p *Probe) freshHost() string {
	p.seq++
	// a hostname is claimed tenant-wide, across spaces: the check's place keeps two
	// checks of one run apart, the run two runs
	return fmt.Sprintf("h-%s-%d-%d.example.com", p.run, p.check, p.seq)
}

// shouted is a spelling of the canonical name h in upper case with a root dot.
func shouted(h string) string { return strings.ToUpper(h) + "." }

// claim applies an attachment f claiming host in the probe's current space, on its
// own aggregate (a fresh world), and returns the answer.
func (p *Probe) claim(ctx context.Context, f *catalog.Form, fl catalog.Field, name, host string) (*Resp, map[string]any, error) {
	spec, err := p.specFor(ctx, f)
	if err != nil {
		return nil, nil, err
	}
	spec[fl.Wire] = host
	r, err := p.apply(ctx, p.P, f.Ref, name, spec, "")
	return r, spec, err
}

// storedField reads field fl of a representation's spec.
func storedField(res *Resource, fl catalog.Field) any {
	var spec map[string]any
	_ = json.Unmarshal(res.Spec, &spec)
	return spec[fl.Wire]
}

// within runs fn with the probe's client, space and world switched, restoring them.
func (p *Probe) within(c *Client, space string, fn func() error) error {
	pc, ps, pw := p.P, p.Space, p.world
	p.P, p.Space, p.world = c, space, nil
	defer func() { p.P, p.Space, p.world = pc, ps, pw }()
	return fn()
}

func checkHostnameCanonicalized(ctx context.Context, p *Probe) error {
	f, fl, err := p.hostnameField()
	if err != nil {
		return err
	}
	host := p.freshHost()
	spellings := []string{shouted(host), host + ".", host}
	spec, err := p.specFor(ctx, f)
	if err != nil {
		return err
	}
	var digest string
	for _, s := range spellings {
		sp := cloneSpec(spec)
		sp[fl.Wire] = s
		r, _, err := p.prepare(ctx, p.P, f.Ref, p.Name(slugPrefix(f)), sp, "")
		if err != nil {
			return err
		}
		if err := expectStatus(r, http.StatusOK); err != nil {
			return err
		}
		var ans struct {
			Resource struct {
				Spec map[string]any `json:"spec"`
			} `json:"resource"`
			Review struct {
				SpecDigest string `json:"specDigest"`
			} `json:"review"`
		}
		_ = json.Unmarshal(r.Body, &ans)
		if ans.Resource.Spec[fl.Wire] != host {
			return failf("%s: prepare of %s %q must echo the canonical %q; got %v", r.What(), fl.Wire, s, host, ans.Resource.Spec[fl.Wire])
		}
		if digest != "" && ans.Review.SpecDigest != digest {
			return failf("%s: %s %q must have the specDigest of every other spelling of %q (%s); got %s", r.What(), fl.Wire, s, host, digest, ans.Review.SpecDigest)
		}
		digest = ans.Review.SpecDigest
	}
	sp := cloneSpec(spec)
	sp[fl.Wire] = spellings[0]
	res, err := p.create(ctx, f, p.Name(slugPrefix(f)), sp)
	if err != nil {
		return err
	}
	if got := storedField(res, fl); got != host {
		return failf("PUT %s: the host stored the hostname as %v; %q must be stored as its canonical %q", ResourcePath(f.Ref, res.Metadata.Name), got, spellings[0], host)
	}
	sp[fl.Wire] = host
	r, err := p.apply(ctx, p.P, f.Ref, res.Metadata.Name, sp, res.Metadata.Generation)
	if err != nil {
		return err
	}
	again, err := p.settle(ctx, p.P, r, http.StatusOK)
	if err != nil {
		return err
	}
	if again.Metadata.Generation != res.Metadata.Generation {
		return failf("%s: re-applying %q spelled canonically moved the generation %s → %s; both spellings are one desired state", r.What(), spellings[0], res.Metadata.Generation, again.Metadata.Generation)
	}
	return nil
}

func checkHostnameClaimUnique(ctx context.Context, p *Probe) error {
	f, fl, err := p.hostnameField()
	if err != nil {
		return err
	}
	one, two := p.Space, p.Space+"-b"
	h1, h2 := p.freshHost(), p.freshHost()
	var holder *Resource
	refusedIn := func(space, host, what string) error {
		return p.within(p.P, space, func() error {
			name := p.Name(slugPrefix(f))
			r, _, err := p.claim(ctx, f, fl, name, host)
			if err != nil {
				return err
			}
			if err := expectCode(r, wire.CodeInvalidArgument); err != nil {
				return failf("%s (%s)", err, what)
			}
			return p.notCreated(ctx, f.Ref, name, what)
		})
	}
	err = p.within(p.P, one, func() error {
		r, _, err := p.claim(ctx, f, fl, p.Name(slugPrefix(f)), h1)
		if err != nil {
			return err
		}
		holder, err = p.settle(ctx, p.P, r, http.StatusCreated)
		return err
	})
	if err != nil {
		return err
	}
	if err := refusedIn(two, shouted(h1), "a claim from another space of the tenant on a hostname a live attachment serves, spelled otherwise"); err != nil {
		return err
	}
	err = p.within(p.P, two, func() error {
		r, _, err := p.claim(ctx, f, fl, p.Name(slugPrefix(f)), h2)
		if err != nil {
			return err
		}
		_, err = p.settle(ctx, p.P, r, http.StatusCreated)
		return err
	})
	if err != nil {
		return err
	}
	if err := refusedIn(one, h2+".", "a claim on a hostname the tenant's other space serves"); err != nil {
		return err
	}
	if err := p.within(p.P, one, func() error { return p.deleted(ctx, holder) }); err != nil {
		return err
	}
	return p.within(p.P, two, func() error {
		r, _, err := p.claim(ctx, f, fl, p.Name(slugPrefix(f)), h1)
		if err != nil {
			return err
		}
		if _, err := p.settle(ctx, p.P, r, http.StatusCreated); err != nil {
			return failf("%v (releasing the holder makes the claim representable)", err)
		}
		return nil
	})
}

func checkHostnameClaimStopsAtTenant(ctx context.Context, p *Probe) error {
	f, fl, err := p.hostnameField()
	if err != nil {
		return err
	}
	host := p.freshHost()
	r, _, err := p.claim(ctx, f, fl, p.Name(slugPrefix(f)), host)
	if err != nil {
		return err
	}
	mine, err := p.settle(ctx, p.P, r, http.StatusCreated)
	if err != nil {
		return err
	}
	var theirs *Resource
	err = p.within(p.Other, p.Space, func() error {
		r, _, err := p.claim(ctx, f, fl, p.Name(slugPrefix(f)), shouted(host))
		if err != nil {
			return err
		}
		if r.Status >= 300 && r.Status != http.StatusAccepted {
			return failf("%s: a hostname only another tenant serves must be claimable; the claim was refused %s", r.What(), r.Got())
		}
		if theirs, err = p.settle(ctx, p.P, r, http.StatusCreated); err != nil {
			return err
		}
		name := p.Name(slugPrefix(f))
		r, _, err = p.claim(ctx, f, fl, name, host)
		if err != nil {
			return err
		}
		if err := expectCode(r, wire.CodeInvalidArgument); err != nil {
			return failf("%s (a second claim inside the other tenant)", err)
		}
		if r.Err != nil && strings.Contains(r.Err.Message, strconv.Quote(mine.Metadata.Name)) {
			return failf("%s: the refusal inside one tenant names the other tenant's holder %q: %s", r.What(), mine.Metadata.Name, snippet(r.Body))
		}
		return p.notCreated(ctx, f.Ref, name, "a second claim inside the other tenant")
	})
	if err != nil {
		return err
	}
	if theirs.Metadata.UID == mine.Metadata.UID {
		return failf("the two tenants' claims on %q answered one uid %s", host, mine.Metadata.UID)
	}
	if err := p.deleted(ctx, mine); err != nil {
		return err
	}
	return p.within(p.Other, p.Space, func() error {
		_, err := p.readResource(ctx, f.Ref, theirs.Metadata.Name)
		return err
	})
}

func checkULabelRefused(ctx context.Context, p *Probe) error {
	f, fl, err := p.hostnameField()
	if err != nil {
		return err
	}
	spec, err := p.specFor(ctx, f)
	if err != nil {
		return err
	}
	base := p.freshHost()
	bad := cloneSpec(spec)
	bad[fl.Wire] = uLabel + "." + base
	if err := p.refusedAtGate(ctx, f, bad, fl.Wire+" written as the U-label "+uLabel+"."+base); err != nil {
		return err
	}
	good := cloneSpec(spec)
	good[fl.Wire] = aLabel + "." + base
	res, err := p.create(ctx, f, p.Name(slugPrefix(f)), good)
	if err != nil {
		return failf("%v (the A-label of the same name is accepted)", err)
	}
	if got := storedField(res, fl); got != aLabel+"."+base {
		return failf("PUT %s: the A-label %q must be stored byte for byte; got %v", ResourcePath(f.Ref, res.Metadata.Name), aLabel+"."+base, got)
	}
	return nil
}
