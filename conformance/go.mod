module github.com/takokit/takokit/conformance

go 1.26

require (
	github.com/takokit/takokit/catalog v0.0.0
	github.com/takokit/takokit/hostsim v0.0.0
)

replace github.com/takokit/takokit/catalog => ../catalog

replace github.com/takokit/takokit/hostsim => ../hostsim
