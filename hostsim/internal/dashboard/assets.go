package dashboard

import (
	"embed"
	"net/http"
	"path"
)

//go:embed assets/dashboard.css assets/live.js
var assetFS embed.FS

var assetTypes = map[string]string{".css": "text/css; charset=utf-8", ".js": "text/javascript; charset=utf-8"}

// asset serves the dashboard's one stylesheet and one script.
func (u *UI) asset(w http.ResponseWriter, r *http.Request, _ *session, args []string) error {
	b, err := assetFS.ReadFile("assets/" + args[0])
	if err != nil {
		return notFound("The dashboard has no asset %s.", args[0])
	}
	w.Header().Set("Content-Type", assetTypes[path.Ext(args[0])])
	w.Header().Set("Cache-Control", "no-cache")
	_, _ = w.Write(b)
	return nil
}
