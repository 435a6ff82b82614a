package takoform

import (
	"context"
	"fmt"
	"os"
	"strconv"

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
	// tokenFrom names where the token came from, for diagnostics (never the token)
	tokenFrom string
	// requireSupport turns an unreadable support surface into a plan error (unreadable.go)
	requireSupport bool
}

type providerConfig struct {
	Endpoint       types.String `tfsdk:"endpoint"`
	Space          types.String `tfsdk:"space"`
	Token          types.String `tfsdk:"token"`
	RequireSupport types.Bool   `tfsdk:"require_support_surface"`
}

// Where a token can come from, as diagnostics name it.
const (
	tokenFromAttribute = "from the provider's token attribute"
	tokenFromEnv       = "from the TAKOFORM_TOKEN environment variable"
	envRequireSupport  = "TAKOFORM_REQUIRE_SUPPORT_SURFACE"
)

// requireSupportDoc is the setting's whole documentation: the provider schema carries it,
// and the generated docs/index.md renders it from there.
const requireSupportDoc = "Makes a support surface the plan cannot read an error instead of a warning, for CI plan gates. " +
	"During `tofu plan` the provider reads the host's support profiles to refuse what the host does not offer. " +
	"By default a plan that cannot read them (the host rejects the token with 401 or 403, no host answers at the endpoint, " +
	"the host answers 5xx, or it sends a document the provider cannot use) only warns " +
	"(`takoform.provider/host-support-unreadable`) and exits 0, since apply still checks. " +
	"With `true` each of those stops the plan with an error naming the resource, the route, the code and what to do, " +
	"so a wrong token or a stopped host fails the gate before anyone applies. " +
	"A host whose support surface answers is planned exactly as without the setting. " +
	"Falls back to `" + envRequireSupport + "` (`true` or `false`) when unset; default `false`."

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
			"require_support_surface": schema.BoolAttribute{Optional: true,
				Description: requireSupportDoc, MarkdownDescription: requireSupportDoc},
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

// configure validates the provider configuration locally; it makes no request. over
// carries the tests' overrides of the client (Provider.testClient).
func configure(ctx context.Context, version string, lane *wire.Lane, over client.Config, req provider.ConfigureRequest, resp *provider.ConfigureResponse) *providerData {
	var cfg providerConfig
	resp.Diagnostics.Append(req.Config.Get(ctx, &cfg)...)
	if resp.Diagnostics.HasError() {
		return nil
	}
	d := &resp.Diagnostics
	endpoint, ok1 := resolve(d, cfg.Endpoint, "endpoint", "TAKOFORM_ENDPOINT")
	space, ok2 := resolve(d, cfg.Space, "space", "TAKOFORM_SPACE")
	token, ok3 := resolve(d, cfg.Token, "token", "TAKOFORM_TOKEN")
	require, ok4 := resolveBool(d, cfg.RequireSupport, "require_support_surface", envRequireSupport)
	if !ok1 || !ok2 || !ok3 || !ok4 {
		return nil
	}
	tokenFrom := tokenFromAttribute
	if cfg.Token.IsNull() || cfg.Token.ValueString() == "" {
		tokenFrom = tokenFromEnv
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
	c, err := client.New(client.Config{Endpoint: endpoint, Token: token, Version: version, Lane: lane,
		HTTP: over.HTTP, SupportRetryWait: over.SupportRetryWait})
	if err != nil {
		d.AddError("Invalid takoform provider configuration", err.Error())
		return nil
	}
	return &providerData{client: c, space: space, tokenFrom: tokenFrom, requireSupport: require}
}

// resolveBool is resolve for a boolean: the configured value wins, else the environment
// ("" is false; anything strconv.ParseBool refuses is an error naming the variable).
func resolveBool(d *diag.Diagnostics, v types.Bool, attr, env string) (bool, bool) {
	if v.IsUnknown() {
		d.AddAttributeError(path.Root(attr), "Provider "+attr+" is not known yet",
			"The "+attr+" of the takoform provider depends on a value that is only known after apply. "+
				"Configure it with a value known at plan time (or use "+env+").")
		return false, false
	}
	if !v.IsNull() {
		return v.ValueBool(), true
	}
	raw := os.Getenv(env)
	if raw == "" {
		return false, true
	}
	b, err := strconv.ParseBool(raw)
	if err != nil {
		d.AddAttributeError(path.Root(attr), "Invalid "+env,
			fmt.Sprintf("%s=%q is not a boolean; set it to true or false, or unset it (the default is false).", env, raw))
		return false, false
	}
	return b, true
}
