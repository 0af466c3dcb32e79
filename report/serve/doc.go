// Package serve is the level server: a JSON API over the library, and a
// page to play its levels in a browser (pegs serve).
//
// # API
//
// Requests and responses are JSON. A request's fields are named as the
// flags of the command that answers the same question, plus level, the id
// of a loaded level, which stands for its board, start and goal; a
// response has the shape of that command's --format json:
//
//   - GET /api/boards: the built-in boards, as pegs boards.
//   - GET /api/boards/{name}: a board drawn (BoardJSON): each hole's
//     label and place in the plane, each jump.
//   - GET /api/levels: the packs (PacksJSON): the seven classic
//     English levels, then every pack given to the server, each level with
//     an id and a name and, in a generated pack, its measures.
//   - GET /api/levels/{id}: one level to play (PlayJSON), with its
//     board drawn and its goal hole.
//   - POST /api/hint {board, level, start, position, history, goal}: as
//     pegs hint: the next good jump, what is still possible, the jumps to
//     take back, the pegs that can jump.
//   - POST /api/solve {board, level, start, position, goal, metric}: as
//     pegs solve; metric moves gives a solution with the fewest moves,
//     which a loaded level keeps once found.
//   - POST /api/grade {board, level, start, position, goal}: as pegs grade.
//   - POST /api/generate {board, goal, count, pack, pegs, seed, symmetric}:
//     as pegs generate, a level pack.
//   - GET /healthz: the server is alive. GET /readyz: 200 once the loaded
//     levels' oracles are built (503 before), with each one's state.
//
// The boards are the built-in ones and those of the loaded packs; a pack
// of a board file names it as pegs generate was given it, and LoadPack
// finds it there or beside the pack. The server reads no other file.
//
// # Hints
//
// The server holds one hint.Advisor for its life. Start builds the oracles
// of the loaded levels in the background, one at a time, the levels of
// fewest pegs first; until a level's oracle is built its hints are found
// by searching, then they are lookups (the English centre game's takes
// seconds). The oracles that hints of other games build on demand are
// kept up to Limits.Levels, the least recently used dropped first.
//
// # Play page
//
// GET / serves a page of plain HTML, CSS and JavaScript embedded in the
// binary (web/), which fetches nothing but this API (its
// Content-Security-Policy allows nothing else). It draws a level's board
// in SVG from the hole places the API gives, for every geometry; a peg is
// picked by a tap (or the keyboard: arrows or WASD move, Enter or Space
// picks and jumps), its landing holes light up, and a tap on one jumps.
// It undoes and restarts; HINT lights a peg and its landing hole, or says
// the goal is out of reach or how many jumps to take back; helpers show
// the pegs that can jump and whether one peg is still possible; a game
// ends with three stars for one peg at the goal hole, two for one peg
// elsewhere or with help (a hint or the solution); "show solution" steps
// through a solution with the fewest moves. Jumps are written as the
// toolkit writes them (FROM-TO, by hole labels).
//
// # Limits
//
// A request body is at most Limits.Body bytes, and a request takes at most
// Limits.Timeout. The memory budget (Config.Memory) is shared out: a
// quarter to each build of a level's oracle, of which at most two run at
// once (Start's, one at a time, and one that hints start); the other half
// to the requests that search (solve, grade, generate, and the hints that
// are not lookups), which take one of Limits.Slots slots, each with an
// equal share. Solve, grade and generate answer 503 with Retry-After when
// every slot is taken; a hint waits up to Limits.Wait for one. Grade takes
// levels of at most Limits.GradePegs pegs, generate at most Limits.Generate
// levels.
//
// Bad input gets a 4xx and one line of JSON, {"error": "..."}, naming what
// is wrong; a search past the memory budget a 422; a panic is recovered
// into a 500 and a log line. Every API request is logged with log/slog.
// Serve shuts down gracefully when its context ends: it stops listening
// and lets the requests in flight finish.
package serve
