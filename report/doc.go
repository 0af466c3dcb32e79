// Package report presents results and never runs a search: it takes what
// the searches, the generator and the benchmarks found and shows it.
//
// A Table is written as text, Markdown, CSV or JSON (Format), the digits
// of its counts grouped in text and Markdown (23,475,688) and plain in
// CSV and JSON. Each command's results have a writer here, in every format
// the command offers, with their JSON shapes beside them: WriteExplore,
// WriteReachable and WriteWinnable, WriteSolve, WriteHint, WriteStarts,
// WriteGrades, WriteLevels, WriteBench, BoardsTable and WriteBoard. The
// level server's own shapes are in package report/serve.
//
// Every number a reader sees goes through one formatting layer: a table
// column's Kind (Count, Seconds, Bytes, Probability, ...) and the Format
// functions it uses, which figures and sentences use too. A table keeps
// each cell plain and in base units (seconds, bytes, a fraction), its CSV
// header naming the unit ("median (s)") and its JSON typed by kind:
// numbers as numbers, booleans as booleans. Meaning says what each column
// holds, for the report's glossary.
//
// It links no plotting library: package report/build draws the figures
// and writes the report's document, and package report/plan tabulates the
// plans of distributed runs.
package report
