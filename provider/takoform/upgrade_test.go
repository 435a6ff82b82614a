package takoform

import (
	"context"
	"encoding/json"
	"testing"

	"github.com/hashicorp/terraform-plugin-framework/attr"
	"github.com/hashicorp/terraform-plugin-framework/types"
	"github.com/hashicorp/terraform-plugin-go/tfprotov6"
)

// TestUpgradeOfAStateWithoutANewAttribute: a WorkerVersion state written before
// assets existed (its JSON has no assets member) upgrades, from schema version 0 and
// from the current version alike, to the same state with a null assets object.
func TestUpgradeOfAStateWithoutANewAttribute(t *testing.T) {
	t.Parallel()
	srv := protoServer(t)
	ctx := context.Background()
	kt := kindByType(t, testProvider(t), versionType)
	v := values{aName: s("version-a"), aSpace: s("dev"), aUID: s("u-1"), aGeneration: s("1"), "worker": s("api"),
		"bundle": s("bundle-a"), "handlers": types.SetValueMust(types.StringType, []attr.Value{s("fetch")}),
		aRevisionOwner: s("api")}
	raw, err := v.raw(ctx, kt.objectType)
	if err != nil {
		t.Fatal(err)
	}
	js, err := tftypesJSON(raw)
	if err != nil {
		t.Fatal(err)
	}
	var doc map[string]any
	if err := json.Unmarshal(js, &doc); err != nil {
		t.Fatal(err)
	}
	if _, has := doc["assets"]; !has {
		t.Fatal("the probe state must start with an assets member to remove")
	}
	delete(doc, "assets")
	old, _ := json.Marshal(doc)
	for _, version := range []int64{0, SchemaVersion} {
		resp, err := srv.UpgradeResourceState(ctx, &tfprotov6.UpgradeResourceStateRequest{TypeName: versionType, Version: version,
			RawState: &tfprotov6.RawState{JSON: old}})
		if err != nil {
			t.Fatal(err)
		}
		mustNoError(t, "upgrade", resp.Diagnostics)
		got, err := resp.UpgradedState.Unmarshal(kt.objectType.TerraformType(ctx))
		if err != nil {
			t.Fatal(err)
		}
		if !got.Equal(raw) {
			t.Errorf("version %d: upgrade gave\n %v\nwant\n %v", version, got, raw)
		}
	}
}
