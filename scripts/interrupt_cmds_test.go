package scripts

import (
	"bytes"
	"fmt"
	"os"
	"os/exec"
	"path/filepath"
	"syscall"
	"time"

	"github.com/rogpeppe/go-internal/testscript"
)

// cmdInterruptWhen runs a program, waits until hostsim NAME reports CONDITION, sends the program
// SIGINT (what Ctrl-C does) and waits for it to end, whatever its exit status: testscript's own
// kill+wait treats an interrupted program's non-zero exit as a failure of the script.
func cmdInterruptWhen(ts *testscript.TestScript, args []string) error {
	if len(args) < 3 {
		return usageError("need NAME CONDITION PROGRAM [ARGS...]")
	}
	p, err := lookupSim(ts, args[0])
	if err != nil {
		return err
	}
	cond := findCondition(args[1])
	if cond == nil {
		return usageError("unknown condition " + args[1])
	}
	path, err := scriptLookPath(ts, args[2])
	if err != nil {
		return err
	}
	cmd := exec.Command(path, args[3:]...)
	cmd.Dir = ts.MkAbs(".")
	cmd.Env = environ(ts)
	var out, errb bytes.Buffer
	cmd.Stdout, cmd.Stderr = &out, &errb
	if err := cmd.Start(); err != nil {
		return err
	}
	done := make(chan error, 1)
	go func() { done <- cmd.Wait() }()
	deadline := time.Now().Add(30 * time.Second)
	for {
		ok, err := cond.check(p)
		if err != nil {
			_ = cmd.Process.Kill()
			<-done
			return err
		}
		if ok {
			break
		}
		select {
		case werr := <-done:
			ts.Stdout().Write(out.Bytes())
			return fmt.Errorf("%s ended (%v) before %s held", args[2], werr, cond.name)
		case <-time.After(50 * time.Millisecond):
		}
		if time.Now().After(deadline) {
			_ = cmd.Process.Kill()
			<-done
			return fmt.Errorf("condition %s did not hold within 30s", cond.name)
		}
	}
	_ = cmd.Process.Signal(syscall.SIGINT)
	select {
	case werr := <-done:
		ts.Logf("%s ended after SIGINT: %v", args[2], werr)
	case <-time.After(60 * time.Second):
		_ = cmd.Process.Kill()
		<-done
		return fmt.Errorf("%s did not end within 60s of SIGINT", args[2])
	}
	_, _ = ts.Stdout().Write(out.Bytes())
	_, _ = ts.Stderr().Write(errb.Bytes())
	return nil
}

// scriptLookPath finds a program on the script's PATH (not the test process's).
func scriptLookPath(ts *testscript.TestScript, name string) (string, error) {
	for _, dir := range filepath.SplitList(ts.Getenv("PATH")) {
		p := filepath.Join(dir, name)
		if st, err := os.Stat(p); err == nil && !st.IsDir() && st.Mode()&0o111 != 0 {
			return p, nil
		}
	}
	return "", fmt.Errorf("%s is not on the scenario's PATH", name)
}

// environ is the script's environment, as exec would pass it.
func environ(ts *testscript.TestScript) []string {
	var env []string
	for _, k := range []string{"PATH", "HOME", "TMPDIR", "TAKOKIT_BIN", "TF_CLI_CONFIG_FILE", "TF_IN_AUTOMATION",
		"CHECKPOINT_DISABLE", "TAKOFORM_ENDPOINT", "TAKOFORM_TOKEN", "TAKOFORM_SPACE"} {
		if v := ts.Getenv(k); v != "" {
			env = append(env, k+"="+v)
		}
	}
	return env
}
