package hostsim_test

import (
	"strings"
	"testing"

	"github.com/takokit/takokit/hostsim"
)

// TestNewRefusesTokensItCouldNotTellApart: a token listed twice (which principal
// it stood for depended on the order) or with an empty member is refused, naming
// places and never the token; the tokens as given, or none given, start a host.
func TestNewRefusesTokensItCouldNotTellApart(t *testing.T) {
	for _, c := range []struct {
		tokens []hostsim.Token
		want   string
	}{
		{[]hostsim.Token{{Token: "s3cret-a", Tenant: "t", Principal: "p"}, {Token: "s3cret-b", Tenant: "t", Principal: "q"}, {Token: "s3cret-a", Tenant: "u", Principal: "r"}},
			"Config.Tokens[2] repeats the token of Config.Tokens[0]; a token stands for one principal of one tenant"},
		{[]hostsim.Token{{Token: "s3cret-a", Tenant: "", Principal: "p"}}, "Config.Tokens[0]: token, tenant and principal must be non-empty"},
		{[]hostsim.Token{{Token: "", Tenant: "t", Principal: "p"}}, "Config.Tokens[0]: token, tenant and principal must be non-empty"},
	} {
		h, err := hostsim.New(hostsim.Config{Tokens: c.tokens})
		if err == nil {
			h.Close()
			t.Errorf("New(%d tokens) started a host; want %q", len(c.tokens), c.want)
			continue
		}
		if err.Error() != c.want || strings.Contains(err.Error(), "s3cret") {
			t.Errorf("New: %v\nwant %s, naming no token", err, c.want)
		}
	}
	for _, tokens := range [][]hostsim.Token{nil, {{Token: "a", Tenant: "t", Principal: "p"}, {Token: "b", Tenant: "t", Principal: "p"}}} {
		h, err := hostsim.New(hostsim.Config{Tokens: tokens})
		if err != nil {
			t.Fatalf("New(%d tokens): %v", len(tokens), err)
		}
		h.Close()
	}
}
