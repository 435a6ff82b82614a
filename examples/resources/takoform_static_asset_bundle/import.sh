# NAME in the provider's space, or SPACE/NAME:
tofu import takoform_static_asset_bundle.example prod/example-static-asset-bundle

# or a JSON object naming the exact Form (all four Form members, or none):
tofu import takoform_static_asset_bundle.example '{"space":"prod","name":"example-static-asset-bundle","apiVersion":"edge.forms.takokit.dev/v1beta1","kind":"StaticAssetBundle","definitionVersion":"0.1.0","schemaDigest":"sha256:b5f6c8597a4d674ce8cfa93f3d54ce2c2ef0a5d8a75a55f373709a62721dbbcc"}'
