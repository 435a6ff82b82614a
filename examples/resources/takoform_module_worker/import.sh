# NAME in the provider's space, or SPACE/NAME:
tofu import takoform_module_worker.example prod/example-module-worker

# or a JSON object naming the exact Form (all four Form members, or none):
tofu import takoform_module_worker.example '{"space":"prod","name":"example-module-worker","apiVersion":"edge.forms.takokit.dev/v1alpha1","kind":"ModuleWorker","definitionVersion":"0.1.0","schemaDigest":"sha256:f2167fb1ca82981b2a8dbcf09edafbeaf6228434fe70d6f046626ff1f21f36bf"}'
