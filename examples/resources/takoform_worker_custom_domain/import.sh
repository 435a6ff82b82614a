# NAME in the provider's space, or SPACE/NAME:
tofu import takoform_worker_custom_domain.example prod/example-worker-custom-domain

# or a JSON object naming the exact Form (all four Form members, or none):
tofu import takoform_worker_custom_domain.example '{"space":"prod","name":"example-worker-custom-domain","apiVersion":"edge.forms.takokit.dev/v1beta1","kind":"WorkerCustomDomain","definitionVersion":"0.1.0","schemaDigest":"sha256:89d66b661318c1ba73249e31bf0e136d61805d9e9bd6821f2395172eaac290df"}'
