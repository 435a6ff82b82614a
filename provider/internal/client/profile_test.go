package client

import (
	"fmt"
	"strings"
	"testing"
)

const (
	profDigest = "sha256:" + "0123456789abcdef0123456789abcdef0123456789abcdef0123456789abcdef"
	profForm   = `{"apiVersion":"support.takoform.com/v1alpha1","kind":"FormSupport",
"formRef":{"apiVersion":"edge.forms.takokit.dev/v1alpha1","kind":"WorkerVersion","definitionVersion":"0.1.0","schemaDigest":"` + profDigest + `"},
"operations":["create","read","delete"]EXTRA}`
	profIface = `{"apiVersion":"support.takoform.com/v1alpha1","kind":"InterfaceSupport",
"interfaceRef":{"apiVersion":"interfaces.takoform.com/v1alpha1","name":"edge.kv","version":"1.0.0","schemaDigest":"` + profDigest + `"}EXTRA}`
)

// bindingProfile is a BindingSupport profile, with extra members.
func bindingProfile(extra string) []byte {
	iface := strings.Replace(strings.Replace(profIface, "InterfaceSupport", "BindingSupport", 1), `"interfaceRef"`, `"bindingRef"`, 1)
	return []byte(strings.Replace(strings.Replace(iface, "interfaces.takoform.com", "bindings.takoform.com", 1), "EXTRA", extra, 1))
}

// ifaceProfile is the InterfaceSupport profile with one replacement made.
func ifaceProfile(old, new string) []byte {
	return []byte(strings.Replace(strings.Replace(profIface, "EXTRA", "", 1), old, new, 1))
}

// bindingList is a supportedBindings member of n distinct entries.
func bindingList(n int) string {
	var l []string
	for i := range n {
		l = append(l, fmt.Sprintf(`"b%d@1.0.0"`, i))
	}
	return `,"supportedBindings":[` + strings.Join(l, ",") + `]`
}

func formProfile(extra string) []byte {
	return []byte(strings.Replace(profForm, "EXTRA", extra, 1))
}

func TestProfileShapeAcceptsSchemaValidProfiles(t *testing.T) {
	t.Parallel()
	ok := map[string][]byte{
		"bare form profile":                           formProfile(""),
		"enums, ranges, limits":                       formProfile(`,"supportedEnums":{"handlers":["fetch"]},"supportedRanges":{"messageRetentionSeconds":{"minimum":60,"maximum":86400},"compatibilityDate":{"minimum":"2024-01-01"}},"limits":{"maximumHandlers":0,"maximumBundleBytes":9223372036854775807}`),
		"dotted nested keys":                          formProfile(`,"supportedRanges":{"versions.weight":{"maximum":5000}},"supportedEnums":{"versions.mode":["a"]}`),
		"supported bindings":                          formProfile(`,"supportedBindings":["module-worker.edge-kv@1.0.0","module-worker.service@1.0.0"]`),
		"enum value of 128 characters, 256 bytes":     formProfile(`,"supportedEnums":{"handlers":["` + strings.Repeat("é", 128) + `"]}`),
		"interface profile":                           []byte(strings.Replace(profIface, "EXTRA", "", 1)),
		"interface with operations":                   []byte(strings.Replace(profIface, "EXTRA", `,"operations":["read"]`, 1)),
		"binding profile":                             bindingProfile(""),
		"interface name of 128 characters":            ifaceProfile(`"edge.kv"`, `"`+strings.Repeat("a", 128)+`"`),
		"range bound 1e308, an integer of 309 digits": formProfile(`,"supportedRanges":{"weight":{"maximum":1e308}}`),
		"256 supported bindings":                      formProfile(bindingList(256)),
		"a binding entry of 256 characters":           formProfile(`,"supportedBindings":["` + strings.Repeat("a", 250) + `@1.0.0"]`),
	}
	for name, raw := range ok {
		if _, err := decodeProfile(raw); err != nil {
			t.Errorf("%s: refused: %v", name, err)
		}
	}
}

func TestProfileShapeNormalizesIntegers(t *testing.T) {
	t.Parallel()
	sp, err := decodeProfile(formProfile(`,"limits":{"maximumHandlers":1e1,"maximumVars":3.0},"supportedRanges":{"weight":{"maximum":5E3}}`))
	if err != nil {
		t.Fatal(err)
	}
	if sp.Limits["maximumHandlers"] != "10" || sp.Limits["maximumVars"] != "3" {
		t.Errorf("limits = %v, want 10 and 3", sp.Limits)
	}
	if got := string(sp.SupportedRanges["weight"].Maximum); got != "5000" {
		t.Errorf("range maximum = %s, want 5000", got)
	}
}

