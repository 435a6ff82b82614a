//go:build mage

package main

import (
	"fmt"
	"os"
	"path/filepath"
	"slices"

	"github.com/takokit/takokit/internal/release"
)

// snapshotRelease builds bin/goreleaser, runs its snapshot release over .goreleaser.yaml
// (every platform of the matrix into dist/, nothing published or signed), puts the
// registry manifest beside the SHA256SUMS, and checks dist/ against the registry's names
// with the rules the release test holds a one-platform snapshot to (internal/release).
func snapshotRelease() error {
	if err := buildReleaseTools(goreleaserTool); err != nil {
		return fmt.Errorf("build bin/goreleaser: %w", err)
	}
	root, err := filepath.Abs(".")
	if err != nil {
		return err
	}
	if err := release.Snapshot(filepath.Join(root, "bin", "goreleaser"), root, "", os.Stdout); err != nil {
		return err
	}
	dist := filepath.Join(root, "dist")
	placed, err := release.PlaceManifest(root, dist)
	if err != nil {
		return err
	}
	fmt.Println("release: placed", filepath.Base(placed))
	matrix, err := release.Matrix(filepath.Join(root, release.ConfigFile))
	if err != nil {
		return err
	}
	bad, err := release.Check(root, dist, matrix)
	if err != nil {
		return err
	}
	if len(bad) > 0 {
		for _, b := range bad {
			fmt.Println("release:", b)
		}
		return fmt.Errorf("dist/ is not a release a registry takes: %d problems above", len(bad))
	}
	entries, err := os.ReadDir(dist)
	if err != nil {
		return err
	}
	var files []string
	for _, e := range entries {
		if !e.IsDir() {
			files = append(files, e.Name())
		}
	}
	slices.Sort(files)
	fmt.Printf("release: dist/ holds %d files, checked:\n", len(files))
	for _, f := range files {
		fmt.Println("  " + f)
	}
	return nil
}
