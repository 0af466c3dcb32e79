'use strict';
// The play page of pegs serve: pick a level, play it, ask for hints, step
// through a solution. Jumps are written as the toolkit writes them: hole
// labels, FROM-TO. Everything comes from this server's API.

const $ = (id) => document.getElementById(id);
const SVG = 'http://www.w3.org/2000/svg';

const game = {
  packs: [],
  level: null, // the level played, as GET /api/levels/{id} gives it
  holes: [], // its board's holes: label, x, y
  jumps: [], // its board's jumps: [from, over, to]
  byLabel: new Map(),
  goalHole: -1, // -1: one peg anywhere
  nodes: [], // the SVG group of each hole
  pegs: [], // whether each hole holds a peg
  history: [], // the jumps played
  version: 0, // counts changes, so that late answers are dropped
  selected: -1,
  cursor: 0,
  hintUsed: false,
  hint: null, // {from, to} of the hint shown
  helpers: false,
  movable: null, // the holes whose peg can jump, with helpers on
  solution: null, // {jumps, step} while showing a solution
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

function el(name, attrs, text) {
  const e = document.createElementNS(SVG, name);
  for (const [k, v] of Object.entries(attrs)) e.setAttribute(k, v);
  if (text !== undefined) e.textContent = text;
  return e;
}

function fill(select, options, value) {
  select.replaceChildren(...options.map(([v, text]) => new Option(text, v, false, v === value)));
}

// Packs and levels.

async function loadPacks() {
  const {packs} = await api('/api/levels');
  game.packs = packs;
  const want = decodeURIComponent(location.hash.slice(1));
  let pack = packs[0];
  let id = pack.levels[0].id;
  for (const p of packs) {
    if (p.levels.some((l) => l.id === want)) [pack, id] = [p, want];
  }
  fill($('pack'), packs.map((p) => [p.id, `${p.name} (${p.board}, ${p.goal})`]), pack.id);
  await showPack(pack, id);
}

async function showPack(pack, id) {
  const name = (l) => `${l.name}: ${l.pegs} pegs` + (l.grade ? `, grade ${l.grade}` : '');
  fill($('level'), pack.levels.map((l) => [l.id, name(l)]), id);
  await loadLevel(id);
}

async function loadLevel(id) {
  const lvl = await api('/api/levels/' + encodeURIComponent(id));
  history.replaceState(null, '', '#' + id);
  game.level = lvl;
  game.holes = lvl.layout.holes;
  game.jumps = lvl.layout.jumps;
  game.byLabel = new Map(game.holes.map((h, i) => [h.label, i]));
  game.goalHole = lvl.goal_hole === null ? -1 : game.byLabel.get(lvl.goal_hole);
  const goal = game.goalHole < 0 ? 'one peg anywhere' : `one peg at ${lvl.goal_hole}`;
  $('info').textContent = `${lvl.board}, goal: ${goal}`;
  drawBoard();
  restart();
}

// The board.

function drawBoard() {
  const svg = $('board');
  const {width, height} = game.level.layout;
  const m = 0.7;
  svg.setAttribute('viewBox', `${-m} ${-m} ${width + 2 * m} ${height + 2 * m}`);
  game.nodes = game.holes.map((h, i) => {
    const g = el('g', {'class': 'hole', 'data-label': h.label, 'transform': `translate(${h.x} ${h.y})`});
    g.append(el('title', {}, h.label), el('circle', {'class': 'pit', 'r': 0.32}),
      el('circle', {'class': 'peg', 'r': 0.27}), el('circle', {'class': 'ring', 'r': 0.43}),
      el('text', {'y': 0.07}, h.label));
    g.addEventListener('click', () => { game.cursor = i; tap(i); });
    return g;
  });
  svg.replaceChildren(...game.nodes);
}

// targets returns the jumps the peg in hole h can make now.
function targets(h) {
  return game.jumps.filter((j) => j[0] === h && game.pegs[j[1]] && !game.pegs[j[2]]);
}

const legal = () => game.jumps.some((j) => game.pegs[j[0]] && game.pegs[j[1]] && !game.pegs[j[2]]);

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
  $('board').dataset.hint = game.hint ? `${label(game.hint.from)}-${label(game.hint.to)}` : '';
  $('history').replaceChildren(...game.history.map((j) => {
    const li = document.createElement('li');
    li.textContent = jumpText(j);
    return li;
  }));
}

