resource "takoform_edge_kv_namespace" "example" {
  name = "example-edge-kv-namespace"
}
