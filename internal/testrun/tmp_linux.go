package testrun

import "syscall"

// tmpfsMagic is the file system type Linux reports for tmpfs (statfs(2)).
const tmpfsMagic = 0x01021994

// inMemory reports whether dir is on tmpfs with at least minMemoryFree bytes free.
func inMemory(dir string) bool {
	var st syscall.Statfs_t
	return syscall.Statfs(dir, &st) == nil && st.Type == tmpfsMagic && st.Bavail*uint64(st.Bsize) >= minMemoryFree
}