// Play.

function setPosition(jumps) {
  game.pegs = game.level.picture.split('').map((c) => c === 'o');
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
  $('stars').textContent = '';
  $('stars').dataset.stars = '';
  render();
  if (!game.solution && !legal()) finish();
  updateHelpers().catch(fail);
}

function restart() {
  game.hintUsed = false;
  leaveSolution();
  setPosition([]);
  say(`${pegCount()} pegs. Tap a peg, then a lit hole.`);
}

function undo() {
  if (game.solution || game.history.length === 0) return;
  setPosition(game.history.slice(0, -1));
  say(`Took back a jump: ${pegCount()} pegs.`);
}

// tap plays a hole: a peg is picked (or let go), a lit hole is jumped to.
function tap(h) {
  if (game.solution) return;
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

function finish() {
  const n = pegCount();
  const last = game.pegs.indexOf(true);
  let stars = 0;
  if (n === 1 && (game.goalHole < 0 || last === game.goalHole)) {
    stars = game.hintUsed ? 2 : 3;
    say(`Solved in ${plural(game.history.length, 'jump')}!` + (game.hintUsed ? ' (with help)' : ''));
  } else if (n === 1) {
    stars = 2;
    say(`One peg, at ${label(last)}; the goal was ${game.level.goal_hole}.`);
  } else {
    say(`No jump left: ${n} pegs. Undo, or ask for a HINT.`);
  }
  $('stars').dataset.stars = String(stars);
  $('stars').textContent = '\u2605'.repeat(stars) + '\u2606'.repeat(3 - stars);
}

// Hints.

const hintRequest = () => ({level: game.level.id, history: game.history.map(jumpText).join(', ')});

async function askHint() {
  if (game.solution || !game.level) return;
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
  if (!game.helpers || !game.level) return;
  const v = game.version;
  const h = await api('/api/hint', hintRequest());
  if (v !== game.version) return;
  game.movable = new Set(h.movable.map((l) => game.byLabel.get(l)));
  $('helper').textContent = h.one_peg_possible ? 'One peg: still possible.' :
    `One peg: out of reach (${plural(h.fewest_reachable, 'peg')} at best).`;
  render();
}

// Solutions.

async function showSolution() {
  if (!game.level) return;
  say('Finding a solution with the fewest moves\u2026');
  const sol = await api('/api/solve', {level: game.level.id, metric: 'moves'});
  if (!sol.solvable) {
    say('This level has no solution.');
    return;
  }
  const jumps = [];
  for (const move of sol.solution) {
    const holes = move.split('-').map((l) => game.byLabel.get(l));
    for (let i = 0; i + 1 < holes.length; i++) {
      jumps.push(game.jumps.find((j) => j[0] === holes[i] && j[2] === holes[i + 1]));
    }
  }
  game.hintUsed = true;
  game.solution = {jumps, step: 0};
  $('stepper').hidden = false;
  say(`A solution of ${plural(sol.moves, 'move')} (${plural(jumps.length, 'jump')}), no fewer: ${sol.solution.join(', ')}.`);
  step(0);
}

function step(d) {
  const s = game.solution;
  s.step = Math.min(Math.max(s.step + d, 0), s.jumps.length);
  setPosition(s.jumps.slice(0, s.step));
  $('step').textContent = `jump ${s.step} of ${s.jumps.length}`;
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
  if (e.ctrlKey || e.metaKey || e.altKey || tag === 'SELECT' || tag === 'INPUT' || !game.level) return;
  const k = e.key.toLowerCase();
  if (directions[k]) {
    moveCursor(...directions[k]);
  } else if ((k === 'enter' || k === ' ') && tag !== 'BUTTON') {
    $('board').classList.add('keys');
    tap(game.cursor);
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
    showPack(pack, pack.levels[0].id).catch(fail);
  });
  $('level').addEventListener('change', () => loadLevel($('level').value).catch(fail));
  $('helpers').addEventListener('change', () => {
    game.helpers = $('helpers').checked;
    updateHelpers().catch(fail);
    render();
  });
  on('undo', undo);
  on('restart', restart);
  on('hint', askHint);
  on('solution', showSolution);
  on('prev', () => step(-1));
  on('next', () => step(1));
  on('leave', leaveSolution);
  document.addEventListener('keydown', onKey);
}

wire();
loadPacks().catch(fail);
