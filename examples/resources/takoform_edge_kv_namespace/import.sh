# NAME in the provider's space, or SPACE/NAME:
tofu import takoform_edge_kv_namespace.example prod/example-edge-kv-namespace

# or a JSON object naming the exact Form (all four Form members, or none):
tofu import takoform_edge_kv_namespace.example '{"space":"prod","name":"example-edge-kv-namespace","apiVersion":"edge.forms.takokit.dev/v1alpha1","kind":"EdgeKVNamespace","definitionVersion":"0.1.0","schemaDigest":"sha256:9d43b1aab140d6127e905be4a4d40e29840bc5bc2303b98d671c08b4108d96dd"}'
