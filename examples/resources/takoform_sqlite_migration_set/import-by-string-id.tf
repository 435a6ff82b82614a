import {
  to = takoform_sqlite_migration_set.example
  id = "prod/example-sqlite-migration-set"
}
