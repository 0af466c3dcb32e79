'use strict';
// The play page of pegs serve: pick a level, play it, ask for hints, step
// through a solution, in one of four games: free play, Selminha (a run of
// levels for stars and points), Play Solo (the English board to as few
// pegs as you can) and Tricky Triangle (15 holes, you pick the start).
// Jumps are written as the toolkit writes them: hole labels, FROM-TO.
// Levels come from this server's API; records stay in this browser's
// localStorage and are never sent anywhere.

const $ = (id) => document.getElementById(id);
const SVG = 'http://www.w3.org/2000/svg';

// clock is the page's time in milliseconds; tests move it with skip.
const clock = {
  offset: 0,
  now: () => performance.now() + clock.offset,
  skip: (ms) => { clock.offset += ms; },
};
window.pegsClock = clock;

const game = {
  packs: [],
  pack: null, // the pack played, as GET /api/levels lists it
  mode: 'plain', // plain, selminha, solo or triangle
  level: null, // the level played, as GET /api/levels/{id} gives it
  holes: [], // its board's holes: label, x, y
  jumps: [], // its board's jumps: [from, over, to]
  byLabel: new Map(),
  goalHole: -1, // -1: one peg anywhere
  nodes: [], // the SVG group of each hole
  start: [], // the start: whether each hole holds a peg
  pegs: [], // whether each hole holds a peg
  history: [], // the jumps played
  version: 0, // counts changes of the position, so that late hints are dropped
  round: 0, // counts games begun (a level, a start, a restart), so that late solutions are dropped
  selected: -1,
  cursor: 0,
  hintUsed: false,
  hint: null, // {from, to} of the hint shown
  helpers: false,
  movable: null, // the holes whose peg can jump, with helpers on
  solution: null, // {jumps, step, moves} while showing a solution
  picking: false, // triangle: waiting for the peg to remove
  startHole: -1, // triangle: the hole the game started from
  timer: null, // selminha: {used, since} milliseconds of play, paused while hidden
  ended: false, // the game stopped: no jump left
};

// api asks the server: GET without a body, POST with one.
async function api(path, body) {
  const opt = body === undefined ? {} :
    {method: 'POST', headers: {'Content-Type': 'application/json'}, body: JSON.stringify(body)};
  const res = await fetch(path, opt);
  const data = await res.json();
  if (!res.ok) throw new Error(data.error || res.statusText);
  return data;
}

const say = (text) => { $('status').textContent = text; };
const fail = (err) => say('Error: ' + err.message);
const capital = (s) => s.charAt(0).toUpperCase() + s.slice(1);
const plural = (n, word) => `${n} ${word}${n === 1 ? '' : 's'}`;
const label = (h) => game.holes[h].label;
const jumpText = (j) => `${label(j[0])}-${label(j[2])}`;
const pegCount = () => game.pegs.filter(Boolean).length;
const picture = (pegs) => pegs.map((p) => (p ? 'o' : '.')).join('');

function el(name, attrs, text) {
  const e = document.createElementNS(SVG, name);
  for (const [k, v] of Object.entries(attrs)) e.setAttribute(k, v);
  if (text !== undefined) e.textContent = text;
  return e;
}

function fill(select, options, value) {
  select.replaceChildren(...options.map(([v, text]) => new Option(text, v, false, v === value)));
}

// Records: one localStorage key per game and pack, its version in the
// key. A value that is missing, of an older version or not what the game
// keeps is ignored, with a warning on the console.

const STORE = 'pegs.v1';

function load(kind, valid) {
  const key = `${STORE}.${kind}.${game.pack.id}`;
  let raw = null;
  try {
    raw = localStorage.getItem(key);
    if (raw === null) return null;
    const v = JSON.parse(raw);
    if (v && typeof v === 'object' && valid(v)) return v;
    console.warn(`pegs: ignoring the stored ${key}: not what this page keeps`, raw);
  } catch (err) {
    console.warn(`pegs: ignoring the stored ${key}: ${err.message}`, raw);
  }
  return null;
}

function store(kind, value) {
  try {
    localStorage.setItem(`${STORE}.${kind}.${game.pack.id}`, JSON.stringify(value));
  } catch (err) {
    console.warn(`pegs: could not keep the ${kind} record: ${err.message}`);
  }
}

