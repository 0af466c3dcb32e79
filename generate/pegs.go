package generate

// DefaultPegs is the range of peg counts (pegs generate --pegs) of the levels made on a board of
// holes holes where none is asked for: 6-20 on a board of more than 20
// holes (the English board has 33). On a smaller board 20 pegs do not
// fit, so the range runs from a third of the holes (at least 2, the fewest
// a level can have) to all holes but 2 (all but 1 is one of the board's
// classic starts, which pegs starts lists): 5-13 on the 15-hole triangle,
// 3-8 on triangle:4. It fits every board with a jump, which has at least 3
// holes.
func DefaultPegs(holes int) (lo, hi int) {
	if holes > 20 {
		return 6, 20
	}
	return max(2, holes/3), max(2, holes-2)
}
