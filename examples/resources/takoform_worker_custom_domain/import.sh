# NAME in the provider's space, or SPACE/NAME:
tofu import takoform_worker_custom_domain.example prod/example-worker-custom-domain

# or a JSON object naming the exact Form (all four Form members, or none):
tofu import takoform_worker_custom_domain.example '{"space":"prod","name":"example-worker-custom-domain","apiVersion":"edge.forms.takokit.dev/v1alpha1","kind":"WorkerCustomDomain","definitionVersion":"0.1.0","schemaDigest":"sha256:c31778e341df5f31fcd933f1ac4fbf3ec4291e8c19e7452fd85ceaec35e66c1f"}'
