import {
  to = takoform_static_asset_bundle.example
  id = "prod/example-static-asset-bundle"
}
