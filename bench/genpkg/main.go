// Command genpkg writes graph packages with their profiles and prompt configs:
// the sample packages that ship with the project (-shipped), or a synthetic
// package of a chosen size for benchmarks.
//
//	go run ./bench/genpkg -shipped                      # rewrite packages/ and profiles/
//	go run ./bench/genpkg -standards 1000000 -out /tmp/big
//	go run ./bench/genpkg -fanout 100000 -out /tmp/wide   # one standard, 100,000 children
package main

import (
	"flag"
	"fmt"
	"os"
	"path/filepath"

	"github.com/kgc-project/kgc/internal/pkggen"
)

func main() {
	shipped := flag.Bool("shipped", false, "write the shipped sample packages into -packages and -profiles")
	packages := flag.String("packages", "packages", "packages root")
	profiles := flag.String("profiles", "profiles", "profiles root")
	out := flag.String("out", "", "write one synthetic package under OUT/packages and OUT/profiles")
	standards := flag.Int("standards", 10000, "approximate number of standards items of the synthetic package")
	lpStrands := flag.Int("progression-strands", 0, "generate progressions in only the first N strands of each grade (0: all)")
	components := flag.Bool("components", true, "generate learning components")
	fanout := flag.Int("fanout", 0, "instead: one standard with N child indicators (a wide hierarchy; no progressions)")
	flag.Parse()
	var err error
	switch {
	case *shipped:
		for _, spec := range pkggen.Shipped() {
			var w *pkggen.Written
			if w, err = pkggen.Write(spec, *packages, *profiles); err != nil {
				break
			}
			fmt.Println("wrote", w.PackageDir)
		}
	case *out != "":
		spec := pkggen.Synthetic(*standards)
		spec.ProgressionStrands, spec.Components = *lpStrands, *components
		if *fanout > 0 {
			spec.GradeLabels, spec.Strands, spec.Standards, spec.Indicators = spec.GradeLabels[:1], 1, 1, *fanout
			spec.Progressions = false
		}
		for _, d := range []string{"packages", "profiles"} {
			if err = os.MkdirAll(filepath.Join(*out, d), 0o755); err != nil {
				break
			}
		}
		if err == nil {
			var w *pkggen.Written
			if w, err = pkggen.Write(spec, filepath.Join(*out, "packages"), filepath.Join(*out, "profiles")); err == nil {
				fmt.Println("wrote", w.PackageDir)
			}
		}
	default:
		flag.Usage()
		os.Exit(2)
	}
	if err != nil {
		fmt.Fprintln(os.Stderr, "genpkg:", err)
		os.Exit(1)
	}
}