const isInt = (n, lo, hi) => Number.isInteger(n) && n >= lo && n <= hi;
const isJumps = (a) => Array.isArray(a) && a.every((j) => Array.isArray(j) && j.length === 3 && j.every((h) => isInt(h, 0, 1000)));

// The selminha game: {level: the level to play (from 0), results: the
// points of each cleared level, {stars, points, bonus}}; the board of the
// five best games: [{score, date}].
const validGame = (v) => isInt(v.level, 0, 1000) && Array.isArray(v.results) &&
  v.results.every((r) => r === null || (isInt(r.stars, 0, 3) && isInt(r.points, 0, 1e6) && isInt(r.bonus, 0, 100)));
const validTop = (v) => Array.isArray(v.top) && v.top.every((e) => isInt(e.score, 0, 1e7) && /^\d{4}-\d\d-\d\d$/.test(e.date));
// Solo: {history: the jumps of the game in play, best: the fewest pegs
// left when a game stopped, or null}.
const validSolo = (v) => isJumps(v.history) && (v.best === null || isInt(v.best, 1, 1000));
// Triangle: {played: games played, solved: the start holes solved from}.
const validTriangle = (v) => isInt(v.played, 0, 1e9) && Array.isArray(v.solved) && v.solved.every((h) => isInt(h, 0, 1000));

// Packs, games and levels.

const modeFits = (mode, pack) => mode !== 'triangle' || pack.board.startsWith('triangle');

// route reads the hash: #MODE, #MODE/N (level N, from 1) or #LEVEL-ID.
function route() {
  const want = decodeURIComponent(location.hash.slice(1));
  const [head, n] = want.split('/');
  const modes = ['plain', 'selminha', 'solo', 'triangle'];
  if (modes.includes(head)) {
    const pack = game.packs.find((p) => p.mode === head) || game.packs.find((p) => modeFits(head, p));
    const i = Math.max(0, Math.min((parseInt(n, 10) || 1) - 1, pack.levels.length - 1));
    return {pack, mode: head, id: pack.levels[i].id, named: n !== undefined};
  }
  for (const p of game.packs) {
    if (p.levels.some((l) => l.id === want)) return {pack: p, mode: p.mode || 'plain', id: want, named: true};
  }
  const p = game.packs[0];
  return {pack: p, mode: p.mode || 'plain', id: p.levels[0].id, named: false};
}

async function loadPacks() {
  const {packs} = await api('/api/levels');
  game.packs = packs;
  await follow();
}

// follow shows what the hash names.
// A hash that names what is shown already (as the page's own hash does)
// changes nothing: the game goes on.
async function follow() {
  const r = route();
  if (game.level && r.pack === game.pack && r.mode === game.mode && r.id === game.level.id) return;
  await showPack(r.pack, r.mode, r.id, r.named);
}

function hashOf() {
  const i = game.pack.levels.findIndex((l) => l.id === game.level.id);
  return game.mode === 'plain' || game.pack.mode !== game.mode ? '#' + game.level.id : `#${game.mode}/${i + 1}`;
}

// showPack plays level id of pack in mode; a saved Selminha game is
// offered instead unless the level was named.
async function showPack(pack, mode, id, named = true) {
  game.pack = pack;
  game.mode = modeFits(mode, pack) ? mode : 'plain';
  fill($('pack'), game.packs.map((p) => [p.id, `${p.name} (${p.board}, ${p.goal})`]), pack.id);
  $('mode').value = game.mode;
  for (const o of $('mode').options) o.disabled = !modeFits(o.value, pack);
  const name = (l) => `${l.name}: ${l.pegs} pegs` + (l.grade !== null ? `, grade ${l.grade}` : '');
  fill($('level'), pack.levels.map((l) => [l.id, name(l)]), id);
  const m = game.mode;
  $('level-label').hidden = m === 'triangle' || m === 'solo';
  $('newstart').hidden = $('random').hidden = m !== 'triangle';
  $('newgame').hidden = m !== 'solo';
  $('resume').hidden = true;
  help();
  if (m === 'selminha') {
    const saved = load('game', validGame);
    if (saved && saved.level > 0 && saved.level < pack.levels.length && !named) {
      offerResume(saved);
      id = pack.levels[saved.level].id;
    }
  }
  await loadLevel(id);
}

