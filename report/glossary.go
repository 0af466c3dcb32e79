package report

// glossary says what each column of the report's tables holds, by its
// header; the report's glossary lists it, and Meaning looks it up.
var glossary = map[string]string{
	// Boards and state spaces.
	"board":            "The board, by the name commands take (`english`, `triangle:6`).",
	"holes":            "Holes on the board.",
	"jumps":            "Distinct jumps the board allows, each a peg jumping over a neighbour into an empty hole.",
	"symmetries":       "Rotations and reflections that map the board onto itself.",
	"position classes": "Classes of positions no jump leaves (the de Bruijn classes): a start and a goal in different classes cannot be joined.",
	"classic start":    "The start searched: the full board less one hole.",
	"goal":             "What a win is: one peg in a given hole (`center`), or one peg anywhere (`any`).",
	"reachable":        "Positions that some sequence of jumps reaches from the start, counted once for each set of positions symmetric to each other.",
	"reachable raw":    "Reachable positions counting every symmetric image apart.",
	"can reach goal":   "Reachable positions from which the goal can still be met.",
	"winnable":         "Positions, up to symmetry, from which the goal can still be met.",
	"dead ends":        "Positions, up to symmetry, in which no jump is left.",
	"solutions":        "Sequences of jumps from the start to the goal: different orders count as different solutions.",
	"complete games":   "Sequences of jumps from the start until no jump is left, won or lost.",
	"random-play win":  "The chance that a player choosing each jump at random among the legal ones meets the goal.",
	"pegs":             "Pegs on the board.",
	// Starts.
	"start":                   "The hole left empty at the start; it stands for its class.",
	"class":                   "The holes symmetric to the start's: vacating any of them gives the same counts.",
	"finishes":                "Where the last peg can end, with the solutions to each hole (`each`) or to a group of symmetric holes together (`together`).",
	"finish in start hole":    "Solutions whose last peg ends in the hole that was empty at the start.",
	"solvable finishes":       "Holes where one peg can end, each found by the depth-first solver and its solution replayed.",
	"feasible but unsolvable": "Holes the position classes allow for the last peg but that no solution reaches.",
	"undecided":               "Holes the solver could not decide within its budget.",
	"class-feasible finishes": "Holes the position classes allow for the last peg, an upper bound on where one peg can end (not searched).",
	// Levels.
	"level":            "The level, by name or by its place in the list.",
	"win share":        "The share of the level's reachable positions from which it can still be won.",
	"games":            "Complete games from the level's start, won or lost.",
	"P0":               "The chance that a player jumping at random wins an attempt.",
	"P1":               "The chance that a player who never makes a jump that loses at once wins an attempt.",
	"J1":               "The jumps that player expects to make, over all its attempts, before it wins.",
	"critical":         "Positions on that player's likeliest winning line at which some jump loses.",
	"unique first":     "Whether exactly one first jump keeps the level winnable.",
	"par":              "The fewest moves of a solution (a move is a chain of jumps by one peg).",
	"branching":        "The mean number of jumps open at the level's positions that have one.",
	"foresight needed": "The look-ahead, in jumps, at which a player wins half its attempts.",
	"length part":      "Log10 of the jumps of a solution (pegs − 1): the length's share of the score.",
	"foresight part":   "The foresight needed times log10 of the branching: the foresight's share of the score.",
	"score":            "The level's difficulty: log10 of the lines a player weighs to win, the length part plus the foresight part.",
	"grade":            "The score on the common scale of 1 (easiest) to 5, cut at the percentiles of a generated pool.",
	"explanation":      "What the grade means for a player.",
	// Solver performance.
	"problem":       "The benchmark problem: a classic level.",
	"strategy":      "The solver strategy (see `pegs bench --help`).",
	"workers":       "Goroutines the strategy ran on.",
	"solvable":      "The strategy's answer: whether the problem can be solved (all strategies agree).",
	"median":        "The median wall time of the timed runs.",
	"low":           "The low end of the median's 95% confidence interval (benchstat's, with no assumption on the distribution of times).",
	"high":          "The high end of the median's 95% confidence interval.",
	"runs":          "Timed runs, after one warm-up run.",
	"relative":      "The median over the fastest strategy's median on the same problem.",
	"vs fastest":    "The change from the fastest strategy's median, with the p-value and runs of a Mann-Whitney U-test: `~` where the two cannot be told apart (p > 0.05).",
	"vs 1 worker":   "The change from the same strategy's median on one worker, as `vs fastest`.",
	"positions":     "Positions the strategy visited.",
	"positions/s":   "Positions visited per second, at the median time.",
	"allocs/op":     "Heap allocations per run.",
	"bytes/op":      "Bytes allocated per run.",
	"median before": "The median of the earlier report's timed runs (`pegs report --compare`).",
	"median now":    "The median of this run's timed runs.",
	"change":        "The change from the earlier median, with the p-value and runs of a Mann-Whitney U-test: `~` where the two runs cannot be told apart (p > 0.05).",
	"speed-up":      "The median on one worker over the median on this many.",
	"efficiency":    "The speed-up over the workers: 100% is a perfect split of the work. Above 100% only where the medians' intervals show it, not from noise.",
}

// Meaning returns what the column headed h holds, in a sentence, or ""
// if the glossary lacks it.
func Meaning(h string) string { return glossary[h] }
