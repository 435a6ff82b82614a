package main

import (
	"errors"
	"testing"

	"github.com/google/go-cmp/cmp"
)

// TestQuietSDKLogsOnlyWhenNothingKeepsThem: the SDK's lines are turned off only when
// none of TF_LOG_PROVIDER, TF_LOG and TF_TEMP_LOG_PATH is set and TF_LOG_SDK was not chosen.
func TestQuietSDKLogsOnlyWhenNothingKeepsThem(t *testing.T) {
	for _, c := range []struct {
		name string
		env  map[string]string
		want map[string]string // what quietSDKLogs sets
	}{
		{"nothing set", map[string]string{}, map[string]string{"TF_LOG_SDK": "off"}},
		{"TF_LOG", map[string]string{"TF_LOG": "DEBUG"}, map[string]string{}},
		{"TF_LOG_PROVIDER", map[string]string{"TF_LOG_PROVIDER": "trace"}, map[string]string{}},
		{"TF_LOG empty", map[string]string{"TF_LOG": ""}, map[string]string{"TF_LOG_SDK": "off"}},
		{"TF_LOG_SDK chosen", map[string]string{"TF_LOG_SDK": "debug"}, map[string]string{}},
		{"TF_LOG_SDK chosen empty", map[string]string{"TF_LOG_SDK": ""}, map[string]string{}},
		{"TF_TEMP_LOG_PATH", map[string]string{"TF_TEMP_LOG_PATH": "/tmp/tofu.log"}, map[string]string{}},
		{"TF_LOG_CORE only", map[string]string{"TF_LOG_CORE": "trace"}, map[string]string{"TF_LOG_SDK": "off"}},
	} {
		t.Run(c.name, func(t *testing.T) {
			got := map[string]string{}
			lookup := func(k string) (string, bool) { v, ok := c.env[k]; return v, ok }
			if err := quietSDKLogs(lookup, func(k, v string) error { got[k] = v; return nil }); err != nil {
				t.Fatal(err)
			}
			if d := cmp.Diff(c.want, got); d != "" {
				t.Errorf("set (-want +got):\n%s", d)
			}
		})
	}
}

// TestQuietSDKLogsSaysWhatItCouldNotSet: a setter's failure comes back naming the
// variable and the value it was setting.
func TestQuietSDKLogsSaysWhatItCouldNotSet(t *testing.T) {
	err := quietSDKLogs(func(string) (string, bool) { return "", false }, func(string, string) error { return errors.New("no room") })
	if err == nil || err.Error() != "turning off the SDK's log lines, which nothing keeps (TF_LOG_SDK=off): no room" {
		t.Fatalf("quietSDKLogs with a failing setter: %v", err)
	}
}
