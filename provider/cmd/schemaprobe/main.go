// Command schemaprobe is the shortest provider process OpenTofu runs, reproduced for
// timing: it starts a provider binary the way OpenTofu does (go-plugin, protocol 6,
// gRPC), asks GetProviderSchema once, then stops it and waits for it to exit.
//
//	hyperfine 'schemaprobe bin/terraform-provider-takoform'
//	valgrind --tool=callgrind --trace-children=yes schemaprobe bin/terraform-provider-takoform
//
// With -v it prints the size of the schema answer and what the provider process cost:
// its wall time from start to exit and its own CPU (the rusage of the waited child). It
// is a measuring tool of the plan benchmark (docs/decisions.md, "plan cost"), not part
// of any provider.
package main

import (
	"context"
	"flag"
	"fmt"
	"os"
	"os/exec"
	"syscall"
	"time"

	"github.com/hashicorp/go-hclog"
	"github.com/hashicorp/go-plugin"
	"google.golang.org/grpc"
	"google.golang.org/protobuf/types/known/emptypb"
)

// handshake is what OpenTofu (and Terraform) use for protocol 6 providers.
var handshake = plugin.HandshakeConfig{
	ProtocolVersion:  6,
	MagicCookieKey:   "TF_PLUGIN_MAGIC_COOKIE",
	MagicCookieValue: "d602bf8f470bc67ca7faa0386276bbdd4330efaf76d1a219cb4d6991ca9872b2",
}

// conn hands back the raw gRPC connection: the probe needs no generated client, since
// GetProviderSchema's request is an empty message.
type conn struct{ plugin.Plugin }

func (conn) GRPCServer(*plugin.GRPCBroker, *grpc.Server) error { return nil }
func (conn) GRPCClient(_ context.Context, _ *plugin.GRPCBroker, c *grpc.ClientConn) (any, error) {
	return c, nil
}

func main() {
	verbose := flag.Bool("v", false, "print the size of the schema answer")
	flag.Parse()
	if flag.NArg() != 1 {
		fmt.Fprintln(os.Stderr, "usage: schemaprobe [-v] PROVIDER-BINARY")
		os.Exit(2)
	}
	client := plugin.NewClient(&plugin.ClientConfig{
		HandshakeConfig:  handshake,
		Plugins:          plugin.PluginSet{"provider": conn{}},
		Cmd:              exec.Command(flag.Arg(0)),
		AllowedProtocols: []plugin.Protocol{plugin.ProtocolGRPC},
		Managed:          true,
		Logger:           hclog.NewNullLogger(),
		AutoMTLS:         true, // as OpenTofu starts providers
	})
	start := time.Now()
	defer client.Kill()
	rpc, err := client.Client()
	if err != nil {
		fail(err)
	}
	raw, err := rpc.Dispense("provider")
	if err != nil {
		fail(err)
	}
	var resp emptypb.Empty // unknown fields are kept, so its size is the answer's size
	if err := raw.(*grpc.ClientConn).Invoke(context.Background(), "/tfplugin6.Provider/GetProviderSchema", &emptypb.Empty{}, &resp); err != nil {
		fail(err)
	}
	if *verbose {
		client.Kill() // waits for the provider to exit
		wall := time.Since(start)
		var ru syscall.Rusage
		_ = syscall.Getrusage(syscall.RUSAGE_CHILDREN, &ru)
		cpu := time.Duration(ru.Utime.Nano() + ru.Stime.Nano())
		fmt.Printf("GetProviderSchema answered %d bytes; provider process wall %.1f ms, cpu %.1f ms\n",
			len(resp.ProtoReflect().GetUnknown()), wall.Seconds()*1000, cpu.Seconds()*1000)
	}
}

func fail(err error) {
	fmt.Fprintln(os.Stderr, "schemaprobe:", err)
	os.Exit(1)
}
