package testrun

import "syscall"

// tmpfsMagic is the file system type Linux reports for tmpfs (statfs(2)).
const tmpfsMagic = 0x01021994

// inMemory reports whether dir is on tmpfs.
func inMemory(dir string) bool {
	var st syscall.Statfs_t
	return syscall.Statfs(dir, &st) == nil && st.Type == tmpfsMagic
}
