package diff

import (
	"cmp"
	"slices"
	"strconv"
	"unicode/utf8"

	"github.com/kgc-project/kgc/internal/natural"
)

// An edgeGroup is the added, removed and rescored edges of one kind that
// touch one standard: what a person reads to judge them.
type edgeGroup struct {
	// Head is the standard (nil: ends outside the package only).
	Head  *nodeRef
	Lines []edgeLine
}

// An edgeLine is one edge seen from its group's standard: the mark (+ added,
// - removed, ~ rescored), what relates the two ("from", "buildsTowards ->",
// …), the other end (a node or an external reference) and a note
// (confidence, sequence number).
type edgeLine struct {
	Mark     string
	Verb     string
	Other    *nodeRef
	External *externalRef
	Note     string
}

// groupSupports groups supports edges by their standard (the target).
func groupSupports(added, removed, rescored []graphEdge) []edgeGroup {
	g := grouper{}
	for _, l := range []struct {
		mark string
		list []graphEdge
	}{{"-", removed}, {"+", added}, {"~", rescored}} {
		for k := range l.list {
			e := &l.list[k]
			note := confNote(e.Confidence)
			if l.mark == "~" {
				note = "supportConfidence " + confText(e.OldConfidence) + " -> " + confText(e.Confidence)
			}
			g.add(&e.Target, edgeLine{Mark: l.mark, Verb: "from", Other: &e.Source, Note: note})
		}
	}
	return g.groups()
}

// groupProgressions groups progression edges by their source (relatesTo:
// its first end).
func groupProgressions(added, removed []graphEdge) []edgeGroup {
	g := grouper{}
	for _, l := range []struct {
		mark string
		list []graphEdge
	}{{"-", removed}, {"+", added}} {
		for k := range l.list {
			e := &l.list[k]
			verb := e.Type + " ->"
			if e.Type == "relatesTo" {
				verb = "relatesTo <->"
			}
			g.add(&e.Source, edgeLine{Mark: l.mark, Verb: verb, Other: &e.Target})
		}
	}
	return g.groups()
}

// groupPublisher groups publisher relations by their end inside the package
// (the origin when both are).
func groupPublisher(added, removed []publisherEdge) []edgeGroup {
	g := grouper{}
	for _, l := range []struct {
		mark string
		list []publisherEdge
	}{{"-", removed}, {"+", added}} {
		for k := range l.list {
			e := &l.list[k]
			note := ""
			if e.Sequence != nil {
				note = "sequence " + strconv.FormatInt(*e.Sequence, 10)
			}
			switch {
			case e.Source != nil:
				g.add(e.Source, edgeLine{Mark: l.mark, Verb: e.Type + " ->", Other: e.Target, External: e.TargetExternal, Note: note})
			case e.Target != nil:
				g.add(e.Target, edgeLine{Mark: l.mark, Verb: "<- " + e.Type, External: e.SourceExternal, Note: note})
			default:
				g.add(nil, edgeLine{Mark: l.mark, Verb: e.Type + " ->", External: e.TargetExternal, Note: "from " + extText(e.SourceExternal)})
			}
		}
	}
	return g.groups()
}

// grouper collects edge lines by standard.
type grouper struct {
	byID map[string]int
	list []edgeGroup
}

func (g *grouper) add(head *nodeRef, l edgeLine) {
	key := "\x00"
	if head != nil {
		key = head.ID
	}
	if g.byID == nil {
		g.byID = map[string]int{}
	}
	i, ok := g.byID[key]
	if !ok {
		i = len(g.list)
		g.byID[key] = i
		g.list = append(g.list, edgeGroup{Head: head})
	}
	g.list[i].Lines = append(g.list[i].Lines, l)
}

// groups returns the groups: the framework root first, then by statement
// code in natural order, then by ID; ends outside the package last.
func (g *grouper) groups() []edgeGroup {
	rank := func(h *nodeRef) int {
		switch {
		case h == nil:
			return 2
		case h.Root:
			return 0
		}
		return 1
	}
	slices.SortStableFunc(g.list, func(a, b edgeGroup) int {
		if c := cmp.Compare(rank(a.Head), rank(b.Head)); c != 0 || a.Head == nil || b.Head == nil {
			return c
		}
		if c := natural.Compare(a.Head.Code, b.Head.Code); c != 0 {
			return c
		}
		return cmp.Compare(a.Head.ID, b.Head.ID)
	})
	return g.list
}

func confNote(c *float64) string {
	if c == nil {
		return ""
	}
	return "supportConfidence " + confText(c)
}

func confText(c *float64) string {
	if c == nil {
		return "(none)"
	}
	return strconv.FormatFloat(*c, 'g', -1, 64)
}

// extText names an end outside the package: its title, then its URI or
// identifier.
func extText(e *externalRef) string {
	if e == nil {
		return "(none)"
	}
	where := e.URI
	if where == "" {
		where = e.Identifier
	}
	if e.Title == "" {
		return "outside the package: " + where
	}
	return "outside the package: " + clip(e.Title, 80) + " (" + where + ")"
}

// clip shortens a text to n runes, marking the cut with an ellipsis.
func clip(s string, n int) string {
	if utf8.RuneCountInString(s) <= n {
		return s
	}
	r := []rune(s)
	return string(r[:n-1]) + "…"
}
