module github.com/takokit/takokit

go 1.26.0

require (
	github.com/magefile/mage v1.17.2
	github.com/rogpeppe/go-internal v1.16.0
)

require (
	golang.org/x/sys v0.49.0 // indirect
	golang.org/x/tools v0.26.0 // indirect
)

tool github.com/magefile/mage
