package scripts

import (
	"context"
	"fmt"
	"io"
	"net/http"
	"time"

	"github.com/rogpeppe/go-internal/testscript"
	"github.com/takokit/takokit/catalog/readyfile"
)

func cmdReadyWait(ts *testscript.TestScript, args []string) error {
	if len(args) < 2 || len(args) > 3 {
		return usageError("need FILE NAME [TIMEOUT]")
	}
	timeout := 20 * time.Second
	if len(args) == 3 {
		var err error
		if timeout, err = time.ParseDuration(args[2]); err != nil {
			return usageError("TIMEOUT must be a Go duration")
		}
	}
	path := ts.MkAbs(args[0])
	// a host this command did not start: no exit to watch (a nil channel never closes)
	r, err := readyfile.Await(context.Background(), path, nil, timeout)
	if err != nil {
		return fmt.Errorf("no ready document in %s within %s", args[0], timeout)
	}
	if r.Admin != r.URL+"/_sim" || r.PID <= 0 {
		return fmt.Errorf("ready file %s is malformed: %+v", args[0], r)
	}
	ts.Setenv(args[1]+"_URL", r.URL)
	ts.Setenv(args[1]+"_ADMIN", r.Admin)
	return nil
}

func cmdHTTPGet(ts *testscript.TestScript, args []string) error {
	if len(args) < 1 || len(args) > 2 {
		return usageError("need URL [TOKEN]")
	}
	req, err := http.NewRequest("GET", args[0], nil)
	if err != nil {
		return usageError(err.Error())
	}
	if len(args) == 2 {
		req.Header.Set("Authorization", "Bearer "+args[1])
	}
	resp, err := adminClient.Do(req)
	if err != nil {
		return err
	}
	defer resp.Body.Close()
	body, _ := io.ReadAll(resp.Body)
	fmt.Fprintf(ts.Stdout(), "%s\n", body)
	if resp.StatusCode/100 != 2 {
		return fmt.Errorf("GET %s: %s", args[0], resp.Status)
	}
	return nil
}
