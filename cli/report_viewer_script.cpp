// The inline script of the report's step-through viewer: draws a step's board as board_svg
// draws it (render/board_draw.cpp), steps forward and back by buttons and arrow keys, and
// builds each game's moves file for "save the moves". Opened with #selftest, the page
// clicks through every game itself and writes PASS or what failed into the page (and to
// the parent frame), which the Chromium test reads; otherwise that code never runs.
#include "cli/report_viewer.h"

namespace rulebook::cli {

const char* viewer_script() {
  return R"JS((function () {
'use strict';
var ui = document.getElementById('viewer-ui'), holder = document.getElementById('viewer-data');
if (!ui || !holder) return;
var D = JSON.parse(holder.textContent), pick = ui.querySelector('select');
var BLOCKED = 1, FILLED = 2, GIVEN = 4, MOVED = 8, CAPTURED = 16;
var at = {game: 0, step: 0}, boards = [];
function $(cls) { return ui.querySelector('.' + cls); }
function esc(s) {
  return String(s).replace(/[&<>"]/g, function (c) { return {'&': '&amp;', '<': '&lt;', '>': '&gt;', '"': '&quot;'}[c]; });
}
function num(v) { return String(Math.round(v * 100) / 100); }
// The look of every cell at every step: the start's, then each step's changes applied.
function looksOf(g) {
  var out = [], cur = [];
  g.steps.forEach(function (s, k) {
    cur = k ? cur.slice() : s[7].slice();
    for (var i = 0; k && i < s[7].length; i += 2) cur[s[7][i]] = s[7][i + 1];
    out.push(cur);
  });
  return out;
}
function boardSvg(cells, legend) {
  var c = D.cell, W = D.w, H = D.h, m = c * 0.6, ox = m, oy = m, longest = 0, x, y, i, L;
  legend.forEach(function (l) { longest = Math.max(longest, l.length); });
  var width = num(Math.max(W * c + 2 * m, 200, ox + 6.6 * longest + 4)), height = num(oy + H * c + m + 15 * legend.length);
  function X(b) { return num(ox + b * c); }
  function Y(b) { return num(oy + b * c); }
  function rect(x0, y0, w, fill, extra) {
    return '<rect x="' + X(x0) + '" y="' + Y(y0) + '" width="' + num(w) + '" height="' + num(w) + '" fill="' + fill + '"' + (extra || '') + '/>';
  }
  var s = ['<svg xmlns="http://www.w3.org/2000/svg" width="' + width + '" height="' + height + '" viewBox="0 0 ' + width + ' ' + height +
           '" font-family="sans-serif" class="board"><rect width="' + width + '" height="' + height + '" fill="#ffffff"/>'];
  for (y = 0; y < H; ++y) for (x = 0; x < W; ++x) {
    L = D.looks[cells[y * W + x]];
    s.push(rect(x, y, c, L[0]));
    if (L[5] & BLOCKED) s.push('<path d="M' + X(x) + ' ' + Y(y + 1) + 'L' + X(x + 1) + ' ' + Y(y) + '" stroke="#ffffff" stroke-width="1"/>');
  }
  var grid = '', borders = '', R = D.regions;
  for (x = 1; x < W; ++x) grid += 'M' + X(x) + ' ' + Y(0) + 'V' + Y(H);
  for (y = 1; y < H; ++y) grid += 'M' + X(0) + ' ' + Y(y) + 'H' + X(W);
  if (grid) s.push('<path d="' + grid + '" stroke="#9e9e9e" stroke-width="1" fill="none"/>');
  for (y = 0; R.length && y < H; ++y) for (x = 0; x < W; ++x) {
    if (x + 1 < W && R[y * W + x + 1] !== R[y * W + x]) borders += 'M' + X(x + 1) + ' ' + Y(y) + 'V' + Y(y + 1);
    if (y + 1 < H && R[(y + 1) * W + x] !== R[y * W + x]) borders += 'M' + X(x) + ' ' + Y(y + 1) + 'H' + X(x + 1);
  }
  borders += 'M' + X(0) + ' ' + Y(0) + 'H' + X(W) + 'V' + Y(H) + 'H' + X(0) + 'Z';
  s.push('<path d="' + borders + '" stroke="#212121" stroke-width="' + num(Math.max(2, c / 14)) + '" fill="none" stroke-linecap="square"/>');
  var fs = c * 0.3;
  for (x = 0; x < W; ++x)
    s.push('<text x="' + X(x + 0.5) + '" y="' + num(oy - m * 0.3) + '" font-size="' + num(fs) + '" text-anchor="middle" fill="#757575">' + x + '</text>');
  for (y = 0; y < H; ++y)
    s.push('<text x="' + num(ox - m * 0.5) + '" y="' + num(oy + (y + 0.5) * c + fs * 0.35) + '" font-size="' + num(fs) + '" text-anchor="middle" fill="#757575">' + y + '</text>');
  for (y = 0; y < H; ++y) for (x = 0; x < W; ++x) {
    i = y * W + x;
    L = D.looks[cells[i]];
    var f = c * (L[2].length <= 2 ? 0.42 : 0.3);
    if (L[1]) s.push('<circle cx="' + X(x + 0.5) + '" cy="' + Y(y + 0.5) + '" r="' + num(c * 0.38) + '" fill="' + L[1] + '"/>');
    else if (L[5] & FILLED) s.push(rect(x + 0.12, y + 0.12, c * 0.76, '#424242'));
    if (L[2])
      s.push('<text data-c="' + i + '" x="' + X(x + 0.5) + '" y="' + num(oy + (y + 0.5) * c + f * 0.36) + '" font-size="' + num(f) +
             '" text-anchor="middle" fill="' + L[3] + '"' + (L[5] & GIVEN ? ' font-weight="bold" text-decoration="underline"' : '') +
             '>' + esc(L[2]) + '</text>');
    if (L[4]) s.push('<text x="' + X(x + 0.06) + '" y="' + Y(y + 0.24) + '" font-size="' + num(c * 0.18) + '" fill="#616161">' + esc(L[4]) + '</text>');
    if (L[5] & MOVED) s.push(rect(x + 0.06, y + 0.06, c * 0.88, 'none', ' stroke="' + D.colours.move + '" stroke-width="' + num(c / 10) + '"'));
    if (L[5] & CAPTURED)
      s.push('<path d="M' + X(x + 0.25) + ' ' + Y(y + 0.25) + 'L' + X(x + 0.75) + ' ' + Y(y + 0.75) + 'M' + X(x + 0.75) + ' ' + Y(y + 0.25) + 'L' +
             X(x + 0.25) + ' ' + Y(y + 0.75) + '" stroke="' + D.colours.capture + '" stroke-width="' + num(c / 12) + '"/>');
  }
  legend.forEach(function (l, k) {
    s.push('<text x="' + num(ox) + '" y="' + num(oy + H * c + m + 15 * (k + 0.7)) + '" font-size="12" fill="#424242">' + esc(l) + '</text>');
  });
  return s.join('\n') + '\n</svg>';
}
function scoresText(g) {
  var w = D.score_width;
  return D.subjects.map(function (n, k) { return n + ' ' + g.scores.slice(k * w, (k + 1) * w).join('/'); }).join(', ');
}
function show() {
  var g = D.games[at.game], s = g.steps[at.step], n = g.steps.length - 1, words = ['ply ' + at.step + ' of ' + n];
  $('viewer-board').innerHTML = boardSvg(boards[at.step], D.legends[s[2]]);
  if (D.phases.length > 1) words.push('phase ' + D.phases[s[1]]);
  if (s[0] >= 0) words.push(D.players[s[0]] + ' to move');
  else words.push('game over' + (g.scores ? ': ' + scoresText(g) : ''));
  if (at.step === n && s[0] >= 0) words.push(g.error ? 'stopped by an error: ' + g.error : 'the end of this line');
  $('viewer-status').textContent = words.join(' · ');
  $('viewer-last').textContent = at.step ? D.players[s[4]] + ' ' + D.moves[s[3]] : 'none (the start)';
  $('viewer-count').textContent = s[5];
  $('viewer-legal').textContent = s[5] === 0 ? 'none' : s[6].map(function (k) { return D.moves[k]; }).join(', ') + (s[5] > s[6].length ? ', … ' + (s[5] - s[6].length) + ' more' : '');
  ui.querySelectorAll('[data-step]').forEach(function (b) {
    var back = /first|prev/.test(b.getAttribute('data-step'));
    b.disabled = back ? at.step === 0 : at.step === n;
  });
}
function go(step) {
  at.step = Math.max(0, Math.min(D.games[at.game].steps.length - 1, step));
  show();
}
function movesText(g) { return g.head + g.steps.slice(1).map(function (s) { return D.moves[s[3]] + '\n'; }).join(''); }
function choose(k) {
  var g = D.games[k], a = $('viewer-export');
  at.game = k;
  boards = looksOf(g);
  if (g.head === null) {
    a.removeAttribute('href');
    a.removeAttribute('download');
    a.textContent = 'not saved: this line starts from setup values --setup cannot name';
  } else {
    a.href = 'data:text/plain;charset=utf-8,' + encodeURIComponent(movesText(g));
    a.download = g.file;
    a.textContent = 'save the moves (' + g.file + ')';
  }
  go(0);
}
ui.addEventListener('click', function (ev) {
  var b = ev.target.closest('[data-step]');
  if (!b) return;
  var k = b.getAttribute('data-step');
  go(k === 'first' ? 0 : k === 'last' ? Infinity : at.step + (k === 'next' ? 1 : -1));
});
ui.addEventListener('keydown', function (ev) {
  if (ev.target.tagName === 'SELECT') return;
  var to = {ArrowRight: at.step + 1, ArrowLeft: at.step - 1, Home: 0, End: Infinity}[ev.key];
  if (to === undefined) return;
  go(to);
  ev.preventDefault();
});
pick.addEventListener('change', function () { choose(Number(pick.value)); });
choose(0);
if (location.hash !== '#selftest') return;
// Each game: forward, back, to the end and back and forth by keys, each time the board's
// cell texts against the step's data applied afresh from the start.
var fails = [];
function labels() {
  var o = {};
  $('viewer-board').querySelectorAll('text[data-c]').forEach(function (t) { o[t.getAttribute('data-c')] = t.textContent; });
  return o;
}
function expect(k, what) {
  var g = D.games[at.game], cur = g.steps[0][7].slice(), want = {};
  for (var j = 1; j <= k; ++j) for (var i = 0; i < g.steps[j][7].length; i += 2) cur[g.steps[j][7][i]] = g.steps[j][7][i + 1];
  cur.forEach(function (l, c) { if (D.looks[l][2]) want[c] = D.looks[l][2]; });
  if (at.step !== k || JSON.stringify(labels()) !== JSON.stringify(want)) fails.push(g.title + ': ' + what);
}
function click(name) { ui.querySelector('[data-step="' + name + '"]').dispatchEvent(new MouseEvent('click', {bubbles: true})); }
function key(name) { $('viewer-board').dispatchEvent(new KeyboardEvent('keydown', {key: name, bubbles: true})); }
D.games.forEach(function (g, k) {
  var n = g.steps.length - 1;
  pick.value = String(k);
  pick.dispatchEvent(new Event('change'));
  expect(0, 'the start');
  if (n > 0) { click('next'); expect(1, 'forward'); click('prev'); expect(0, 'back'); }
  click('last');
  expect(n, 'the end');
  if (n > 0) { key('ArrowLeft'); expect(n - 1, 'arrow key back'); key('ArrowRight'); expect(n, 'arrow key forward'); }
});
pick.value = '0';
pick.dispatchEvent(new Event('change'));
click('last');
var result = document.createElement('p'), a = $('viewer-export');
result.id = 'viewer-selftest';
result.textContent = fails.length ? 'FAIL: ' + fails.join('; ') : 'PASS';
ui.appendChild(result);
if (window.parent !== window)
  window.parent.postMessage({page: location.pathname, selftest: result.textContent, labels: labels(),
                             moves: a.href ? decodeURIComponent(a.href.slice(a.href.indexOf(',') + 1)) : ''}, '*');
})();
)JS";
}

}  // namespace rulebook::cli
