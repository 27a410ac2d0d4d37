package kafkabroker

import "syscall"

// sysProcAttr puts java in its own process group, so that a Ctrl-C meant
// for the caller reaches it only as the SIGTERM the caller sends, and has
// the kernel kill it if the caller dies without stopping it.
func sysProcAttr() *syscall.SysProcAttr {
	return &syscall.SysProcAttr{Setpgid: true, Pdeathsig: syscall.SIGKILL}
}
