module github.com/takokit/takokit

go 1.26.0

require (
	github.com/takokit/takokit/catalog v0.0.0
	github.com/takokit/takokit/hostsim v0.0.0
)

require (
	github.com/magefile/mage v1.17.2 // indirect
	github.com/rogpeppe/go-internal v1.16.0 // indirect
)

replace github.com/takokit/takokit/catalog => ./catalog

replace github.com/takokit/takokit/hostsim => ./hostsim

tool github.com/magefile/mage
