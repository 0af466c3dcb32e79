// Package build writes the report: it runs the searches behind each of its
// sections (boards, solvable starts, state-space profiles, generated levels
// and solver performance), benchmarks the solvers, and assembles what they
// find into a report.Document of tables, figures and level pictures, saved
// as index.md and index.html with figures/ and data/ beside them.
//
// Report is the whole of it; Options choose the quick or full plan.
// Package report draws and writes; this package decides what is searched
// and shown.
package build
