package takoform

import (
	"context"
	"os"

	"github.com/hashicorp/terraform-plugin-framework/diag"
	"github.com/hashicorp/terraform-plugin-framework/path"
	"github.com/hashicorp/terraform-plugin-framework/provider"
	"github.com/hashicorp/terraform-plugin-framework/provider/schema"
	"github.com/hashicorp/terraform-plugin-framework/types"

	"github.com/takokit/takokit/catalog/wire"
	"github.com/takokit/takokit/provider/internal/client"
)

// providerData is what Configure hands every resource: one per provider configuration.
type providerData struct {
	client *client.Client
	space  string // default space, "" when none
}

type providerConfig struct {
	Endpoint types.String `tfsdk:"endpoint"`
	Space    types.String `tfsdk:"space"`
	Token    types.String `tfsdk:"token"`
}

func providerSchema(lane *wire.Lane) schema.Schema {
	described := func(a schema.StringAttribute, d string) schema.StringAttribute {
		a.Description, a.MarkdownDescription = d, d
		return a
	}
	about := "Manages Takoform Forms on a host that speaks the " + lane.APIVersion + " lane; one resource type per Form kind of the catalog."
	return schema.Schema{
		Description: about, MarkdownDescription: about,
		Attributes: map[string]schema.Attribute{
			"endpoint": described(schema.StringAttribute{Optional: true},
				"Bare origin of the host, e.g. `https://host.example` (`http` only for loopback). Falls back to `TAKOFORM_ENDPOINT`."),
			"space": described(schema.StringAttribute{Optional: true},
				"Default space for resources that set none. Falls back to `TAKOFORM_SPACE`."),
			"token": described(schema.StringAttribute{Optional: true, Sensitive: true},
				"Bearer credential sent on every request. Falls back to `TAKOFORM_TOKEN`."),
		},
	}
}

// resolve applies "configured non-empty value wins, else the environment".
func resolve(d *diag.Diagnostics, v types.String, attr, env string) (string, bool) {
	if v.IsUnknown() {
		d.AddAttributeError(path.Root(attr), "Provider "+attr+" is not known yet",
			"The "+attr+" of the takoform provider depends on a value that is only known after apply. "+
				"Configure it with a value known at plan time (or use "+env+").")
		return "", false
	}
	if !v.IsNull() && v.ValueString() != "" {
		return v.ValueString(), true
	}
	return os.Getenv(env), true
}

// configure validates the provider configuration locally; it makes no request.
func configure(ctx context.Context, version string, lane *wire.Lane, req provider.ConfigureRequest, resp *provider.ConfigureResponse) *providerData {
	var cfg providerConfig
	resp.Diagnostics.Append(req.Config.Get(ctx, &cfg)...)
	if resp.Diagnostics.HasError() {
		return nil
	}
	d := &resp.Diagnostics
	endpoint, ok1 := resolve(d, cfg.Endpoint, "endpoint", "TAKOFORM_ENDPOINT")
	space, ok2 := resolve(d, cfg.Space, "space", "TAKOFORM_SPACE")
	token, ok3 := resolve(d, cfg.Token, "token", "TAKOFORM_TOKEN")
	if !ok1 || !ok2 || !ok3 {
		return nil
	}
	if endpoint == "" {
		d.AddAttributeError(path.Root("endpoint"), "Missing takoform endpoint",
			"Set endpoint in the provider block or TAKOFORM_ENDPOINT to the host's bare origin, e.g. https://host.example.")
	} else if _, err := client.ParseEndpoint(endpoint); err != nil {
		d.AddAttributeError(path.Root("endpoint"), "Invalid takoform endpoint", err.Error())
	}
	if token == "" {
		d.AddAttributeError(path.Root("token"), "Missing takoform token",
			"Set token in the provider block or TAKOFORM_TOKEN to the bearer credential the host issued.")
	}
	if space != "" {
		if err := wire.ValidateSpaceID(space); err != nil {
			d.AddAttributeError(path.Root("space"), "Invalid takoform space", err.Error())
		}
	}
	if d.HasError() {
		return nil
	}
	c, err := client.New(client.Config{Endpoint: endpoint, Token: token, Version: version, Lane: lane})
	if err != nil {
		d.AddError("Invalid takoform provider configuration", err.Error())
		return nil
	}
	return &providerData{client: c, space: space}
}
