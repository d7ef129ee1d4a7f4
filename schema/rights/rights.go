// Package rights decodes the RightsPolicy shared by manifests and profiles
// (docs/reference/package-format.md) and answers the resource gates built on it
// (docs/reference/resources.md).
package rights

import (
	"net/url"
	"slices"
	"strings"

	"github.com/kgc-project/kgc/internal/jsonv"
)

// Review states, derivative policies.
const (
	reviewApproved            = "approved"
	reviewProvisionalApproved = "provisional_operator_approved"
	DerivativesAllowed        = "allowed"
	DerivativesProhibited     = "prohibited"
	DerivativesReviewRequired = "review_required"
)

var reviewStates = []string{"approved", "provisional_operator_approved", "restricted", "review_required", "unreviewed"}

// Policy is a RightsPolicy.
type Policy struct {
	SourceLicense             string  `json:"sourceLicense"`
	LicenseURI                *string `json:"licenseUri"`
	AttributionStatement      string  `json:"attributionStatement"`
	ReviewStatus              string  `json:"reviewStatus"`
	AllowStandardResources    bool    `json:"allowStandardResources"`
	AllowFullText             bool    `json:"allowFullText"`
	AllowBulkResource         bool    `json:"allowBulkResource"`
	AllowGeneratedDerivatives string  `json:"allowGeneratedDerivatives"`
}

// Decode reads a RightsPolicy object, recording every problem.
func Decode(o *jsonv.Obj) Policy {
	var p Policy
	if s, ok := o.Str("sourceLicense", true); ok {
		if strings.TrimSpace(s) == "" {
			o.Invalid("sourceLicense", "%s must not be blank", jsonv.Join(o.Path, "sourceLicense"))
		}
		p.SourceLicense = s
	}
	if s, present, isNull := o.NullStr("licenseUri", false); present && !isNull {
		if u, err := url.Parse(s); err != nil || u.Scheme == "" || u.Host == "" {
			o.Invalid("licenseUri", "%s must be an absolute URL", jsonv.Join(o.Path, "licenseUri"))
		}
		p.LicenseURI = &s
	}
	if s, ok := o.Str("attributionStatement", true); ok {
		if strings.TrimSpace(s) == "" {
			o.Invalid("attributionStatement", "%s must not be blank", jsonv.Join(o.Path, "attributionStatement"))
		}
		p.AttributionStatement = s
	}
	if s, ok := o.Str("reviewStatus", true); ok {
		if !slices.Contains(reviewStates, s) {
			o.Invalid("reviewStatus", "%s must be one of %s", jsonv.Join(o.Path, "reviewStatus"), strings.Join(reviewStates, ", "))
		}
		p.ReviewStatus = s
	}
	p.AllowStandardResources, _ = o.Bool("allowStandardResources", false)
	p.AllowFullText, _ = o.Bool("allowFullText", false)
	p.AllowBulkResource, _ = o.Bool("allowBulkResource", false)
	p.AllowGeneratedDerivatives = DerivativesReviewRequired
	if s, ok := o.Str("allowGeneratedDerivatives", false); ok {
		if s != DerivativesAllowed && s != DerivativesProhibited && s != DerivativesReviewRequired {
			o.Invalid("allowGeneratedDerivatives", "%s must be allowed, prohibited or review_required", jsonv.Join(o.Path, "allowGeneratedDerivatives"))
		}
		p.AllowGeneratedDerivatives = s
	}
	o.Done()
	return p
}

// Reviewed reports whether the review state passes a rights gate.
func (p Policy) Reviewed() bool {
	return p.ReviewStatus == reviewApproved || p.ReviewStatus == reviewProvisionalApproved
}

// Differences lists the fields in which two policies disagree (a null or absent
// licenseUri equals another null or absent one).
func (p Policy) Differences(q Policy) []string {
	var out []string
	if p.SourceLicense != q.SourceLicense {
		out = append(out, "sourceLicense")
	}
	if (p.LicenseURI == nil) != (q.LicenseURI == nil) || (p.LicenseURI != nil && *p.LicenseURI != *q.LicenseURI) {
		out = append(out, "licenseUri")
	}
	if p.AttributionStatement != q.AttributionStatement {
		out = append(out, "attributionStatement")
	}
	if p.ReviewStatus != q.ReviewStatus {
		out = append(out, "reviewStatus")
	}
	if p.AllowStandardResources != q.AllowStandardResources {
		out = append(out, "allowStandardResources")
	}
	if p.AllowFullText != q.AllowFullText {
		out = append(out, "allowFullText")
	}
	if p.AllowBulkResource != q.AllowBulkResource {
		out = append(out, "allowBulkResource")
	}
	if p.AllowGeneratedDerivatives != q.AllowGeneratedDerivatives {
		out = append(out, "allowGeneratedDerivatives")
	}
	return out
}
