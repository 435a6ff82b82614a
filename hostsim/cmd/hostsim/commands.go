package main

import (
	"encoding/json"
	"errors"
	"fmt"
	"io"
	"runtime/debug"
	"strings"

	"github.com/takokit/takokit/catalog"
	"github.com/takokit/takokit/catalog/wire"
	"github.com/takokit/takokit/hostsim"
)

// version is stamped by `go tool mage build` (-ldflags "-X main.version=…").
var version = ""

// buildVersion is the stamped version, else the module version, else "dev".
func buildVersion() string {
	if version != "" {
		return version
	}
	if bi, ok := debug.ReadBuildInfo(); ok && bi.Main.Version != "" && bi.Main.Version != "(devel)" {
		return bi.Main.Version
	}
	return "dev"
}

func profiles(w io.Writer) error {
	for _, line := range hostsim.DescribeProfiles() {
		fmt.Fprintln(w, line)
	}
	return nil
}

// profileShow prints a profile merged, after holding it to the catalog (--catalog,
// --lane, else the built-in one) as serve does: a typo in a file shows here, not
// first when a host refuses to start.
func profileShow(args []string, env func(string) string, w io.Writer) error {
	cfg, err := Load("profile show", args, env)
	if err != nil {
		return err
	}
	if len(cfg.Args) != 1 {
		return badUsage("give one built-in profile name or profile file, after the flags (got %d arguments): hostsim profile show [--catalog DIR] [--lane NAME] NAME|FILE", len(cfg.Args))
	}
	p, err := hostsim.LoadProfile(cfg.Args[0])
	if err != nil {
		return badUsage("%v", err)
	}
	cat, err := loadCatalog(cfg)
	if err != nil {
		return err
	}
	if err := p.CheckCatalog(cat); err != nil {
		return badUsage("%v", err)
	}
	_, err = w.Write(p.JSON())
	return err
}

// loadCatalog reads --catalog DIR by the rule every family root is held to
// (catalog.LoadRoot, which `go tool mage provider:family` applies too), or the
// built-in catalog of --lane; held to --lane when both are given
// (docs/protocol.md#lanes).
func loadCatalog(cfg Config) (*catalog.Catalog, error) {
	dir, laneName := cfg.Catalog, cfg.Lane
	var lane *wire.Lane
	if laneName != "" {
		var err error
		if lane, err = wire.LaneNamed(laneName); err != nil {
			return nil, badUsage("%s: %v", cfg.named("lane"), err)
		}
	}
	if dir == "" {
		if lane == nil {
			lane = wire.DefaultLane
		}
		c, err := catalog.EmbeddedLane(lane)
		if err != nil {
			return nil, fmt.Errorf("the built-in catalog of lane %s does not load: %w", lane.Name, err)
		}
		return c, nil
	}
	c, err := catalog.LoadRoot(dir)
	var re *catalog.RootError
	if errors.As(err, &re) {
		return nil, badUsage("%s: %s", cfg.setting("catalog", dir), re.Reason)
	}
	if err != nil {
		return nil, badUsage("%s: %v", cfg.setting("catalog", dir), err)
	}
	if lane != nil {
		if c, err = catalog.ForLane(c, lane); err != nil {
			return nil, badUsage("%s with %s: %v", cfg.setting("catalog", dir), cfg.setting("lane", lane.Name), err)
		}
	}
	return c, nil
}

type formLine struct {
	FormRef       any      `json:"formRef"`
	PackageDigest string   `json:"packageDigest"`
	Role          string   `json:"role"`
	Capabilities  []string `json:"capabilities"`
	Outputs       []string `json:"outputs"`
}

func catalogCmd(args []string, env func(string) string, w io.Writer) error {
	cfg, err := Load("catalog", args, env)
	if err != nil {
		return err
	}
	if len(cfg.Args) > 0 {
		return badUsage("takes no arguments (got %q); name the directory with --catalog DIR", cfg.Args)
	}
	cat, err := loadCatalog(cfg)
	if err != nil {
		return err
	}
	var forms []formLine
	for _, f := range cat.Forms() {
		outs := []string{}
		for _, o := range f.Outputs {
			outs = append(outs, o.Wire+":"+o.Type)
		}
		forms = append(forms, formLine{f.Ref, f.PackageDigest, f.Role, f.Capabilities, outs})
	}
	var ifaces, bindings []any
	for _, i := range cat.Interfaces() {
		ifaces = append(ifaces, i.Ref)
	}
	for _, b := range cat.Bindings() {
		bindings = append(bindings, b.Ref)
	}
	if cfg.Format == "json" {
		b, _ := json.MarshalIndent(map[string]any{"forms": forms, "interfaces": ifaces, "bindings": bindings}, "", "  ")
		_, err := fmt.Fprintln(w, string(b))
		return err
	}
	for _, f := range cat.Forms() {
		outs := "no outputs"
		if len(f.Outputs) > 0 {
			var o []string
			for _, x := range f.Outputs {
				o = append(o, x.Wire+":"+x.Type)
			}
			outs = "outputs " + strings.Join(o, ",")
		}
		fmt.Fprintf(w, "form      %s %s@%s %s package %s role %s [%s] %s\n", f.Ref.APIVersion, f.Ref.Kind,
			f.Ref.DefinitionVersion, f.Ref.SchemaDigest, f.PackageDigest, f.Role, strings.Join(f.Capabilities, ","), outs)
	}
	for _, i := range cat.Interfaces() {
		fmt.Fprintf(w, "interface %s@%s %s\n", i.Ref.Name, i.Ref.Version, i.Ref.SchemaDigest)
	}
	for _, b := range cat.Bindings() {
		fmt.Fprintf(w, "binding   %s@%s %s\n", b.Ref.Name, b.Ref.Version, b.Ref.SchemaDigest)
	}
	return nil
}
