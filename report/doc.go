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
// Figures are gonum plots (ProfilePlot, BoardMap, ScoreByPegs, ForesightPlot,
// StrategyTimes, ...) saved as SVG and PNG, and SavePicture draws a
// position as a level picture. A Document of sections, tables and figures
// is written as Markdown and HTML. Package report/build runs the searches
// and assembles the whole report.
package report
