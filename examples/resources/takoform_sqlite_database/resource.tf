resource "takoform_sqlite_database" "example" {
  name = "example-sqlite-database"
}
