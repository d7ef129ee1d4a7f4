package kgimg

// Presence bits of Nodes.present, in the delivery property order the schema
// documents (a test checks them against compiler/delivery).
const (
	PAcademicSubject uint = iota
	PAdoptionStatus
	PAttributionStatement
	PAuthor
	PCaseIdentifierURI
	PCaseIdentifierUUID
	PDescription
	PGradeLevel
	PIdentifier
	PIdentityKey
	PInLanguage
	PIsCurrent
	PJurisdiction
	PLicense
	PName
	PNormalizedStatementType
	PProvider
	PStatementCode
	PStatementType
	PTags
	PListEnumeration // added after the alphabetical list
)

// Presence bits of Relationships.present.
const (
	RPAttributionStatement uint = iota
	RPAuthor
	RPDescription
	RPIdentifier
	RPLicense
	RPProvider
	RPRelationshipType
	RPResolutionStatus
	RPSourceEntity
	RPSourceEntityKey
	RPSourceEntityValue
	RPSupportConfidence
	RPTargetEntity
	RPTargetEntityKey
	RPTargetEntityValue
	RPSequenceNumber // added after the alphabetical list
)

// NodeHas reports whether node n had delivery property bit p.
func (img *Image) NodeHas(n uint32, p uint) bool { return img.NodePresent(n)&(1<<p) != 0 }

// RelHas reports whether relationship r had delivery property bit p.
func (img *Image) RelHas(r uint32, p uint) bool { return img.RelPresent(r)&(1<<p) != 0 }
