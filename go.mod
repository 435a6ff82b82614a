module github.com/takokit/takokit

go 1.26.0

require (
	github.com/chromedp/chromedp v0.23.0
	github.com/google/go-cmp v0.7.0
	github.com/magefile/mage v1.17.2
	github.com/rogpeppe/go-internal v1.16.0
	github.com/takokit/takokit/catalog v0.0.0
	go.yaml.in/yaml/v3 v3.0.5
	golang.org/x/mod v0.42.0
	golang.org/x/tools v0.52.0
)

require (
	github.com/pb33f/libopenapi v0.42.4 // indirect
	github.com/pb33f/libopenapi-validator v0.16.2 // indirect
)

require (
	github.com/bahlo/generic-list-go v0.2.0 // indirect
	github.com/basgys/goxml2json v1.1.1-0.20231018121955-e66ee54ceaad // indirect
	github.com/buger/jsonparser v1.6.1 // indirect
	github.com/chromedp/cdproto v0.159.0 // indirect
	github.com/go-json-experiment/json v0.0.0-20260213210345-44df1a37e875 // indirect
	github.com/go-openapi/jsonpointer v1.0.2 // indirect
	github.com/gowebpki/jcs v1.0.2 // indirect
	github.com/pb33f/go-yaml v0.1.1 // indirect
	github.com/pb33f/jsonpath v0.8.5 // indirect
	github.com/pb33f/jsonschema/v6 v6.0.3 // indirect
	github.com/pb33f/ordered-map/v2 v2.3.2 // indirect
	github.com/santhosh-tekuri/jsonschema/v6 v6.0.3 // indirect
	github.com/takokit/takokit/hostsim v0.0.0
	golang.org/x/net v0.62.0 // indirect
	golang.org/x/sync v0.24.0 // indirect
	golang.org/x/sys v0.49.0 // indirect
	golang.org/x/text v0.43.0 // indirect
)

tool github.com/magefile/mage

replace github.com/takokit/takokit/catalog => ./catalog

replace github.com/takokit/takokit/hostsim => ./hostsim
