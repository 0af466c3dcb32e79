// Package build writes the report: it runs the searches behind each of its
// sections (boards, solvable starts, state-space profiles, generated levels
// and solver performance), benchmarks the solvers, and assembles what they
// find into a Document of tables, figures and level pictures, saved
// as index.md and index.html with figures/ and data/ beside them.
//
// The document opens with its findings, sentences computed from what the
// searches found; each section opens with one line on what it shows; levels
// are shown as cards (Card: picture, grade, explanation and facts) rather
// than wide tables, whose every measure stays in data/; a glossary closes
// it, with the meaning of every column (report.Meaning). The solver section
// gives medians with 95% intervals and benchstat's "~" (report.BenchTable),
// and with Options.Compare sets them against an earlier report's.
//
// Report is the whole of it; Options choose the quick or full plan.
// The document (Document, Section, Item), its figures (gonum plots saved
// as SVG and PNG, the only ones in pegs) and its level pictures are made
// here; the tables and their formats are package report's.
package build
