//go:build !linux

package kafkabroker

import "syscall"

// sysProcAttr: elsewhere than Linux there is no parent-death signal; Close
// stops the broker.
func sysProcAttr() *syscall.SysProcAttr { return nil }
