resource "takoform_sqlite_migration_application" "example" {
  name          = "example-sqlite-migration-application"
  database      = "sqlite-database"
  migration_set = "sqlite-migration-set"
}
