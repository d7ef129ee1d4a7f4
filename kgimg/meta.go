package kgimg

import (
	"iter"
	"sort"

	"github.com/kgc-project/kgc/kgimg/kgfb"
	"github.com/kgc-project/kgc/kgimg/manifestfb"
	"github.com/kgc-project/kgc/kgimg/profilefb"
	"github.com/kgc-project/kgc/schema/manifest"
	"github.com/kgc-project/kgc/schema/profile"
)

// Artifact is a view of one artifact the package declares, read in place:
// its strings and bytes alias the image (valid until Close).
type Artifact struct{ a kgfb.Artifact }

// Name returns the artifact's logical name.
func (a Artifact) Name() string { return unsafeString(a.a.Name()) }

// Path returns the artifact's path in the package.
func (a Artifact) Path() string { return unsafeString(a.a.Path()) }

// Sha256 returns the artifact's checksum as the manifest lists it.
func (a Artifact) Sha256() string { return unsafeString(a.a.Sha256()) }

// Size returns the artifact's size in bytes.
func (a Artifact) Size() uint64 { return a.a.Size() }

// Mime returns the artifact's media type.
func (a Artifact) Mime() string { return unsafeString(a.a.Mime()) }

// Exposure returns the artifact's class under the closed exposure policy
// (manifest.ExposeNone when it has no exposure contract).
func (a Artifact) Exposure() manifest.Exposure { return manifest.Exposure(a.a.Exposure()) }

// Embedded reports whether the artifact's bytes are in the image.
func (a Artifact) Embedded() bool { return a.a.Embedded() }

// Bytes returns the artifact's embedded bytes (nil when not embedded).
func (a Artifact) Bytes() []byte { return a.a.BytesBytes() }

// ArtifactCount returns the number of declared artifacts.
func (img *Image) ArtifactCount() int {
	r := img.payloadRoot()
	if r == nil {
		return 0
	}
	return r.ArtifactsLength()
}

// ArtifactAt returns declared artifact i (0 <= i < ArtifactCount), in name order.
func (img *Image) ArtifactAt(i int) Artifact {
	var a Artifact
	img.payloadRoot().Artifacts(&a.a, i)
	return a
}

// Artifacts yields every declared artifact, in name order.
func (img *Image) Artifacts() iter.Seq[Artifact] {
	return func(yield func(Artifact) bool) {
		for i := 0; i < img.ArtifactCount(); i++ {
			if !yield(img.ArtifactAt(i)) {
				return
			}
		}
	}
}

// Artifact returns the declared artifact with this logical name.
func (img *Image) Artifact(name string) (Artifact, bool) {
	var a Artifact
	root := img.payloadRoot()
	if root == nil {
		return Artifact{}, false
	}
	n := root.ArtifactsLength()
	i := sort.Search(n, func(i int) bool {
		root.Artifacts(&a.a, i)
		return string(a.a.Name()) >= name
	})
	if i == n {
		return Artifact{}, false
	}
	root.Artifacts(&a.a, i)
	if string(a.a.Name()) != name {
		return Artifact{}, false
	}
	return a, true
}

// Identity is the image's identity table, copied out of the image.
type Identity struct {
	FrameworkID        string
	SnapshotID         string
	GraphPackageID     string
	GraphType          string
	PackageRevision    uint32
	ProfileID          string
	ProfileVersion     string
	ProfileSha256      string
	ManifestSha256     string
	PromptConfigSha256 string // "" when the package has no prompt config
	Compiler           string
}

// Identity returns the image's identity (copied: it outlives Close).
func (img *Image) Identity() Identity {
	id := img.identityTable()
	if id == nil {
		return Identity{}
	}
	return Identity{
		FrameworkID: string(id.FrameworkId()), SnapshotID: string(id.SnapshotId()),
		GraphPackageID: string(id.GraphPackageId()), GraphType: string(id.GraphType()),
		PackageRevision: id.PackageRevision(), ProfileID: string(id.ProfileId()),
		ProfileVersion: string(id.ProfileVersion()), ProfileSha256: string(id.ProfileSha256()),
		ManifestSha256: string(id.ManifestSha256()), PromptConfigSha256: string(id.PromptConfigSha256()),
		Compiler: string(id.Compiler()),
	}
}

// CompiledProfile is an interpretation profile in its compiled form, read in
// place from the image.
type CompiledProfile struct{ cp *kgfb.CompiledProfile }

// CompiledProfile returns the profile compiled at build time, read in place.
func (img *Image) CompiledProfile() CompiledProfile { return CompiledProfile{img.compiledProfile()} }

// Decode copies the compiled profile into a profile.Profile (see
// profilefb.Decode); the result never points into the image.
func (c CompiledProfile) Decode() *profile.Profile { return profilefb.Decode(c.cp) }

// Targets resolves a facet-normalised key against the profile's names of one
// kind, in place: the indexes of the grade mappings, statement types or
// normalized subjects it names (see profilefb.Targets), nil when none.
func (c CompiledProfile) Targets(kind ProfileKeyKind, key string) []int {
	return profilefb.Targets(c.cp, kgfb.ProfileKeyKind(kind), key)
}

// CompiledManifest returns the manifest compiled at build time, copied into
// a manifest.Manifest (see manifestfb.Decode; nothing is parsed or checked
// again).
func (img *Image) CompiledManifest() *manifest.Manifest {
	return manifestfb.Decode(img.compiledManifest())
}

// ComponentTagCount returns the size of the learning components' tag
// vocabulary (the keys of the tag index).
func (img *Image) ComponentTagCount() int { return img.pv().componentTags.keys.len() }
