module github.com/takokit/takokit/provider

go 1.26.0

require (
	github.com/takokit/takokit/catalog v0.0.0
	github.com/takokit/takokit/hostsim v0.0.0
)

require (
	github.com/hashicorp/terraform-plugin-framework v1.19.0 // indirect
	github.com/hashicorp/terraform-plugin-go v0.31.0 // indirect
	github.com/hashicorp/terraform-plugin-log v0.11.0 // indirect
)

replace github.com/takokit/takokit/catalog => ../catalog

replace github.com/takokit/takokit/hostsim => ../hostsim
