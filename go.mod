module pegs

go 1.24.0