async function loadLevel(id) {
  const lvl = await api('/api/levels/' + encodeURIComponent(id));
  game.level = lvl;
  game.holes = lvl.layout.holes;
  game.jumps = lvl.layout.jumps;
  game.byLabel = new Map(game.holes.map((h, i) => [h.label, i]));
  game.goalHole = lvl.goal_hole === null ? -1 : game.byLabel.get(lvl.goal_hole);
  $('level').value = id;
  history.replaceState(null, '', hashOf());
  const goal = game.goalHole < 0 ? 'one peg anywhere' : `one peg at ${lvl.goal_hole}`;
  $('info').textContent = `${lvl.board}, goal: ${goal}`;
  drawBoard();
  if (game.mode === 'triangle') {
    newStart();
  } else if (game.mode === 'solo') {
    const saved = load('solo', validSolo);
    restart(saved ? saved.history : []);
  } else {
    restart();
  }
  records();
}

// The board.

function drawBoard() {
  const svg = $('board');
  const {width, height} = game.level.layout;
  const m = 0.7;
  svg.setAttribute('viewBox', `${-m} ${-m} ${width + 2 * m} ${height + 2 * m}`);
  game.nodes = game.holes.map((h, i) => {
    const g = el('g', {'class': 'hole', 'data-label': h.label, 'transform': `translate(${h.x} ${h.y})`,
      'tabindex': '0', 'role': 'button', 'aria-label': 'hole ' + h.label});
    g.append(el('title', {}, h.label), el('circle', {'class': 'pit', 'r': 0.32}),
      el('circle', {'class': 'peg', 'r': 0.27}), el('circle', {'class': 'ring', 'r': 0.4}),
      el('circle', {'class': 'cur', 'r': 0.47}), el('text', {'y': 0.07}, h.label));
    g.addEventListener('click', () => { game.cursor = i; tap(i); });
    g.addEventListener('focus', () => { game.cursor = i; render(); });
    return g;
  });
  const defs = el('defs', {});
  const marker = el('marker', {'id': 'arrowhead', 'viewBox': '0 0 10 10', 'refX': 8, 'refY': 5,
    'markerWidth': 4, 'markerHeight': 4, 'orient': 'auto-start-reverse'});
  marker.append(el('path', {'d': 'M 0 0 L 10 5 L 0 10 z'}));
  defs.append(marker);
  game.arrow = el('line', {'class': 'arrow', 'visibility': 'hidden'});
  svg.replaceChildren(defs, ...game.nodes, game.arrow);
}

// targets returns the jumps the peg in hole h can make now.
function targets(h) {
  return game.jumps.filter((j) => j[0] === h && game.pegs[j[1]] && !game.pegs[j[2]]);
}

const legal = () => game.jumps.some((j) => game.pegs[j[0]] && game.pegs[j[1]] && !game.pegs[j[2]]);

// direction names the way a jump goes on the screen.
function direction(j) {
  const a = game.holes[j[0]];
  const b = game.holes[j[2]];
  const dx = b.x - a.x;
  const dy = b.y - a.y;
  const v = dy < -0.1 ? 'up' : dy > 0.1 ? 'down' : '';
  const h = dx < -0.1 ? 'left' : dx > 0.1 ? 'right' : '';
  return v && h ? `${v} and ${h}` : v || h;
}

