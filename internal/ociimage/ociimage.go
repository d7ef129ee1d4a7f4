// Package ociimage builds kgmcp's container image without a Docker engine: a
// single-layer OCI image (go-containerregistry) holding the static kgmcp
// binary, the .kgimg images under a read-only /images, and an /etc/passwd
// naming the non-root user it runs as. Every byte is deterministic: the same
// binary and images give the same image digest.
package ociimage

import (
	"archive/tar"
	"bytes"
	"fmt"
	"io"
	"os"
	"path/filepath"
	"sort"
	"time"

	v1 "github.com/google/go-containerregistry/pkg/v1"
	"github.com/google/go-containerregistry/pkg/v1/empty"
	"github.com/google/go-containerregistry/pkg/v1/layout"
	"github.com/google/go-containerregistry/pkg/v1/mutate"
	"github.com/google/go-containerregistry/pkg/v1/tarball"
	"github.com/google/go-containerregistry/pkg/v1/types"
)

// The image's user, port and paths.
const (
	uid        = 65532
	port       = 8080
	binaryPath = "/kgmcp"
	imagesDir  = "/images"
)

// Options say what goes into the image.
type Options struct {
	Kgmcp  string   // a static linux kgmcp binary
	Images []string // .kgimg files
	OS     string   // default linux
	Arch   string   // default amd64
	// Version labels the image (org.opencontainers.image.version).
	Version string
}

// Build assembles the image.
func Build(o Options) (v1.Image, error) {
	if o.OS == "" {
		o.OS = "linux"
	}
	if o.Arch == "" {
		o.Arch = "amd64"
	}
	if len(o.Images) == 0 {
		return nil, fmt.Errorf("ociimage: no .kgimg image to serve")
	}
	var buf bytes.Buffer
	tw := tar.NewWriter(&buf)
	add := func(h *tar.Header, data []byte) error {
		h.ModTime, h.Uid, h.Gid, h.Uname, h.Gname, h.Format = time.Unix(0, 0), 0, 0, "", "", tar.FormatPAX
		if err := tw.WriteHeader(h); err != nil {
			return err
		}
		_, err := tw.Write(data)
		return err
	}
	bin, err := os.ReadFile(o.Kgmcp)
	if err != nil {
		return nil, fmt.Errorf("ociimage: %w", err)
	}
	passwd := fmt.Sprintf("root:x:0:0:root:/:/sbin/nologin\nkgmcp:x:%d:%d:kgmcp:/:/sbin/nologin\n", uid, uid)
	group := fmt.Sprintf("root:x:0:\nkgmcp:x:%d:\n", uid)
	entries := []struct {
		h    tar.Header
		data []byte
	}{
		{tar.Header{Name: "etc/", Typeflag: tar.TypeDir, Mode: 0o755}, nil},
		{tar.Header{Name: "etc/passwd", Typeflag: tar.TypeReg, Mode: 0o444, Size: int64(len(passwd))}, []byte(passwd)},
		{tar.Header{Name: "etc/group", Typeflag: tar.TypeReg, Mode: 0o444, Size: int64(len(group))}, []byte(group)},
		{tar.Header{Name: "kgmcp", Typeflag: tar.TypeReg, Mode: 0o555, Size: int64(len(bin))}, bin},
		{tar.Header{Name: "tmp/", Typeflag: tar.TypeDir, Mode: 0o1777}, nil},
	}
	for _, e := range entries {
		h := e.h
		if err := add(&h, e.data); err != nil {
			return nil, err
		}
	}
	imgs := append([]string(nil), o.Images...)
	sort.Strings(imgs)
	var imgEntries [][2]any
	for _, p := range imgs {
		b, err := os.ReadFile(p)
		if err != nil {
			return nil, fmt.Errorf("ociimage: %w", err)
		}
		imgEntries = append(imgEntries, [2]any{filepath.Base(p), b})
	}
	// The images directory is written after its files so that it can be
	// read-only (0555) even for tools that extract in order as non-root.
	for _, e := range imgEntries {
		name, b := e[0].(string), e[1].([]byte)
		if err := add(&tar.Header{Name: "images/" + name, Typeflag: tar.TypeReg, Mode: 0o444, Size: int64(len(b))}, b); err != nil {
			return nil, err
		}
	}
	if err := add(&tar.Header{Name: "images/", Typeflag: tar.TypeDir, Mode: 0o555}, nil); err != nil {
		return nil, err
	}
	if err := tw.Close(); err != nil {
		return nil, err
	}
	data := buf.Bytes()
	layer, err := tarball.LayerFromOpener(func() (io.ReadCloser, error) { return io.NopCloser(bytes.NewReader(data)), nil },
		tarball.WithMediaType(types.OCILayer))
	if err != nil {
		return nil, err
	}
	img, err := mutate.AppendLayers(mutate.MediaType(empty.Image, types.OCIManifestSchema1), layer)
	if err != nil {
		return nil, err
	}
	img = mutate.ConfigMediaType(img, types.OCIConfigJSON)
	cfg, err := img.ConfigFile()
	if err != nil {
		return nil, err
	}
	cfg = cfg.DeepCopy()
	cfg.OS, cfg.Architecture = o.OS, o.Arch
	cfg.Created = v1.Time{Time: time.Unix(0, 0).UTC()}
	cfg.Config.User = fmt.Sprintf("%d:%d", uid, uid)
	cfg.Config.Entrypoint = []string{binaryPath}
	cfg.Config.Cmd = []string{"--http", fmt.Sprintf("0.0.0.0:%d", port), imagesDir}
	cfg.Config.ExposedPorts = map[string]struct{}{fmt.Sprintf("%d/tcp", port): {}}
	cfg.Config.WorkingDir = "/"
	cfg.Config.Labels = map[string]string{"org.opencontainers.image.title": "kgmcp", "org.opencontainers.image.version": o.Version}
	return mutate.ConfigFile(img, cfg)
}

// WriteLayout writes img as an OCI image layout at dir (replacing it).
func WriteLayout(dir string, img v1.Image) error {
	if err := os.RemoveAll(dir); err != nil {
		return err
	}
	p, err := layout.Write(dir, empty.Index)
	if err != nil {
		return err
	}
	return p.AppendImage(img)
}

// extract writes the image's file system into root (for running it without a
// container engine, in tests).
func extract(img v1.Image, root string) error {
	rc := mutate.Extract(img)
	defer rc.Close()
	tr := tar.NewReader(rc)
	for {
		h, err := tr.Next()
		if err == io.EOF {
			return nil
		}
		if err != nil {
			return err
		}
		p := filepath.Join(root, filepath.Clean("/"+h.Name))
		switch h.Typeflag {
		case tar.TypeDir:
			if err := os.MkdirAll(p, 0o755); err != nil {
				return err
			}
			defer os.Chmod(p, os.FileMode(h.Mode).Perm()|os.FileMode(h.Mode)&os.ModeSticky)
		case tar.TypeReg:
			if err := os.MkdirAll(filepath.Dir(p), 0o755); err != nil {
				return err
			}
			f, err := os.OpenFile(p, os.O_WRONLY|os.O_CREATE|os.O_TRUNC, os.FileMode(h.Mode).Perm())
			if err != nil {
				return err
			}
			_, err = io.Copy(f, tr)
			f.Close()
			if err != nil {
				return err
			}
		}
	}
}
