resource "takoform_static_asset_bundle" "example" {
  revision_owner  = "team-a/static-asset-bundle"
  manifest_digest = "sha256:19a633eb0ccfd2c5f024560b5ee84672799829925b4e22f24a14a0dff8ac0567"

  lifecycle {
    create_before_destroy = true
  }
}