function render() {
  const lit = new Set(game.selected >= 0 ? targets(game.selected).map((j) => j[2]) : []);
  const next = game.solution && game.solution.jumps[game.solution.step];
  game.nodes.forEach((g, h) => {
    const c = g.classList;
    g.querySelector('.peg').style.display = game.pegs[h] ? '' : 'none';
    c.toggle('on', game.pegs[h]);
    c.toggle('goal', h === game.goalHole);
    c.toggle('selected', h === game.selected);
    c.toggle('target', lit.has(h));
    c.toggle('cursor', h === game.cursor);
    c.toggle('hint-from', game.hint !== null && h === game.hint.from);
    c.toggle('hint-to', game.hint !== null && h === game.hint.to);
    c.toggle('movable', game.helpers && game.movable !== null && game.movable.has(h));
    c.toggle('step-from', Boolean(next) && h === next[0]);
    c.toggle('step-to', Boolean(next) && h === next[2]);
  });
  if (next) {
    const a = game.holes[next[0]];
    const b = game.holes[next[2]];
    const k = 0.3 / Math.hypot(b.x - a.x, b.y - a.y);
    game.arrow.setAttribute('x1', a.x + (b.x - a.x) * k);
    game.arrow.setAttribute('y1', a.y + (b.y - a.y) * k);
    game.arrow.setAttribute('x2', b.x - (b.x - a.x) * k);
    game.arrow.setAttribute('y2', b.y - (b.y - a.y) * k);
  }
  game.arrow.setAttribute('visibility', next ? 'visible' : 'hidden');
  $('board').dataset.hint = game.hint ? `${label(game.hint.from)}-${label(game.hint.to)}` : '';
  $('history').replaceChildren(...game.history.map((j) => {
    const li = document.createElement('li');
    li.textContent = jumpText(j);
    return li;
  }));
}

// Play.

function setPosition(jumps) {
  game.pegs = [...game.start];
  for (const j of jumps) apply(j);
  game.history = [...jumps];
  changed();
}

function apply(j) {
  game.pegs[j[0]] = game.pegs[j[1]] = false;
  game.pegs[j[2]] = true;
}

// changed clears what a change makes stale, and draws the board.
function changed() {
  game.version++;
  game.selected = -1;
  game.hint = null;
  game.movable = null;
  game.ended = false;
  for (const id of ['nomore', 'nextlevel']) $(id).hidden = true;
  for (const id of ['score', 'rating']) $(id).hidden = true;
  $('stars').textContent = '';
  $('stars').dataset.stars = '';
  $('score').dataset.points = '';
  $('rating').dataset.rating = '';
  render();
  if (!game.solution && !game.picking && !legal()) finish();
  if (game.mode === 'solo' && !game.solution) keepSolo();
  updateHelpers().catch(fail);
}

// restart plays the level from its start, or from jumps played already.
function restart(jumps = []) {
  game.round++;
  game.hintUsed = false;
  game.counted = false;
  game.picking = false;
  game.solution = null;
  $('stepper').hidden = true;
  game.start = game.level.picture.split('').map((c) => c === 'o');
  if (game.mode === 'triangle' && game.startHole >= 0) {
    game.start = game.start.map(() => true);
    game.start[game.startHole] = false;
  }
  startClock();
  const ok = playable(jumps);
  if (!ok) console.warn('pegs: ignoring a kept game that does not replay on this board', jumps);
  setPosition(ok ? jumps : []);
  if (jumps.length > 0 && ok && !game.ended) say(`Your game: ${pegCount()} pegs. Tap a peg, then a lit hole.`);
  else if (!game.ended) say(`${pegCount()} pegs. Tap a peg, then a lit hole.`);
}

// playable reports whether jumps replay from the start.
function playable(jumps) {
  const pegs = [...game.start];
  for (const j of jumps) {
    if (!game.jumps.some((k) => k[0] === j[0] && k[1] === j[1] && k[2] === j[2]) || !pegs[j[0]] || !pegs[j[1]] || pegs[j[2]]) return false;
    pegs[j[0]] = pegs[j[1]] = false;
    pegs[j[2]] = true;
  }
  return true;
}

function undo() {
  if (game.solution || game.picking || game.history.length === 0) return;
  setPosition(game.history.slice(0, -1));
  say(`Took back a jump: ${pegCount()} pegs.`);
}

// tap plays a hole: a peg is picked (or let go), a lit hole is jumped to;
// on the triangle's first tap, the peg is taken off.
function tap(h) {
  if (game.solution) return;
  if (game.picking) {
    pickStart(h);
    return;
  }
  const j = game.selected >= 0 && targets(game.selected).find((t) => t[2] === h);
  if (j) {
    apply(j);
    game.history.push(j);
    changed();
    if (legal()) say(`${jumpText(j)}: ${pegCount()} pegs.`);
    return;
  }
  game.selected = game.pegs[h] && h !== game.selected ? h : -1;
  render();
}

