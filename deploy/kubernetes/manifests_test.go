// Package kubernetes holds kgmcp's Kubernetes manifests (a kustomize base in
// base/) and the test that decodes them strictly into the upstream API types.
// It is its own module so that the main module does not depend on them.
package kubernetes

import (
	"bytes"
	"encoding/json"
	"os"
	"path/filepath"
	"sort"
	"strings"
	"testing"

	appsv1 "k8s.io/api/apps/v1"
	autoscalingv2 "k8s.io/api/autoscaling/v2"
	corev1 "k8s.io/api/core/v1"
	policyv1 "k8s.io/api/policy/v1"
	"sigs.k8s.io/yaml"
)

// strict decodes a YAML manifest into v, refusing unknown fields.
func strict(t *testing.T, file string, v any) {
	t.Helper()
	if !strings.Contains(file, "/") {
		file = filepath.Join("base", file)
	}
	b, err := os.ReadFile(file)
	if err != nil {
		t.Fatal(err)
	}
	j, err := yaml.YAMLToJSON(b)
	if err != nil {
		t.Fatalf("%s: %v", file, err)
	}
	dec := json.NewDecoder(bytes.NewReader(j))
	dec.DisallowUnknownFields()
	if err := dec.Decode(v); err != nil {
		t.Fatalf("%s does not decode strictly: %v", file, err)
	}
}

// kustomization is the part of kustomize's Kustomization the base uses.
type kustomization struct {
	APIVersion string   `json:"apiVersion"`
	Kind       string   `json:"kind"`
	Resources  []string `json:"resources"`
	Labels     []struct {
		Pairs map[string]string `json:"pairs"`
	} `json:"labels"`
	Images []struct {
		Name, NewName, NewTag string
	} `json:"images"`
}

func TestManifests(t *testing.T) {
	var k kustomization
	strict(t, "kustomization.yaml", &k)
	files, _ := filepath.Glob(filepath.Join("base", "*.yaml"))
	var want []string
	for _, f := range files {
		if filepath.Base(f) != "kustomization.yaml" {
			want = append(want, filepath.Base(f))
		}
	}
	got := append([]string(nil), k.Resources...)
	sort.Strings(got)
	sort.Strings(want)
	if k.Kind != "Kustomization" || len(got) != len(want) {
		t.Fatalf("kustomization lists %v, the base holds %v", got, want)
	}
	for i := range got {
		if got[i] != want[i] {
			t.Fatalf("kustomization lists %v, the base holds %v", got, want)
		}
	}

	var d appsv1.Deployment
	strict(t, "deployment.yaml", &d)
	if d.Kind != "Deployment" || d.Spec.Replicas == nil || *d.Spec.Replicas < 2 {
		t.Errorf("deployment: %s with %v replicas", d.Kind, d.Spec.Replicas)
	}
	labels := d.Spec.Template.Labels
	for k, v := range d.Spec.Selector.MatchLabels {
		if labels[k] != v {
			t.Errorf("the selector %s=%s does not match the pod labels", k, v)
		}
	}
	pod := d.Spec.Template.Spec
	if psc := pod.SecurityContext; psc == nil || psc.RunAsNonRoot == nil || !*psc.RunAsNonRoot || psc.RunAsUser == nil || *psc.RunAsUser != 65532 {
		t.Error("the pod does not run as the image's non-root user 65532")
	}
	if len(pod.Containers) != 1 {
		t.Fatalf("%d containers", len(pod.Containers))
	}
	c := pod.Containers[0]
	sc := c.SecurityContext
	if sc == nil || sc.ReadOnlyRootFilesystem == nil || !*sc.ReadOnlyRootFilesystem || sc.AllowPrivilegeEscalation == nil || *sc.AllowPrivilegeEscalation {
		t.Error("the container's root file system is not read-only, or privilege escalation is allowed")
	}
	if len(c.Ports) != 1 || c.Ports[0].ContainerPort != 8080 || c.Ports[0].Name != "http" {
		t.Errorf("ports %+v (the image serves 8080)", c.Ports)
	}
	for name, p := range map[string]*corev1.Probe{"startup": c.StartupProbe, "readiness": c.ReadinessProbe, "liveness": c.LivenessProbe} {
		if p == nil || p.HTTPGet == nil || p.HTTPGet.Path != "/health" || p.HTTPGet.Port.String() != "http" {
			t.Errorf("%s probe %+v: want GET /health on http", name, p)
		}
	}
	if c.Resources.Requests.Cpu().IsZero() || c.Resources.Requests.Memory().IsZero() || c.Resources.Limits.Memory().IsZero() {
		t.Errorf("resources %+v: want cpu and memory requests and a memory limit", c.Resources)
	}

	var s corev1.Service
	strict(t, "service.yaml", &s)
	for k, v := range s.Spec.Selector {
		if labels[k] != v {
			t.Errorf("the service selector %s=%s does not match the pods", k, v)
		}
	}
	if len(s.Spec.Ports) != 1 || s.Spec.Ports[0].TargetPort.String() != "http" {
		t.Errorf("service ports %+v", s.Spec.Ports)
	}

	var pdb policyv1.PodDisruptionBudget
	strict(t, "pdb.yaml", &pdb)
	if pdb.Spec.MinAvailable == nil || pdb.Spec.MinAvailable.IntValue() < 1 {
		t.Error("the disruption budget keeps no pod available")
	}
	for k, v := range pdb.Spec.Selector.MatchLabels {
		if labels[k] != v {
			t.Errorf("the budget's selector %s=%s does not match the pods", k, v)
		}
	}

	var h autoscalingv2.HorizontalPodAutoscaler
	strict(t, "hpa.yaml", &h)
	if h.Spec.ScaleTargetRef.Kind != "Deployment" || h.Spec.ScaleTargetRef.Name != d.Name {
		t.Errorf("the autoscaler targets %+v", h.Spec.ScaleTargetRef)
	}
	if len(h.Spec.Metrics) != 1 || h.Spec.Metrics[0].Resource == nil || h.Spec.Metrics[0].Resource.Name != corev1.ResourceCPU {
		t.Errorf("the autoscaler does not scale on CPU: %+v", h.Spec.Metrics)
	}
	if h.Spec.MinReplicas == nil || *h.Spec.MinReplicas < 2 {
		t.Error("the autoscaler may scale below two replicas")
	}
}

