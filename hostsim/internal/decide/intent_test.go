package decide

import (
	"strings"
	"testing"
)

func TestResolveIntent(t *testing.T) {
	for _, tc := range []struct {
		name      string
		p         Preconditions
		bodyFence int64
		fs        *Acts
		want      Intent
		refused   string
	}{
		{name: "create", p: Preconditions{IfNoneMatch: true}, want: Intent{Create: true}},
		{name: "change by header", p: Preconditions{Fence: 3, IfMatch: 9}, want: Intent{Fence: 3, IfMatch: 9}},
		{name: "change by body", bodyFence: 4, want: Intent{Fence: 4}},
		{name: "header and body agree", p: Preconditions{Fence: 4}, bodyFence: 4, want: Intent{Fence: 4}},
		{name: "header and body disagree", p: Preconditions{Fence: 3}, bodyFence: 4, refused: "disagree"},
		{name: "disagreement under fence.ignore: the body wins", p: Preconditions{Fence: 3}, bodyFence: 4, fs: armed(FenceIgnore), want: Intent{Fence: 4}},
		{name: "create with a fence", p: Preconditions{IfNoneMatch: true, Fence: 1}, refused: "cannot be combined"},
		{name: "create with If-Match", p: Preconditions{IfNoneMatch: true, IfMatch: 1}, refused: "cannot be combined"},
		{name: "neither", p: Preconditions{IfMatch: 2}, refused: "send If-None-Match"},
	} {
		t.Run(tc.name, func(t *testing.T) {
			got, err := ResolveIntent(tc.p, tc.bodyFence, "/expectedGeneration", tc.fs)
			if tc.fs != nil && err == nil && tc.fs.Fired(FenceIgnore) != 1 {
				t.Fatalf("fence.ignore acted %d times; want once", tc.fs.Fired(FenceIgnore))
			}
			if tc.refused != "" {
				if err == nil || !strings.Contains(err.Message, tc.refused) {
					t.Fatalf("got %+v, %v; want a refusal mentioning %q", got, err, tc.refused)
				}
				return
			}
			if err != nil || got != tc.want {
				t.Fatalf("got %+v, %v; want %+v", got, err, tc.want)
			}
		})
	}
}