// Every answer below breaks the published schema: it is unusable (undecided), so
// decodeProfile must refuse it rather than let a comparison read it.
func TestProfileShapeRefusesSchemaInvalidProfiles(t *testing.T) {
	t.Parallel()
	bad := map[string][]byte{
		"formRef without schemaDigest":          []byte(strings.Replace(string(formProfile("")), `,"schemaDigest":"`+profDigest+`"`, "", 1)),
		"formRef with a bad digest":             []byte(strings.Replace(string(formProfile("")), profDigest, "sha256:ABC", 1)),
		"interfaceRef of another type":          []byte(strings.Replace(strings.Replace(profIface, "EXTRA", "", 1), "interfaces.takoform.com", "bindings.takoform.com", 1)),
		"interfaceRef prerelease":               []byte(strings.Replace(strings.Replace(profIface, "EXTRA", "", 1), `"1.0.0"`, `"1.0.0-rc.1"`, 1)),
		"limit as a string":                     formProfile(`,"limits":{"maximumHandlers":"5"}`),
		"negative limit":                        formProfile(`,"limits":{"maximumHandlers":-1}`),
		"limit above 2^63-1":                    formProfile(`,"limits":{"maximumHandlers":9223372036854775808}`),
		"fractional limit":                      formProfile(`,"limits":{"maximumHandlers":1.5}`),
		"huge exponent limit":                   formProfile(`,"limits":{"maximumHandlers":1e999999999}`),
		"dotted limit key":                      formProfile(`,"limits":{"versions.maximum":1}`),
		"boolean range bound":                   formProfile(`,"supportedRanges":{"weight":{"maximum":true}}`),
		"null range bound":                      formProfile(`,"supportedRanges":{"weight":{"minimum":null}}`),
		"fractional range bound":                formProfile(`,"supportedRanges":{"weight":{"minimum":0.5}}`),
		"unknown range member":                  formProfile(`,"supportedRanges":{"weight":{"min":1}}`),
		"bad binding display ref":               formProfile(`,"supportedBindings":["module-worker.edge-kv"]`),
		"duplicate binding":                     formProfile(`,"supportedBindings":["a@1.0.0","a@1.0.0"]`),
		"duplicate binding, apart":              formProfile(`,"supportedBindings":["a@1.0.0","b@1.0.0","a@1.0.0"]`),
		"empty enum list":                       formProfile(`,"supportedEnums":{"handlers":[]}`),
		"commercial member":                     formProfile(`,"price":"1 USD"`),
		"unknown operation":                     []byte(strings.Replace(string(formProfile("")), `"delete"]`, `"delete","scale"]`, 1)),
		"duplicate member":                      formProfile(`,"limits":{"maximumHandlers":1},"limits":{"maximumHandlers":2}`),
		"other apiVersion":                      []byte(strings.Replace(string(formProfile("")), "support.takoform.com/v1alpha1", "support.takoform.com/v1", 1)),
		"duplicate operation":                   []byte(strings.Replace(string(formProfile("")), `"delete"]`, `"delete","read"]`, 1)),
		"repeated enum value":                   formProfile(`,"supportedEnums":{"handlers":["fetch","fetch"]}`),
		"enum value over 128":                   formProfile(`,"supportedEnums":{"handlers":["` + strings.Repeat("é", 129) + `"]}`),
		"enum key not a field key":              formProfile(`,"supportedEnums":{"Handlers":["fetch"]}`),
		"range key not a field key":             formProfile(`,"supportedRanges":{"1weight":{"maximum":5}}`),
		"bindingRef of another type":            []byte(strings.Replace(string(bindingProfile("")), "bindings.takoform.com", "interfaces.takoform.com", 1)),
		"bindingRef with a bad digest":          []byte(strings.Replace(string(bindingProfile("")), profDigest, "sha256:ABC", 1)),
		"interfaceRef with a bad digest":        ifaceProfile(profDigest, "sha256:"+strings.Repeat("A", 64)),
		"interfaceRef name over 128":            ifaceProfile(`"edge.kv"`, `"`+strings.Repeat("a", 129)+`"`),
		"interfaceRef empty name":               ifaceProfile(`"edge.kv"`, `""`),
		"interfaceRef with build metadata":      ifaceProfile(`"1.0.0"`, `"1.0.0+b1"`),
		"range bound written in 401 characters": formProfile(`,"supportedRanges":{"weight":{"maximum":1.` + strings.Repeat("0", 399) + `}}`),
		"range bound with exponent 401":         formProfile(`,"supportedRanges":{"weight":{"maximum":0.` + strings.Repeat("0", 92) + `1e401}}`),
		"range bound with exponent -401":        formProfile(`,"supportedRanges":{"weight":{"maximum":0e-401}}`),
		"257 supported bindings":                formProfile(bindingList(257)),
		"a binding entry of 257 characters":     formProfile(`,"supportedBindings":["` + strings.Repeat("a", 251) + `@1.0.0"]`),
	}
	for name, raw := range bad {
		if sp, err := decodeProfile(raw); err == nil {
			t.Errorf("%s: accepted as %+v", name, sp)
		}
	}
}
