package fbkit

import (
	flatbuffers "github.com/google/flatbuffers/go"

	"github.com/kgc-project/kgc/kgimg/kgfb"
	"github.com/kgc-project/kgc/schema/rights"
)

// Rights writes a rights policy as a RightsPolicy table.
func (w Builder) Rights(r *rights.Policy) flatbuffers.UOffsetT {
	lic, licURI, attr, review, deriv := w.Str(r.SourceLicense), w.OptStr(r.LicenseURI), w.Str(r.AttributionStatement), w.Str(r.ReviewStatus), w.Str(r.AllowGeneratedDerivatives)
	b := w.B
	kgfb.RightsPolicyStart(b)
	kgfb.RightsPolicyAddSourceLicense(b, lic)
	kgfb.RightsPolicyAddLicenseUri(b, licURI)
	kgfb.RightsPolicyAddAttributionStatement(b, attr)
	kgfb.RightsPolicyAddReviewStatus(b, review)
	kgfb.RightsPolicyAddAllowStandardResources(b, r.AllowStandardResources)
	kgfb.RightsPolicyAddAllowFullText(b, r.AllowFullText)
	kgfb.RightsPolicyAddAllowBulkResource(b, r.AllowBulkResource)
	kgfb.RightsPolicyAddAllowGeneratedDerivatives(b, deriv)
	return kgfb.RightsPolicyEnd(b)
}

// Rights copies a RightsPolicy table out (the zero policy when absent).
func Rights(r *kgfb.RightsPolicy) rights.Policy {
	if r == nil {
		return rights.Policy{}
	}
	return rights.Policy{
		SourceLicense:             string(r.SourceLicense()),
		LicenseURI:                OptStr(r.LicenseUri()),
		AttributionStatement:      string(r.AttributionStatement()),
		ReviewStatus:              string(r.ReviewStatus()),
		AllowStandardResources:    r.AllowStandardResources(),
		AllowFullText:             r.AllowFullText(),
		AllowBulkResource:         r.AllowBulkResource(),
		AllowGeneratedDerivatives: string(r.AllowGeneratedDerivatives()),
	}
}

// Rights is Rights, copying into the arena.
func (a *Arena) Rights(r *kgfb.RightsPolicy) rights.Policy {
	if r == nil {
		return rights.Policy{}
	}
	return rights.Policy{
		SourceLicense:             a.Str(r.SourceLicense()),
		LicenseURI:                a.OptStr(r.LicenseUri()),
		AttributionStatement:      a.Str(r.AttributionStatement()),
		ReviewStatus:              a.Str(r.ReviewStatus()),
		AllowStandardResources:    r.AllowStandardResources(),
		AllowFullText:             r.AllowFullText(),
		AllowBulkResource:         r.AllowBulkResource(),
		AllowGeneratedDerivatives: a.Str(r.AllowGeneratedDerivatives()),
	}
}
