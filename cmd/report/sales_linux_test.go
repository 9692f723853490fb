package main

import (
	"bufio"
	"fmt"
	"os"
	"os/exec"
	"path/filepath"
	"strings"
	"syscall"
	"testing"
	"time"
)

// BenchmarkImportSales: a Gumroad export of 200,000 sales, the fixture's
// rows each under a purchase ID of its own, taken by -import-sales into a
// new SQLite store, as a process: its time and its peak resident memory,
// which stays bounded however long the file is (it is read as a stream).
//
//	go test ./cmd/report -run '^$' -bench ImportSales -benchtime 3x
func BenchmarkImportSales(b *testing.B) {
	const n = 200_000
	src, err := os.ReadFile("../../internal/sales/testdata/gumroad-5-sales.csv")
	if err != nil {
		b.Fatal(err)
	}
	lines := strings.SplitAfter(string(src), "\n")
	export := filepath.Join(b.TempDir(), "Sales.csv")
	f, err := os.Create(export)
	if err != nil {
		b.Fatal(err)
	}
	w := bufio.NewWriter(f)
	w.WriteString(lines[0])
	for i := range n {
		row := lines[1+i%5]
		_, rest, _ := strings.Cut(row, ",")
		fmt.Fprintf(w, "PUrchAseId%07d==,%s", i, rest)
	}
	w.WriteString(lines[6]) // Totals
	if err := w.Flush(); err != nil {
		b.Fatal(err)
	}
	f.Close()
	fi, _ := os.Stat(export)
	var peak int64
	var took time.Duration
	exe, err := os.Executable()
	if err != nil {
		b.Fatal(err)
	}
	for b.Loop() {
		cmd := exec.Command(exe)
		cmd.Dir = b.TempDir()
		cmd.Env = append(os.Environ(), "REPORT_TEST_MAIN=1", "REPORT_TEST_ARGS=-import-sales "+export)
		t0 := time.Now()
		out, err := cmd.CombinedOutput()
		took += time.Since(t0)
		if err != nil || !strings.Contains(string(out), fmt.Sprintf("%d sales added", n)) {
			b.Fatalf("%v: %s", err, out)
		}
		peak = max(peak, cmd.ProcessState.SysUsage().(*syscall.Rusage).Maxrss*1024) // Linux counts KiB
	}
	b.ReportMetric(float64(fi.Size())/1e6, "MB-file")
	b.ReportMetric(float64(peak)/1e6, "MB-peak-RSS")
	b.ReportMetric(took.Seconds()/float64(b.N), "s/import")
}
