import {
  to = takoform_object_bucket.example
  id = "prod/example-object-bucket"
}
