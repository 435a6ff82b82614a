# NAME in the provider's space, or SPACE/NAME:
tofu import takoform_sqlite_migration_application.example prod/example-sqlite-migration-application

# or a JSON object naming the exact Form (all four Form members, or none):
tofu import takoform_sqlite_migration_application.example '{"space":"prod","name":"example-sqlite-migration-application","apiVersion":"edge.forms.takokit.dev/v1beta1","kind":"SQLiteMigrationApplication","definitionVersion":"0.1.0","schemaDigest":"sha256:a27c6694653d236d6b4c1f57140747e307ab472142ef42b0a6b67432e9a6731e"}'