// finish ends a game with no jump left, as its mode scores it.
function finish() {
  game.ended = true;
  const n = pegCount();
  const last = game.pegs.indexOf(true);
  const won = n === 1 && (game.goalHole < 0 || last === game.goalHole);
  let stars = 0;
  if (won) {
    stars = game.hintUsed ? 2 : 3;
    say(`Solved in ${plural(game.history.length, 'jump')}!` + (game.hintUsed ? ' (with help)' : ''));
  } else if (n === 1) {
    stars = 2;
    say(`One peg, at ${label(last)}; the goal was ${game.level.goal_hole}.`);
  } else {
    say(`No jump left: ${n} pegs. Undo, or ask for a HINT.`);
  }
  if (game.mode === 'solo') return finishSolo(n);
  if (game.mode === 'triangle') return finishTriangle(n);
  $('stars').dataset.stars = String(stars);
  $('stars').textContent = '\u2605'.repeat(stars) + '\u2606'.repeat(3 - stars);
  if (game.mode === 'selminha') finishSelminha(n, stars);
}

// Selminha: stars and points, level by level.

function startClock() {
  game.timer = {used: 0, since: document.hidden ? null : clock.now()};
}

function playTime() {
  const t = game.timer;
  return t.used + (t.since === null ? 0 : clock.now() - t.since);
}

document.addEventListener('visibilitychange', () => {
  const t = game.timer;
  if (!t) return;
  if (document.hidden && t.since !== null) [t.used, t.since] = [playTime(), null];
  else if (!document.hidden && t.since === null) t.since = clock.now();
});

// bonus is the speed bonus: 100 points draining to 0 at 4 seconds a jump
// of the level.
function bonus() {
  const jumps = game.level.pegs - 1;
  const left = 1 - playTime() / (4000 * jumps);
  return Math.max(0, Math.round(100 * left));
}

function levelIndex() {
  return game.pack.levels.findIndex((l) => l.id === game.level.id);
}

function finishSelminha(n, stars) {
  if (n !== 1) {
    $('nomore').hidden = false;
    return;
  }
  const i = levelIndex();
  const speed = bonus();
  const points = 100 * (i + 1) * stars;
  const saved = load('game', validGame) || {level: 0, results: []};
  saved.results[i] = {stars, points: points + speed, bonus: speed};
  saved.level = Math.min(i + 1, game.pack.levels.length);
  const total = saved.results.reduce((s, r) => s + (r ? r.points : 0), 0);
  $('score').hidden = false;
  $('score').dataset.points = String(points + speed);
  $('score').dataset.total = String(total);
  $('score').textContent = `+${points} for the stars, +${speed} for speed: ${total} points in all.`;
  if (i + 1 < game.pack.levels.length) {
    store('game', saved);
    $('nextlevel').hidden = false;
  } else {
    store('game', {level: 0, results: []});
    const board = load('top', validTop) || {top: []};
    board.top.push({score: total, date: new Date().toISOString().slice(0, 10)});
    board.top.sort((a, b) => b.score - a.score);
    board.top = board.top.slice(0, 5);
    store('top', board);
    say(`Game over: ${total} points.`);
  }
  records();
}

function offerResume(saved) {
  const total = saved.results.reduce((s, r) => s + (r ? r.points : 0), 0);
  $('resume-text').textContent = `A game is saved: level ${saved.level + 1}, ${total} points.`;
  $('resume').hidden = false;
}

async function startOver() {
  store('game', {level: 0, results: []});
  $('resume').hidden = true;
  await loadLevel(game.pack.levels[0].id);
}

// Play Solo: as few pegs as you can, the best kept.

function keepSolo() {
  const saved = load('solo', validSolo) || {history: [], best: null};
  saved.history = game.history;
  store('solo', saved);
}

function finishSolo(n) {
  const saved = load('solo', validSolo) || {history: game.history, best: null};
  if (saved.best === null || n < saved.best) saved.best = n;
  store('solo', saved);
  $('rating').hidden = false;
  $('rating').dataset.rating = String(n);
  $('rating').textContent = n === 1 ? 'One peg: the board is cleared!' : `${plural(n, 'peg')} left.`;
  records();
}

