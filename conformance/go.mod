module github.com/takokit/takokit/conformance

go 1.26.0

require github.com/takokit/takokit/catalog v0.0.0

require (
	github.com/gowebpki/jcs v1.0.2 // indirect
	github.com/santhosh-tekuri/jsonschema/v6 v6.0.3 // indirect
	golang.org/x/text v0.40.0 // indirect
)

replace github.com/takokit/takokit/catalog => ../catalog

replace github.com/takokit/takokit/hostsim => ../hostsim
