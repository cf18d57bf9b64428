// The page's controller: one tab session on the server, the presets and
// the controls, and the views redrawn from each answer. Plain ES modules,
// run by the browser as written: nothing to build.

import * as views from './views.js';

const $ = id => document.getElementById(id);
const state = { tab: null, presets: null, cluster: null, focus: null };

async function api(path, body) {
  const response = await fetch(path, {
    method: body === undefined ? 'GET' : 'POST',
    headers: body === undefined ? {} : { 'Content-Type': 'application/json' },
    body: body === undefined ? undefined : JSON.stringify(body),
  });
  const answer = await response.json().catch(() => ({ error: `HTTP ${response.status}` }));
  if (!response.ok) throw new Error(answer.error ?? `HTTP ${response.status}`);
  return answer;
}

function say(text) { $('status').textContent = text; }

function model() { return state.presets.models.find(m => m.id === $('model').value); }

function fillModels() {
  $('model').replaceChildren(...state.presets.models.map(m => views.el('option', { value: m.id, text: m.label })));
  $('consistency').replaceChildren(...state.presets.consistency_levels.map(l => views.el('option', { value: l, text: l })));
}

function fillQueries(queryId) {
  const m = model();
  $('preset').replaceChildren(...m.queries.map(q => views.el('option', { value: q.id, text: q.label })),
    views.el('option', { value: 'custom', text: 'Your own CQL' }));
  $('model-about').textContent = m.about;
  $('schema').textContent = m.schema;
  if (queryId && (queryId === 'custom' || m.queries.some(q => q.id === queryId))) $('preset').value = queryId;
  pickQuery();
}

function pickQuery() {
  const q = model().queries.find(q => q.id === $('preset').value);
  if (q) setCql(q.cql);
}

let lexTimer = null;
function setCql(text) {
  $('cql').value = text;
  lex();
}

async function lex() {
  clearTimeout(lexTimer);
  const text = $('cql').value;
  const answer = await api('/api/highlight', { cql: text }).catch(() => null);
  if (!answer || $('cql').value !== text) return;
  const pre = $('lexed');
  pre.replaceChildren();
  let at = 0;
  for (const span of answer.spans) {
    if (span.start > at) pre.append(text.slice(at, span.start));
    pre.append(views.el('span', { class: span.style, text: text.slice(span.start, span.end) }));
    at = span.end;
  }
  pre.append(text.slice(at));
}

function drawCluster() {
  const c = state.cluster;
  $('consistency').value = c.consistency;
  $('nodes').value = c.nodes_per_dc;
  $('rf').value = c.rf;
  $('second-dc').checked = c.second_dc;
  $('split').value = c.split_rows;
  $('node-toggles').replaceChildren(...c.nodes.map(n => {
    const b = views.el('button', { type: 'button', 'data-node': n.id, 'aria-pressed': String(!n.up),
      text: `${n.id} ${n.up ? 'up' : 'down'}` });
    b.addEventListener('click', () => control({ node: { id: n.id, up: !n.up } }));
    return b;
  }));
}

function draw() {
  const f = state.focus;
  views.wideRow($('wide-row'), f);
  views.ring($('ring'), state.cluster, f);
  views.plan($('plan'), f);
  views.metrics($('metrics'), f, state.cluster);
  views.result($('result'), f);
  const failed = f?.kind === 'error';
  $('error-panel').hidden = !failed;
  if (failed) views.error($('error'), f);
  const advised = f ? views.advice($('advice'), f, tryScript) : false;
  $('advice-panel').hidden = !advised;
}

async function tryScript(script) {
  $('preset').value = 'custom';
  setCql(script);
  await run();
}

async function run() {
  say('Running…');
  document.body.dataset.ready = 'false';
  try {
    const answer = await api('/api/run', { tab: state.tab, cql: $('cql').value });
    state.cluster = answer.cluster;
    state.focus = answer.focus;
    $('log').replaceChildren(...answer.statements.map(s => views.el('li', { class: s.kind === 'error' ? 'err' : '',
      text: `line ${s.line}: ${s.cql} → ${s.kind === 'error' ? `${s.error}: ${s.message}` : s.class ?? s.kind}` })));
    drawCluster();
    draw();
    const f = state.focus;
    say(f?.kind === 'error' ? `${f.error}: ${f.message}` : `${f?.class ?? 'done'} · ${views.count(f?.rows_total ?? 0, 'row')}`);
    shareUrl();
    await placeRows();
  } catch (e) {
    say(`Error: ${e.message}`);
  }
  document.body.dataset.ready = 'true';
}

async function placeRows(split) {
  $('hbase').replaceChildren(views.el('p', { class: 'idle', text: 'Placing rows…' }));
  const table = state.focus?.plan?.table ?? state.focus?.partial?.table;
  if (!table || table.includes(',')) return;
  const body = { tab: state.tab, table, cql: state.focus?.kind === 'error' ? undefined : state.focus.cql };
  if (split !== undefined) body.split_rows = split;
  try {
    views.hbase($('hbase'), await api('/api/hbase', body));
  } catch (e) {
    say(`Error: ${e.message}`);
  }
}

async function control(change) {
  say('Changing the cluster…');
  document.body.dataset.ready = 'false';
  try {
    const answer = await api('/api/controls', { tab: state.tab, ...change });
    state.cluster = answer.cluster;
    $('control-notes').textContent = answer.notes.join(' ');
    drawCluster();
    await run();
  } catch (e) {
    say(`Error: ${e.message}`);
    document.body.dataset.ready = 'true';
  }
}

function applyControls() {
  const change = { consistency: $('consistency').value, rf: Number($('rf').value), second_dc: $('second-dc').checked };
  if (Number($('nodes').value) !== state.cluster.nodes_per_dc) change.nodes = Number($('nodes').value);
  return control(change);
}

function shareUrl() {
  const params = new URLSearchParams({ model: $('model').value, query: $('preset').value });
  if ($('preset').value === 'custom') params.set('cql', $('cql').value);
  history.replaceState(null, '', `?${params}`);
}

async function start() {
  state.presets = await api('/api/presets');
  fillModels();
  const params = new URLSearchParams(location.search);
  if (params.get('model') && state.presets.models.some(m => m.id === params.get('model'))) $('model').value = params.get('model');
  fillQueries(params.get('query'));
  if (params.get('query') === 'custom' && params.get('cql')) setCql(params.get('cql'));
  const opened = await api('/api/tab', {});
  state.tab = opened.tab;
  state.cluster = opened.cluster;
  drawCluster();
  views.ring($('ring'), state.cluster, null);
  $('model').addEventListener('change', () => fillQueries());
  $('preset').addEventListener('change', pickQuery);
  $('cql').addEventListener('input', () => { $('preset').value = 'custom'; clearTimeout(lexTimer); lexTimer = setTimeout(lex, 200); });
  $('run').addEventListener('click', run);
  $('apply').addEventListener('click', applyControls);
  $('hbase-apply').addEventListener('click', () => placeRows(Number($('split').value)));
  $('reset').addEventListener('click', async () => {
    const answer = await api('/api/reset', { tab: state.tab });
    state.cluster = answer.cluster;
    state.focus = null;
    drawCluster();
    draw();
    $('control-notes').textContent = '';
    say('The tab is back to the preloaded models.');
  });
  $('share').addEventListener('click', async () => {
    shareUrl();
    try { await navigator.clipboard.writeText(location.href); say('Link copied.'); } catch { say(`Link: ${location.href}`); }
  });
  document.body.dataset.ready = 'true';
  if (params.get('model')) await run();
}

start().catch(e => say(`The page could not start: ${e.message}`));
