# NAME in the provider's space, or SPACE/NAME:
tofu import takoform_sqlite_migration_set.example prod/example-sqlite-migration-set

# or a JSON object naming the exact Form (all four Form members, or none):
tofu import takoform_sqlite_migration_set.example '{"space":"prod","name":"example-sqlite-migration-set","apiVersion":"edge.forms.takokit.dev/v1beta1","kind":"SQLiteMigrationSet","definitionVersion":"0.1.0","schemaDigest":"sha256:cf8f30697c7d1f70fa880b2b452027be99b07aa8feefea25ba17ccd5fc8322b5"}'
