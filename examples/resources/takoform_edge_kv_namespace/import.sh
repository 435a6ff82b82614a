# NAME in the provider's space, or SPACE/NAME:
tofu import takoform_edge_kv_namespace.example prod/example-edge-kv-namespace

# or a JSON object naming the exact Form (all four Form members, or none):
tofu import takoform_edge_kv_namespace.example '{"space":"prod","name":"example-edge-kv-namespace","apiVersion":"edge.forms.takokit.dev/v1beta1","kind":"EdgeKVNamespace","definitionVersion":"0.1.0","schemaDigest":"sha256:7901e6af4fe24ae95caccb26429246cdd1080a04a75ad3d9ba195a21ecf93620"}'
