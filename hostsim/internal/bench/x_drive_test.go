package main

import (
	"os"
	"testing"
)

func TestXDrive(t *testing.T) {
	url := os.Getenv("DRIVE_URL")
	if url == "" {
		t.Skip()
	}
	ref, err := kvFormRef(url)
	if err != nil {
		t.Fatal(err)
	}
	c := newClient(url, ref, true)
	if err := c.loop("x", 6000); err != nil {
		t.Fatal(err)
	}
}
