# NAME in the provider's space, or SPACE/NAME:
tofu import takoform_worker_cron_trigger.example prod/example-worker-cron-trigger

# or a JSON object naming the exact Form (all four Form members, or none):
tofu import takoform_worker_cron_trigger.example '{"space":"prod","name":"example-worker-cron-trigger","apiVersion":"edge.forms.takokit.dev/v1alpha1","kind":"WorkerCronTrigger","definitionVersion":"0.1.0","schemaDigest":"sha256:eecde0164b8a1deda11ff521163e7fd9f94913f30c70fdbd95c6378dfc12aa77"}'
