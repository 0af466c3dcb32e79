// Package generate makes peg solitaire levels and grades them by how hard
// they are for a person.
//
// # Levels
//
// Generate starts from the goal and plays random jumps backward until a
// level has the pegs asked for, so that every level it makes can be
// solved; it measures each (package search/measure), rejects those a
// random player wins more than half the time, and solves each again
// before output. Pack takes a progression of strictly rising difficulty
// from a larger pool.
//
// # Difficulty
//
// A level's difficulty is the effort of a player who looks just far
// enough ahead to win half of its attempts. Package measure computes the
// foresight f this player needs: how many jumps ahead it must look, read
// between integers. At each of the level's n = pegs − 1 jumps such a
// player weighs the lines of f jumps that follow, about b^f of them where
// b is the level's branching (the mean number of jumps at its positions);
// over a game it weighs about n·b^f lines. The score is the decimal
// logarithm of that count:
//
//	score = log10(n) + f·log10(b)
//
// reported with its two parts, the length part log10(n) and the foresight
// part f·log10(b). The rule has no constant of its own: looking one jump
// further costs a factor b, and twice the jumps cost twice the lines. It
// was chosen before any level was graded with it; nothing in it was
// adjusted to fit a list of levels.
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
// 60th and 80th percentiles of the scores of a large pool of generated
// English levels (calibration.json, with the command that made it, pegs
// generate --calibrate). On a board with more jumps per position the same
// foresight costs more lines, and a grade says so.
package generate
