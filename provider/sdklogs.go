package main

import "fmt"

// sdkLogLevel is the variable the plugin SDK (terraform-plugin-go and the framework)
// reads for the level of its own log lines; unset, it writes every line at TRACE.
const sdkLogLevel = "TF_LOG_SDK"

// keptBy are the variables by which OpenTofu and Terraform keep a provider's log lines:
// TF_LOG_PROVIDER's level, else TF_LOG's, and TF_TEMP_LOG_PATH, a file OpenTofu writes
// every line to at TRACE whatever the levels say. With none set they drop every line the
// provider writes, after reading and decoding each one.
var keptBy = []string{"TF_LOG_PROVIDER", "TF_LOG", "TF_TEMP_LOG_PATH"}

// quietSDKLogs turns the SDK's own log lines off when nothing would keep them: none of
// keptBy is set and the user did not choose the SDK's level. A served provider's SDK
// otherwise writes dozens of TRACE lines per request (about a tenth of a plan's provider
// CPU) that the CLI decodes and drops. Whoever sets any of keptBy gets every line as
// before (docs/provider-design.md#logging). main does not call it in -debug mode, where
// the lines go to the developer's terminal.
func quietSDKLogs(lookup func(string) (string, bool), set func(k, v string) error) error {
	if _, chosen := lookup(sdkLogLevel); chosen {
		return nil
	}
	for _, k := range keptBy {
		if v, _ := lookup(k); v != "" {
			return nil
		}
	}
	if err := set(sdkLogLevel, "off"); err != nil {
		return fmt.Errorf("turning off the SDK's log lines, which nothing keeps (%s=off): %w", sdkLogLevel, err)
	}
	return nil
}
