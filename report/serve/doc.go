// Package serve is the level server: a JSON API over the library, and a
// page to play its levels in a browser (pegs serve).
//
// # API
//
// Requests and responses are JSON; a POST body must be sent as
// application/json (415 otherwise: a browser sends text/plain from any
// page without asking). Numbers are JSON numbers, save the exact counts
// that can pass 2^53 (a level's solutions and games), which are decimal
// strings so that a JavaScript reader keeps every digit; a value that is
// absent is null, and a board or level has the same shape in a list as
// alone. A request's fields are named as the
// flags of the command that answers the same question, plus level, the id
// of a loaded level, which stands for its board, start and goal; a
// response has the shape of that command's --format json:
//
//   - GET /api/boards: the built-in boards, as pegs boards describes
//     them, and the loaded packs' (BoardsJSON).
//   - GET /api/boards/{name}: a board as listed, and drawn (BoardJSON):
//     each hole's label and place in the plane, each jump.
//   - GET /api/levels: the packs (PacksJSON): the built-in ones
//     (BuiltinPacks: the seven classic English levels, graded, Play Solo
//     and the Tricky Triangle), then every pack given to the server, each
//     level with an id and a name and its measures where it was graded.
//   - GET /api/levels/{id}: one level to play (PlayJSON), with its
//     board drawn and its goal hole.
//   - POST /api/hint {board, level, start, position, history, goal}: as
//     pegs hint: the next good jump, what is still possible, the jumps to
//     take back, the pegs that can jump.
//   - POST /api/solve {board, level, start, position, goal, metric}: as
//     pegs solve; metric moves gives a solution with the fewest moves.
//     The classic levels' and Play Solo's are made at build time (go
//     generate, in classic.json with their grades, and solo.json); a
//     loaded level's are taken from its pack's moves field (pegs generate
//     writes it; see LoadPack), else found once, in the background after
//     Start's oracles, or when first asked.
//   - POST /api/grade {board, level, start, position, goal}: as pegs grade.
//   - POST /api/generate {board, goal, count, pack, pegs, seed, symmetric}:
//     as pegs generate, a level pack; 422 with the reason when the
//     request cannot be met (too few levels of those pegs on the board).
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
// of the loaded levels of at most Config.EagerPegs pegs in the background,
// one at a time, the levels of fewest pegs first, and /readyz answers 200
// once they are built; a bigger level's oracle (Full's, Play Solo's) is
// built when a hint first asks for it. Until a level's oracle is built its
// hints are found by searching, then they are lookups. The oracles that
// hints of other games build on demand are kept up to Limits.Levels, the
// least recently used dropped first.
//
// # Play page
//
// GET / serves a page of plain HTML, CSS and JavaScript embedded in the
// binary (web/), which fetches nothing but this API (its
// Content-Security-Policy allows nothing else). It draws a level's board
// in SVG from the hole places the API gives, for every geometry; a peg is
// picked by a tap (or the keyboard: arrows or WASD move, Tab goes from
// hole to hole, Enter or Space picks and jumps), its landing holes light
// up, and a tap on one jumps. It undoes and restarts; HINT lights a peg
// and its landing hole, or says the goal is out of reach or how many
// jumps to take back; helpers show the pegs that can jump and whether one
// peg is still possible; "show solution" steps through a solution with
// the fewest moves (elsewhere, a solution at once and then the fewest
// moves), naming each jump's direction. Jumps are written as the toolkit
// writes them (FROM-TO, by hole labels).
//
// A pack's mode, or the URL (#selminha, #solo, #triangle, with /N for
// level N; or #LEVEL-ID), picks one of the page's games, each with a help
// panel:
//
//   - Free play: three stars for one peg at the goal hole, two for one
//     peg elsewhere or with help (a hint or the solution).
//   - Selminha, the seven classic levels in order: stars as above; 100 x
//     the level's number points a star, and a speed bonus of up to 100 a
//     level that drains to 0 at 4 seconds per jump of the level (time
//     while the page is hidden is not counted): 9,100 points at most. NO
//     MORE JUMPS offers UNDO and RESTART; the game is saved, and from
//     level 2 on a visit offers RESUME or START OVER; a finished game goes
//     on a top-5 board.
//   - Play Solo, the English board less its centre: one peg anywhere
//     clears it; Best left is the fewest pegs of a game that stopped with
//     no jump left; the game in play and the best are kept, and New game
//     keeps the best.
//   - Tricky Triangle, on a triangle: the first click takes a peg off (or
//     Random start); Restart plays the same start, New start picks again;
//     a game is rated by its pegs left (1 Genius!, 2 Very clever, 3 Not
//     bad, more Keep trying); the games played and each start hole solved
//     from are kept.
//
// Records stay in the browser's localStorage under keys
// pegs.v1.KIND.PACK; a value that is missing, of another version or not
// of the right shape is ignored with a console warning. Nothing is sent
// to the server.
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
// levels. Beyond the budget, requests in flight cost their connections,
// bodies and answers: with 200 searching requests at once on a 64 MiB
// budget, the heap stays within the budget and 48 MiB more
// (TestManySearchesWithinMemory).
//
// Bad input gets a 4xx and one line of JSON, {"error": "..."}, naming what
// is wrong; a search past the memory budget a 422; a panic is recovered
// into a 500 and a log line. A search that hits the request's deadline
// answers 503 saying so, without Retry-After, which only a busy server
// sends. Every API request is logged with log/slog at info level (pegs
// serve --log-level warn keeps only the busy answers and failures).
// Serve shuts down gracefully when its context ends: it stops listening,
// cancels the searches in flight, which answer 503, and lets the requests
// finish.
package serve
