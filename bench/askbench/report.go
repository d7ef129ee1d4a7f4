package main

import (
	"fmt"
	"io"
	"strconv"
	"strings"
)

// printReport writes the human report: one table row per question and the
// totals, then the missing facts, the calls marked "needed because" and any
// failure. With show, every call and the text it returned come first.
func printReport(w io.Writer, rep *report, show bool) {
	if rep.Status == statusSkip {
		fmt.Fprintf(w, "SKIP: %s\n", rep.Reason)
		return
	}
	if show {
		for _, q := range rep.Questions {
			fmt.Fprintf(w, "## %s (%s) %s\n\n", q.ID, q.Asker, q.Question)
			for i, s := range q.Steps {
				fmt.Fprintf(w, "### %s.%d %s %s\n", q.ID, i+1, s.Tool, s.Arguments)
				if s.Needed != "" {
					fmt.Fprintf(w, "(%s)\n", s.Needed)
				}
				fmt.Fprintf(w, "-- text: %d bytes in %d block(s); structured %d bytes; %d other block(s) --\n%s\n", s.TextBytes, s.TextBlocks, s.StructuredBytes, s.OtherBlocks, s.Text)
				if s.Error != "" {
					fmt.Fprintf(w, "ERROR: %s\n", s.Error)
				}
				fmt.Fprintln(w)
			}
		}
	}
	flags := ""
	if len(rep.KgmcpFlags) > 0 {
		flags = ", kgmcp " + strings.Join(rep.KgmcpFlags, " ")
	}
	fmt.Fprintf(w, "askbench: %d questions over %d corpus images (kgmcp over stdio, protocol %s%s); the model reads text blocks only\n",
		len(rep.Questions), len(rep.Images), rep.ProtocolVersion, flags)
	fmt.Fprintf(w, "tool list shown to the model: %d tools, %s bytes (name, title, description, inputSchema; compact JSON)\n\n", rep.ToolCount, thousands(rep.ToolListBytes))
	fmt.Fprintln(w, "| question | asker | calls | text bytes | structured bytes | facts |")
	fmt.Fprintln(w, "|---|---|---|---|---|---|")
	for _, q := range rep.Questions {
		fmt.Fprintf(w, "| %s %s | %s | %d | %s | %s | %d/%d |\n", q.ID, cut(q.Question, 60), q.Asker, q.Calls, thousands(q.TextBytes), thousands(q.StructuredBytes), q.FactsFound, q.FactsRequired)
	}
	t := rep.Totals
	fmt.Fprintf(w, "| **total** | | %d | %s | %s | %d/%d |\n\n", t.Calls, thousands(t.TextBytes), thousands(t.StructuredBytes), t.FactsFound, t.FactsRequired)

	fmt.Fprintln(w, "Facts missing from the text:")
	none := true
	for _, q := range rep.Questions {
		for _, f := range q.MissingFacts {
			fmt.Fprintf(w, "- %s: %s\n", q.ID, f)
			none = false
		}
	}
	if none {
		fmt.Fprintln(w, "- none")
	}
	fmt.Fprintf(w, "\nCalls marked \"needed because\" (%d of %d):\n", t.NeededBecause, t.Calls)
	for _, q := range rep.Questions {
		for i, s := range q.Steps {
			if s.Needed != "" {
				fmt.Fprintf(w, "- %s.%d %s: %s\n", q.ID, i+1, s.Tool, s.Needed)
			}
		}
	}
	if t.Failures > 0 {
		fmt.Fprintf(w, "\nFailures (%d):\n", t.Failures)
		for _, q := range rep.Questions {
			for _, f := range q.Failures {
				fmt.Fprintf(w, "- %s %s\n", q.ID, f)
			}
		}
	}
}

// thousands formats n with commas: 490,123.
func thousands(n int) string {
	s := strconv.Itoa(n)
	for i := len(s) - 3; i > 0 && s[i-1] != '-'; i -= 3 {
		s = s[:i] + "," + s[i:]
	}
	return s
}

// cut shortens s to at most n runes, marking the cut with an ellipsis.
func cut(s string, n int) string {
	r := []rune(s)
	if len(r) <= n {
		return s
	}
	return string(r[:n-1]) + "…"
}