function newGame() {
  const saved = load('solo', validSolo) || {history: [], best: null};
  saved.history = [];
  store('solo', saved);
  restart();
}

// Tricky Triangle: pick the start, get rated by the pegs left.

const RATINGS = ['', 'Genius!', 'Very clever', 'Not bad'];

function newStart() {
  game.round++;
  game.startHole = -1;
  game.solution = null;
  $('stepper').hidden = true;
  game.start = game.holes.map(() => true);
  game.picking = true;
  setPosition([]);
  say('Click the peg to take off, or press Random start.');
}

function pickStart(h) {
  game.startHole = h;
  restart();
  say(`Started from hole ${label(h)}: ${pegCount()} pegs. Tap a peg, then a lit hole.`);
}

function randomStart() {
  newStart();
  pickStart(Math.floor(Math.random() * game.holes.length));
}

function finishTriangle(n) {
  const rating = RATINGS[n] || 'Keep trying';
  $('rating').hidden = false;
  $('rating').dataset.rating = rating;
  $('rating').textContent = `${plural(n, 'peg')} left: ${rating}`;
  if (game.counted) return;
  game.counted = true;
  const rec = load('triangle', validTriangle) || {played: 0, solved: []};
  rec.played++;
  if (n === 1 && !rec.solved.includes(game.startHole)) rec.solved.push(game.startHole);
  store('triangle', rec);
  records();
}

// records shows the mode's records.
function records() {
  const box = $('records');
  box.hidden = game.mode === 'plain';
  if (game.mode === 'selminha') {
    const saved = load('game', validGame) || {level: 0, results: []};
    const board = load('top', validTop) || {top: []};
    const total = saved.results.reduce((s, r) => s + (r ? r.points : 0), 0);
    const rows = board.top.map((e, i) => `<tr><td>${i + 1}.</td><td>${e.score}</td><td>${e.date}</td></tr>`).join('');
    box.innerHTML = `<p>This game: <b id="game-points">${total}</b> points, level ${levelIndex() + 1} of ${game.pack.levels.length}.</p>` +
      `<p>Top 5:</p><table id="top">${rows || '<tr><td>none yet</td></tr>'}</table>`;
  } else if (game.mode === 'solo') {
    const saved = load('solo', validSolo);
    const best = saved && saved.best !== null ? saved.best : '\u2013';
    box.innerHTML = `<p>Best left: <b id="best">${best}</b></p>`;
  } else if (game.mode === 'triangle') {
    const rec = load('triangle', validTriangle) || {played: 0, solved: []};
    box.innerHTML = `<p>Games played: <b id="played">${rec.played}</b></p><p>Solved from:</p>`;
    const svg = el('svg', {'id': 'solved-holes', 'width': '7em', 'height': '6em'});
    const {width, height} = game.level.layout;
    svg.setAttribute('viewBox', `-0.6 -0.6 ${width + 1.2} ${height + 1.2}`);
    game.holes.forEach((h, i) => {
      const c = el('circle', {'cx': h.x, 'cy': h.y, 'r': 0.3, 'data-label': h.label});
      if (rec.solved.includes(i)) c.classList.add('solved');
      c.append(el('title', {}, `hole ${h.label}` + (rec.solved.includes(i) ? ': solved' : '')));
      svg.append(c);
    });
    box.append(svg);
  }
}

