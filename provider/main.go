// Command terraform-provider-takoform serves the takoform provider over the
// embedded Form catalog.
package main

import (
	"context"
	"flag"
	"fmt"
	"log"
	"os"

	"github.com/hashicorp/terraform-plugin-framework/providerserver"
	"github.com/takokit/takokit/catalog/embedded"
	"github.com/takokit/takokit/provider/takoform"
)

// version is injected with -ldflags "-X main.version=…".
var version = "dev"

// address is the served address, used only for -debug (configurations reach the
// provider through dev_overrides).
const address = "registry.terraform.io/takokit/takoform"

func main() {
	debug := flag.Bool("debug", false, "run in debug mode (prints TF_REATTACH_PROVIDERS for a debugger session)")
	showVersion := flag.Bool("version", false, "print the provider version and exit")
	flag.Parse()
	if *showVersion {
		fmt.Println("terraform-provider-takoform", version)
		return
	}
	if !*debug {
		if err := quietSDKLogs(os.LookupEnv, os.Setenv); err != nil {
			fmt.Fprintln(os.Stderr, "terraform-provider-takoform:", err)
			os.Exit(1)
		}
	}
	// the embedded catalog's model was written out as Go after the checking load
	// (catalog/embedded), so a start reads, decodes and checks nothing and links no
	// JSON Schema engine (docs/provider-design.md#plan-cost)
	factory, err := takoform.New(version, embedded.Catalog())
	if err != nil {
		fmt.Fprintln(os.Stderr, "terraform-provider-takoform:", err)
		os.Exit(1)
	}
	if err := providerserver.Serve(context.Background(), factory, providerserver.ServeOpts{
		Address: address,
		Debug:   *debug,
	}); err != nil {
		log.Fatal(err)
	}
}
