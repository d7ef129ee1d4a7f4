// Command ociimage builds kgmcp's container image without a Docker engine
// (internal/ociimage): the static kgmcp binary, the given .kgimg images under a
// read-only /images, a non-root user, `kgmcp --http 0.0.0.0:8080 /images`.
//
//	go run ./tools/ociimage [-arch amd64] [-version V] [-layout dist/oci] [-tar dist/kgmcp-image.tar] IMAGE.kgimg...
//
// It writes an OCI image layout (for registries: `crane push`, `skopeo copy
// oci:dist/oci …`) and a tarball `docker load` accepts (tagged kgmcp:VERSION).
package main

import (
	"flag"
	"fmt"
	"os"
	"os/exec"
	"path/filepath"

	"github.com/google/go-containerregistry/pkg/name"
	"github.com/google/go-containerregistry/pkg/v1/tarball"

	"github.com/kgc-project/kgc/internal/ociimage"
)

func main() {
	arch := flag.String("arch", "amd64", "image architecture (amd64 or arm64)")
	version := flag.String("version", "devel", "version stamped into kgmcp and the image label")
	layoutDir := flag.String("layout", "dist/oci", "OCI image layout to write")
	tarPath := flag.String("tar", "dist/kgmcp-image.tar", "docker-loadable tarball to write (empty: none)")
	flag.Parse()
	if err := run(*arch, *version, *layoutDir, *tarPath, flag.Args()); err != nil {
		fmt.Fprintln(os.Stderr, "ociimage:", err)
		os.Exit(1)
	}
}

func run(arch, version, layoutDir, tarPath string, images []string) error {
	if len(images) == 0 {
		return fmt.Errorf("no .kgimg image given")
	}
	tmp, err := os.MkdirTemp("", "ociimage-")
	if err != nil {
		return err
	}
	defer os.RemoveAll(tmp)
	bin := filepath.Join(tmp, "kgmcp")
	build := exec.Command("go", "build", "-trimpath", "-ldflags",
		"-s -w -buildid= -X github.com/kgc-project/kgc/internal/version.Version="+version, "-o", bin, "./cmd/kgmcp")
	build.Env = append(os.Environ(), "CGO_ENABLED=0", "GOOS=linux", "GOARCH="+arch, "GOFLAGS=-buildvcs=false")
	if out, err := build.CombinedOutput(); err != nil {
		return fmt.Errorf("building kgmcp: %v\n%s", err, out)
	}
	img, err := ociimage.Build(ociimage.Options{Kgmcp: bin, Images: images, Arch: arch, Version: version})
	if err != nil {
		return err
	}
	if err := ociimage.WriteLayout(layoutDir, img); err != nil {
		return err
	}
	digest, _ := img.Digest()
	fmt.Printf("wrote OCI layout %s (%s)\n", layoutDir, digest)
	if tarPath != "" {
		tag, err := name.NewTag("kgmcp:" + version)
		if err != nil {
			return err
		}
		if err := os.MkdirAll(filepath.Dir(tarPath), 0o755); err != nil {
			return err
		}
		if err := tarball.WriteToFile(tarPath, tag, img); err != nil {
			return err
		}
		fmt.Printf("wrote %s (docker load -i %s; tag %s)\n", tarPath, tarPath, tag)
	}
	return nil
}
