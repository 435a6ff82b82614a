# NAME in the provider's space, or SPACE/NAME:
tofu import takoform_module_worker.example prod/example-module-worker

# or a JSON object naming the exact Form (all four Form members, or none):
tofu import takoform_module_worker.example '{"space":"prod","name":"example-module-worker","apiVersion":"edge.forms.takokit.dev/v1beta1","kind":"ModuleWorker","definitionVersion":"0.1.0","schemaDigest":"sha256:d2f9270d9136d43ffb9d538d5313a7476bf8cefe123f0dc436dff82ac65c2d09"}'