// help says how the mode is played and scored.
function help() {
  const text = {
    plain: ['Clear the board down to the goal: one peg, where the level says. Three stars for the goal on your own, two with a hint or with one peg elsewhere.'],
    selminha: ['Seven levels of the English board, in order. Clear each to one peg: three stars with the last peg in the centre, two with the peg anywhere else or when you used a hint or the solution.',
      'Points: 100 \u00d7 the level number for each star, and a speed bonus of up to 100 that drains to 0 at 4 seconds per jump of the level (time while the page is hidden does not count). 9,100 points at most.',
      'With no jump left and more than one peg: NO MORE JUMPS; undo or restart. Your game is saved in this browser: come back and RESUME, or START OVER. The five best games are kept.'],
    solo: ['The English board less its centre: clear it down to one peg, anywhere.',
      'Best left is the fewest pegs left when a game stopped with no jump. Your game and your best are kept in this browser; New game keeps the best.'],
    triangle: ['Fifteen holes. Click the peg to take off first (or Random start), then jump until no jump is left.',
      'Rating by pegs left: 1 Genius!, 2 Very clever, 3 Not bad, 4 or more Keep trying. Restart plays the same start again; New start picks another.',
      'The games you played and each start hole you solved from (the small triangle) are kept in this browser.'],
  }[game.mode];
  $('help-text').replaceChildren(...text.map((t) => {
    const p = document.createElement('p');
    p.textContent = t;
    return p;
  }));
}

// Hints.

function hintRequest() {
  const history = game.history.map(jumpText).join(', ');
  if (game.mode === 'triangle') {
    return {board: game.level.board, start: picture(game.start), goal: game.level.goal, history};
  }
  return {level: game.level.id, history};
}

async function askHint() {
  if (game.solution || game.picking || !game.level) return;
  const v = game.version;
  game.hintUsed = true;
  const h = await api('/api/hint', hintRequest());
  if (v !== game.version) return;
  let text = capital(h.status);
  if (h.jump) {
    const [from, to] = h.jump.split('-').map((l) => game.byLabel.get(l));
    game.hint = {from, to};
    text += `. Hint: ${h.jump}`;
  }
  if (h.undo > 0) text += `. Take back ${plural(h.undo, 'jump')} to make the goal possible again`;
  say(text + '.');
  render();
}

async function updateHelpers() {
  $('helper').hidden = !game.helpers;
  if (!game.helpers || !game.level || game.picking) return;
  const v = game.version;
  const h = await api('/api/hint', hintRequest());
  if (v !== game.version) return;
  game.movable = new Set(h.movable.map((l) => game.byLabel.get(l)));
  $('helper').textContent = h.one_peg_possible ? 'One peg: still possible.' :
    `One peg: out of reach (${plural(h.fewest_reachable, 'peg')} at best).`;
  render();
}

// Solutions: a level's fewest moves, which the server keeps; elsewhere a
// solution at once and the fewest moves when they are found.

function solveRequest(metric) {
  if (game.mode === 'triangle') return {board: game.level.board, start: picture(game.start), goal: game.level.goal, metric};
  return {level: game.level.id, metric};
}

function solutionJumps(sol) {
  const jumps = [];
  for (const move of sol.solution) {
    const holes = move.split('-').map((l) => game.byLabel.get(l));
    for (let i = 0; i + 1 < holes.length; i++) {
      jumps.push(game.jumps.find((j) => j[0] === holes[i] && j[2] === holes[i + 1]));
    }
  }
  return jumps;
}

// A solution belongs to the game: it is dropped only when another game
// began meanwhile (a level, a start, a restart), not when the board was
// redrawn or a jump played.
async function showSolution() {
  if (!game.level || game.picking) return;
  const round = game.round;
  const known = game.mode !== 'triangle' && game.level.par !== null;
  say(known ? 'Fetching the solution with the fewest moves\u2026' : 'Finding a solution\u2026');
  const sol = await api('/api/solve', solveRequest(known ? 'moves' : 'jumps'));
  if (round !== game.round) return;
  if (!sol.solvable) {
    say('There is no solution from this start.');
    return;
  }
  game.hintUsed = true;
  game.solution = {jumps: solutionJumps(sol), step: 0, moves: known};
  $('stepper').hidden = false;
  step(0);
  if (known) {
    say(`A solution of ${plural(sol.moves, 'move')} (${plural(game.solution.jumps.length, 'jump')}), no fewer: ${sol.solution.join(', ')}.`);
    return;
  }
  say(`A solution of ${plural(game.solution.jumps.length, 'jump')}; looking for one of the fewest moves\u2026`);
  const shown = game.solution;
  let best;
  try {
    best = await api('/api/solve', solveRequest('moves'));
  } catch (err) {
    if (game.solution === shown) say(`A solution of ${plural(shown.jumps.length, 'jump')}; one of the fewest moves was not found (${err.message}).`);
    return;
  }
  if (game.solution !== shown) return;
  shown.jumps = solutionJumps(best);
  shown.moves = true;
  shown.step = Math.min(shown.step, shown.jumps.length);
  step(0);
  say(`A solution of ${plural(best.moves, 'move')} (${plural(shown.jumps.length, 'jump')}), no fewer: ${best.solution.join(', ')}.`);
}

