package dashboard

import (
	"errors"
	"net/http"
	"slices"

	"github.com/takokit/takokit/catalog/wire"
	"github.com/takokit/takokit/hostsim/internal/hostview"
)

type operationsData struct {
	Pending, Finished []operationRow
	Codes             []wire.Code
}

type operationRow struct {
	hostview.Operation
	hostview.Outcome
}

// operationsPage lists pending and finished operations; a pending one can
// be completed or failed from the page.
func (u *UI) operationsPage(w http.ResponseWriter, r *http.Request, s *session, _ []string) error {
	return u.drawOperations(w, r, s, http.StatusOK, "")
}

func (u *UI) drawOperations(w http.ResponseWriter, r *http.Request, s *session, status int, problem string) error {
	p := u.newPage(r, s, "operations", "Operations")
	p.Error = problem
	ops, err := u.State.Operations(r.Context())
	if err != nil {
		return err
	}
	d := &operationsData{Codes: wire.Codes()}
	for i := len(ops) - 1; i >= 0; i-- { // newest first
		row := operationRow{Operation: ops[i], Outcome: ops[i].Outcome()}
		if ops[i].Done {
			d.Finished = append(d.Finished, row)
		} else {
			d.Pending = append(d.Pending, row)
		}
	}
	p.Data = d
	return u.render(w, status, "operations", p)
}

// completeOperation finishes a pending operation: outcome=complete commits
// it, outcome=fail ends it with the chosen error code (the admin API's
// POST /_sim/operations/{id}/complete).
func (u *UI) completeOperation(w http.ResponseWriter, r *http.Request, s *session, args []string) error {
	id := args[0]
	var code wire.Code
	switch r.PostForm.Get("outcome") {
	case "complete":
	case "fail":
		code = wire.Code(r.PostForm.Get("code"))
		if !code.Known() {
			return u.drawOperations(w, r, s, http.StatusBadRequest,
				"Nothing changed: "+quote(string(code))+" is not one of the 26 error codes; choose one from the list.")
		}
	default:
		return u.drawOperations(w, r, s, http.StatusBadRequest, "Nothing changed: the form must say outcome=complete or outcome=fail.")
	}
	ops, err := u.State.Operations(r.Context())
	if err != nil {
		return err
	}
	i := slices.IndexFunc(ops, func(o hostview.Operation) bool { return o.ID == id })
	switch {
	case i < 0:
		return u.drawOperations(w, r, s, http.StatusNotFound, "Nothing changed: this host holds no operation "+id+".")
	case ops[i].Done:
		return u.drawOperations(w, r, s, http.StatusConflict,
			"Nothing changed: operation "+id+" already finished ("+ops[i].Outcome().Phase+").")
	}
	if _, err := u.State.Complete(r.Context(), id, code); err != nil {
		var we *wire.Error
		if errors.As(err, &we) {
			return u.drawOperations(w, r, s, we.Code.Status(), "Operation "+id+" was not finished: "+we.Message+" ("+string(we.Code)+").")
		}
		return err
	}
	if code != "" {
		redirect(w, r, "/operations", "failed")
	} else {
		redirect(w, r, "/operations", "completed")
	}
	return nil
}

func quote(s string) string { return "\u201c" + s + "\u201d" }
