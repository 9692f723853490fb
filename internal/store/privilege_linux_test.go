package store

import (
	"os/exec"
	"syscall"
)

// asNobody makes cmd run as the user nobody (65534).
func asNobody(cmd *exec.Cmd) bool {
	cmd.SysProcAttr = &syscall.SysProcAttr{Credential: &syscall.Credential{Uid: 65534, Gid: 65534}}
	return true
}

func childUID(cmd *exec.Cmd) int {
	if a := cmd.SysProcAttr; a != nil && a.Credential != nil {
		return int(a.Credential.Uid)
	}
	return syscall.Getuid()
}
