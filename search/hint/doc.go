// Package hint answers a game's hints: the next good jump, what is still
// possible, and how many jumps to take back.
//
// # What a hint says
//
// A hint (Advisor.Hint) asks of a position, in turn, whether the goal can
// still be met, whether one peg anywhere can, and what the fewest pegs
// still reachable are, and gives a jump that keeps the best of these: one
// peg at the goal hole (GoalPossible), else one peg elsewhere (OnePegOnly),
// else the fewest pegs (FewestOnly), whose jump leads to a position that
// can still end with that many. "Dead end" (DeadEnd) is left for a
// position with no jump at all. With the game's history, it also counts
// the jumps to take back to a position from which the goal is possible
// again.
//
// # Oracles
//
// An Oracle holds a level's winnable positions (and for a goal hole those
// that can end with one peg anywhere), per peg count as sorted
// combinatorial ranks of canonical positions, so that each question is a
// binary search; Oracle.AddFewest adds the fewest pegs of the level's dead
// ends of many pegs. Oracles are built from the exhaustive searches of
// package search, and written to and loaded from compact files.
//
// # Oracle files
//
// Oracle.Write stores an oracle in a file that LoadOracle trusts only once
// every byte checks out. It begins with five text lines, so that head(1)
// tells what it is: "PEGS-ORACLE 4", the board's name, its holes, the
// level's start as a picture and the goal. A binary header follows (every
// integer little-endian):
//
//	0   8  the file's length in bytes
//	8   8  the payload's length
//	16  4  the payload bytes of a block (the last may hold fewer)
//	20  8  XXH64 of the text lines and bytes 0-19
//
// then the payload in blocks, each its bytes and the XXH64 of its index (4
// bytes) and its bytes, so that a block moved elsewhere fails too. The
// payload holds the tables: per peg count the gaps between successive
// ranks as varints, for the goal and then for the one-peg orbits beyond
// it, and then the fewest table. Nothing follows the last block.
//
// LoadOracle checks the header's checksum and that the lengths agree (and,
// for a file, with its size) before it allocates anything; each block's
// checksum before it decodes a byte of it; that the tables end where the
// payload does, and that nothing follows. A table grows with the bytes
// read, never with a count the file claims. What fails is an error for
// which errors.Is(err, ErrOracleCorrupt) holds, naming the block and the
// byte offset. Files of versions 1 to 3, which carried no checksums, are
// refused with the command that rebuilds them.
//
// # Searching without an oracle
//
// Without an oracle, each question is solved depth first, which answers
// most at once, but refutes a lost position of many pegs slowly. So depth
// first gets a budget of positions; past it, a game with a history starts
// building its level's oracle in the background and races it, and a lone
// position is searched layer by layer from it and from the goal until the
// two meet. The fewest pegs come from depth first stopping at two (one
// being refuted), else from the last layer of everything the position
// reaches.
//
// # The Advisor's levels
//
// An Advisor keeps the oracles it was given (AddOracle) and those it built
// for the levels of the games it was asked about. A game server prepares
// the levels it offers (Advisor.Prepare), whose hints are then lookups and
// which it keeps for its life; the levels that hints build on their own
// are kept up to Options.MaxLevels, the least recently used dropped first,
// and at most Options.MaxBuilds builds run at once, each within
// Options.BuildMemory.
package hint
