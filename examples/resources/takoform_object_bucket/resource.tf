resource "takoform_object_bucket" "example" {
  name = "example-object-bucket"
}