// A manifest with a misspelt field is refused (the strict decoding works).
func TestStrictDecodingRefusesUnknownFields(t *testing.T) {
	j, _ := yaml.YAMLToJSON([]byte("apiVersion: v1\nkind: Service\nmetadata:\n  name: x\nspec:\n  selectr: {}\n"))
	dec := json.NewDecoder(bytes.NewReader(j))
	dec.DisallowUnknownFields()
	var s corev1.Service
	if err := dec.Decode(&s); err == nil {
		t.Error("an unknown field was accepted")
	}
}

// The secured overlay patches the base's Deployment with the key file from a
// Secret, metrics and an audit log, and scrape annotations; it decodes
// strictly, names the base, and its container is the base's.
func TestSecuredOverlay(t *testing.T) {
	var k struct {
		APIVersion string   `json:"apiVersion"`
		Kind       string   `json:"kind"`
		Resources  []string `json:"resources"`
		Patches    []struct {
			Path string `json:"path"`
		} `json:"patches"`
	}
	strict(t, "secured/kustomization.yaml", &k)
	if k.Kind != "Kustomization" || len(k.Resources) != 1 || k.Resources[0] != "../base" || len(k.Patches) != 1 {
		t.Fatalf("the overlay: %+v", k)
	}
	var d appsv1.Deployment
	strict(t, filepath.Join("secured", k.Patches[0].Path), &d)
	var base appsv1.Deployment
	strict(t, "deployment.yaml", &base)
	if d.Name != base.Name || len(d.Spec.Template.Spec.Containers) != 1 || d.Spec.Template.Spec.Containers[0].Name != base.Spec.Template.Spec.Containers[0].Name {
		t.Fatal("the patch does not name the base's Deployment and container")
	}
	c := d.Spec.Template.Spec.Containers[0]
	args := strings.Join(c.Args, " ")
	for _, want := range []string{"--http 0.0.0.0:8080", "--api-key-file /etc/kgmcp/keys/keys", "--metrics-listen 0.0.0.0:9090", "--audit", "/images"} {
		if !strings.Contains(args, want) {
			t.Errorf("args %q lack %q", args, want)
		}
	}
	if len(c.VolumeMounts) != 1 || c.VolumeMounts[0].MountPath != "/etc/kgmcp/keys" || !c.VolumeMounts[0].ReadOnly {
		t.Errorf("mounts %+v", c.VolumeMounts)
	}
	v := d.Spec.Template.Spec.Volumes
	if len(v) != 1 || v[0].Name != c.VolumeMounts[0].Name || v[0].Secret == nil || v[0].Secret.SecretName != "kgmcp-api-keys" {
		t.Errorf("volumes %+v", v)
	}
	if a := d.Spec.Template.Annotations; a["prometheus.io/scrape"] != "true" || a["prometheus.io/path"] != "/metrics" || a["prometheus.io/port"] != "9090" {
		t.Errorf("annotations %v", a)
	}
	// The metrics port is the pod's, not the Service's: the public reaches /mcp only.
	if len(c.Ports) != 1 || c.Ports[0].Name != "metrics" || c.Ports[0].ContainerPort != 9090 {
		t.Errorf("ports %+v", c.Ports)
	}
	var svc corev1.Service
	strict(t, "service.yaml", &svc)
	for _, p := range svc.Spec.Ports {
		if p.TargetPort.String() != "http" {
			t.Errorf("the Service exposes %s", p.TargetPort.String())
		}
	}
}