function step(d) {
  const s = game.solution;
  s.step = Math.min(Math.max(s.step + d, 0), s.jumps.length);
  setPosition(s.jumps.slice(0, s.step));
  const next = s.jumps[s.step];
  $('step').textContent = `jump ${s.step} of ${s.jumps.length}` +
    (next ? `; next ${jumpText(next)}, ${direction(next)}` : '');
}

function leaveSolution() {
  if (!game.solution) return;
  game.solution = null;
  $('stepper').hidden = true;
  changed();
}

// The keyboard: the cursor goes to the nearest hole in the direction.

function moveCursor(dx, dy) {
  const from = game.holes[game.cursor];
  let best = -1;
  let score = Infinity;
  game.holes.forEach((h, i) => {
    const along = (h.x - from.x) * dx + (h.y - from.y) * dy;
    const across = Math.abs((h.x - from.x) * dy - (h.y - from.y) * dx);
    if (along > 0.1 && along + 2 * across < score) [best, score] = [i, along + 2 * across];
  });
  if (best >= 0) game.cursor = best;
  $('board').classList.add('keys');
  render();
}

const directions = {
  arrowup: [0, -1], w: [0, -1], arrowdown: [0, 1], s: [0, 1],
  arrowleft: [-1, 0], a: [-1, 0], arrowright: [1, 0], d: [1, 0],
};

function onKey(e) {
  const tag = e.target.tagName;
  if (e.ctrlKey || e.metaKey || e.altKey || tag === 'SELECT' || tag === 'INPUT' || tag === 'SUMMARY' || !game.level) return;
  const k = e.key.toLowerCase();
  if (directions[k]) {
    moveCursor(...directions[k]);
  } else if ((k === 'enter' || k === ' ') && tag !== 'BUTTON') {
    $('board').classList.add('keys');
    tap(game.cursor);
  } else if (k === 'tab') {
    $('board').classList.add('keys');
    return;
  } else if (k === 'z') {
    undo();
  } else if (k === 'h') {
    askHint().catch(fail);
  } else if (k === 'escape') {
    game.selected = -1;
    leaveSolution();
    render();
  } else {
    return;
  }
  e.preventDefault();
}

function wire() {
  const on = (id, f) => $(id).addEventListener('click', () => {
    Promise.resolve(f()).catch(fail);
    $('board').focus();
  });
  $('pack').addEventListener('change', () => {
    const pack = game.packs.find((p) => p.id === $('pack').value);
    showPack(pack, pack.mode || 'plain', pack.levels[0].id, false).catch(fail);
  });
  $('mode').addEventListener('change', () => showPack(game.pack, $('mode').value, game.level.id).catch(fail));
  $('level').addEventListener('change', () => loadLevel($('level').value).catch(fail));
  $('helpers').addEventListener('change', () => {
    game.helpers = $('helpers').checked;
    updateHelpers().catch(fail);
    render();
  });
  window.addEventListener('hashchange', () => follow().catch(fail));
  on('undo', undo);
  on('restart', () => (game.mode === 'triangle' && game.startHole < 0 ? newStart() : restart()));
  on('newstart', newStart);
  on('random', randomStart);
  on('newgame', newGame);
  on('hint', askHint);
  on('solution', showSolution);
  on('prev', () => step(-1));
  on('next', () => step(1));
  on('leave', leaveSolution);
  on('nomore-undo', undo);
  on('nomore-restart', () => restart());
  on('nextlevel', () => loadLevel(game.pack.levels[levelIndex() + 1].id));
  on('resume-yes', () => { $('resume').hidden = true; });
  on('resume-no', startOver);
  document.addEventListener('keydown', onKey);
}

wire();
loadPacks().catch(fail);
