// Package generate makes peg solitaire levels and grades them by how hard
// they are for a person.
//
// # Levels
//
// Generate draws candidate layouts of the shape asked for (below), keeps
// those that solve to the goal, measures each (package search/measure),
// rejects those a random player wins more than half the time, and solves
// each again before output. Pack takes a progression of strictly rising
// difficulty from a larger pool.
//
// # Shapes
//
// Levels that people design (the seven classic English levels, Cross to
// Full) are one group of pegs, symmetric and compact; what is left of a
// random game is none of these. So by default (ShapeDesigned) Generate
// grows its layouts: from a random hole it adds, one at a time, holes
// next to the layout (along the board's jump directions), choosing among
// them with a weight proportional to their links to the layout, so that
// the layout stays one group and fills in rather than straggles. For a
// symmetric layout (four candidates in five) it draws a symmetry σ of the
// board that keeps the goal's hole in place and adds whole orbits of σ,
// so that σ maps the layout onto itself; a symmetric layout that cannot
// reach the peg count, and one in five candidates, grow with no symmetry,
// so that small boards and sizes with few symmetric levels still get
// levels. A layout that the position classes rule out for the goal is
// drawn again.
//
// Growing forward rather than playing backward from the goal is what makes
// the shapes possible: reverse play (ShapeAny, the shape of earlier
// versions) keeps a level solvable by construction, but an un-jump off a
// mirror's axis and its image both need the same peg, so it almost never
// leaves a symmetric layout, and its layouts fall apart into groups (in a
// pool of 1,000 English levels, 7% were one group and 1% symmetric). A
// grown layout is instead solved before it is measured, which costs far
// less than measuring it. Compact layouts repeat more often than
// scattered ones, so Generate records each candidate layout (up to the
// symmetries that keep the goal in place) and measures a layout only once,
// whatever the number of workers.
//
// ShapeConnected grows with no symmetry; ShapeSymmetric draws whole orbits
// of a symmetry at random, in as many groups as they fall into.
//
// # Design
//
// Each level reports what a designer looks at (Design, in its metrics):
// its groups of pegs, pegs being connected when they are neighbours along
// a jump direction; its symmetry, the subgroup of the board's symmetries
// that maps it onto itself, named by SymmetryName (none, mirror, two
// mirrors, half turn, quarter turn, full, ...); its compactness, the share
// of its pegs' neighbouring holes that hold pegs (2 × neighbouring peg
// pairs ÷ the sum over pegs of their neighbouring holes; 0 when no two
// pegs touch, 0.44 for Plus, 0.76 for Fireplace); and whether exactly one
// first jump keeps it winnable (Metrics.UniqueFirst), which George Bell
// names a mark of a designed problem.
//
// # Difficulty
//
// A level's difficulty is the effort of a player who looks just far
// enough ahead to win half of its attempts. Package measure computes the
// foresight f this player needs: how many jumps ahead it must look, read
// between integers. At each of the level's n = pegs − 1 jumps such a
// player weighs the lines of f jumps that follow, about b^f of them where
// b is the board's branching (Branching: its jumps over the holes a jump
// starts from, 76/33 ≈ 2.30 on the English board); over a game it weighs
// about n·b^f lines. The score is the decimal logarithm of that count:
//
//	score = log10(n) + f·log10(b)
//
// reported with its two parts, the length part log10(n) and the foresight
// part f·log10(b). The rule has no constant of its own: looking one jump
// further costs a factor b, and twice the jumps cost twice the lines.
//
// The branching is the board's, not the level's own (Metrics.Branching,
// the mean number of jumps at its positions, still reported): with the
// level's own, a level that every look-ahead player wins more often than
// another of its size could score higher for having more jumps to choose
// from, and did for one pair in ten of an English pool. With the board's,
// levels of one board and size score in the order of the foresight they
// need, and a level that dominates another (W_k at least as high for
// every k, so f no higher) never scores, grades or ranks above it.
//
// Each level also carries an explanation a person can check, such as "a
// player who looks 3 jumps ahead wins 62% of tries; one who looks 2
// ahead, 38%": the win probabilities on either side of the foresight
// needed.
//
// # Grades
//
// The score counts lines, whatever the board, so one scale grades levels
// on every board, custom boards drawn in a file included: no board needs
// cut points of its own. Grades 1 to 5 split the scale at the 20th, 40th,
// 60th and 80th percentiles of the scores of a pool of generated English
// levels (calibration.json, with the command that made it, pegs generate
// --calibrate), drawn with a seed that no default run and no test uses, so
// that a test of the grades on a pool of its own is out of sample. On a
// board with more jumps per hole the same foresight costs more lines, and
// a grade says so. A board too small for long levels has no level of the
// top grades: on the 15-hole triangle a level has at most 13 pegs, and its
// grades say how it compares with English levels, not with its own
// board's.
//
// # Grading a level
//
// Grade measures a level (measure.LevelIf) and solves it (search.Solve,
// depth first, whose solution a Level shows). It starts the solve, on a
// goroutine of its own, once every measure but the par is known (LevelIf's
// keep), so that it runs beside the par's search, which leaves a core
// waiting now and then (its smallest levels, its levels' ends), rather
// than after it on one goroutine while the other waits: on the English
// Full level the solve, most of it building the depth-first search's
// endgame tables, took 25-59 ms after the par (traces of pegs grade, see
// package search/measure, "The tail"). Started with the measures, it held
// its tables through their widest layers: 278-283 MB of RSS against
// 275-277. A level the measures find unsolvable is not solved; Generate
// solves a level it drew by its shape once, not again once measured.
//
// The grade
//
//	pegs grade --board english --position oooooooooooooooo.oooooooooooooooo --format csv
//
// under /usr/bin/time, alternated with the base's (6e7823c), seven pairs
// at load 5.4-6.7 on 2 cores: 6.7-17.3 s against 10.0-19.1 s, ratios
// 0.68-1.12 (median 0.90), within the noise of such a load (the solve
// took 25 ms of wall in a quieter minute's trace, about 0.5 % of a 4.6 s
// grade); 7.6-11.0 s of user CPU against 8.2-11.1; 271-276 MB of RSS
// against 271-278; the same CSV.
//
// # Rank within a size
//
// The size of a level sets most of its score, so a grade says little
// between two levels of 12 pegs. Rank does: the share of the calibration
// pool's levels of the same board, goal and peg count that need less
// foresight ("harder than 85% of 12-peg levels"). calibration.json keeps
// the foresight each of the pool's levels needs, by peg count, for it;
// levels of other boards and goals have no rank. Among levels of one size
// Harder orders by the look-ahead curve: by the foresight needed, then by
// W_k from the random player up.
package generate
