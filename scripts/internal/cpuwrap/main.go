// Command cpuwrap stands where OpenTofu expects a provider binary, runs the real one
// (TAKOKIT_WRAP_EXEC) with the same arguments and standard streams, and appends one
// line "wall_ns user_ns sys_ns" to TAKOKIT_WRAP_RUSAGE when it exits. The plan
// benchmark reads those lines to charge each provider process its own CPU, apart from
// OpenTofu's.
package main

import (
	"errors"
	"fmt"
	"os"
	"os/exec"
	"os/signal"
	"syscall"
	"time"
)

func main() {
	target, out := os.Getenv("TAKOKIT_WRAP_EXEC"), os.Getenv("TAKOKIT_WRAP_RUSAGE")
	if target == "" || out == "" {
		fmt.Fprintln(os.Stderr, "cpuwrap: TAKOKIT_WRAP_EXEC and TAKOKIT_WRAP_RUSAGE must be set")
		os.Exit(2)
	}
	cmd := exec.Command(target, os.Args[1:]...)
	cmd.Stdin, cmd.Stdout, cmd.Stderr = os.Stdin, os.Stdout, os.Stderr
	sigs := make(chan os.Signal, 4)
	signal.Notify(sigs, syscall.SIGINT, syscall.SIGTERM)
	start := time.Now()
	if err := cmd.Start(); err != nil {
		fmt.Fprintln(os.Stderr, "cpuwrap:", err)
		os.Exit(2)
	}
	go func() {
		for s := range sigs {
			_ = cmd.Process.Signal(s)
		}
	}()
	err := cmd.Wait()
	wall := time.Since(start)
	code := 0
	var exit *exec.ExitError
	if errors.As(err, &exit) {
		code = exit.ExitCode()
	} else if err != nil {
		code = 2
	}
	st := cmd.ProcessState
	line := fmt.Sprintf("%d %d %d\n", wall.Nanoseconds(), st.UserTime().Nanoseconds(), st.SystemTime().Nanoseconds())
	if f, err := os.OpenFile(out, os.O_APPEND|os.O_CREATE|os.O_WRONLY, 0o644); err == nil {
		_, _ = f.WriteString(line)
		_ = f.Close()
	}
	os.Exit(code)
}
