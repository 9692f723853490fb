//go:build !linux

package store

import "os/exec"

func asNobody(*exec.Cmd) bool { return false }
func childUID(*exec.Cmd) int  { return -1 }
