# NAME in the provider's space, or SPACE/NAME:
tofu import takoform_worker_endpoint.example prod/example-worker-endpoint

# or a JSON object naming the exact Form (all four Form members, or none):
tofu import takoform_worker_endpoint.example '{"space":"prod","name":"example-worker-endpoint","apiVersion":"edge.forms.takokit.dev/v1beta1","kind":"WorkerEndpoint","definitionVersion":"0.2.0","schemaDigest":"sha256:f0ebe3d10c4f16c7e2391de00239fa50401f028a092a69c02902b44b0d9b39ad"}'
