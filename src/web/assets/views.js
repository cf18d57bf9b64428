// The page's views, drawn from what the server's engine answered: the
// wide row (partitions and their rows, marked and absent cells), the ring
// (nodes at their tokens with their parts in the statement), the plan, the
// metrics, Cassandra's refusal, the linter's advice and the HBase regions.
// Text goes in through textContent only: values come from user data.

const SVG = 'http://www.w3.org/2000/svg';

export function el(tag, attrs = {}, ...children) {
  const node = document.createElement(tag);
  for (const [k, v] of Object.entries(attrs)) {
    if (v === undefined || v === null || v === false) continue;
    if (k === 'class') node.className = v;
    else if (k === 'text') node.textContent = v;
    else node.setAttribute(k, v === true ? '' : String(v));
  }
  for (const child of children.flat()) {
    if (child === null || child === undefined) continue;
    node.append(child instanceof Node ? child : document.createTextNode(String(child)));
  }
  return node;
}

function svg(tag, attrs = {}, text) {
  const node = document.createElementNS(SVG, tag);
  for (const [k, v] of Object.entries(attrs)) node.setAttribute(k, String(v));
  if (text !== undefined) node.textContent = text;
  return node;
}

function facts(pairs) {
  const dl = el('dl', { class: 'facts' });
  for (const [term, value] of pairs) {
    if (value === undefined || value === null || value === '') continue;
    dl.append(el('dt', { text: term }), el('dd', {}, value));
  }
  return dl;
}

// The wide row of every table the statement touched.
export function wideRow(container, focus) {
  container.replaceChildren();
  const tables = focus?.facts?.tables ?? [];
  if (!tables.length) {
    container.append(el('p', { class: 'idle', text: focus?.kind === 'error'
      ? 'Nothing was read: the statement did not run.' : 'No partition was touched.' }));
    return;
  }
  const verb = focus.facts.verb;
  for (const table of tables) {
    container.append(el('h3', { text: `${table.table} · ${count(table.partitions.length + table.hidden_partitions, 'partition')}` }));
    container.append(el('p', { class: 'small', text: focus.facts.marks_known
      ? `▶ rows this statement ${verb}; “—” marks a cell that holds no value (sparse).`
      : 'The rows this statement touched could not be worked out: none marked.' }));
    if (!table.partitions.length) container.append(el('p', { class: 'idle', text: '(no live rows)' }));
    for (const partition of table.partitions) container.append(partitionBlock(table, partition));
    if (table.hidden_partitions) {
      container.append(el('p', { class: 'small', text: `… ${count(table.hidden_partitions, 'more partition')} not shown` }));
    }
  }
}

function partitionBlock(table, partition) {
  const keyColumns = table.columns.filter(c => c.kind === 'partition key');
  const keyText = keyColumns.map((c, i) => `${c.name} = ${partition.key[i]}`).join(', ');
  const marked = partition.rows.filter(r => r.marked).length;
  const head = el('div', { class: 'partition-head' },
    el('span', {}, el('strong', { text: 'partition ' }), keyText),
    el('span', { class: 'mono', text: `token ${partition.token}` }),
    el('span', { text: `${count(partition.rows.length + partition.hidden_rows, 'row')}, ${marked} marked` }),
    partition.hot ? el('span', { class: 'badge', text: 'HOT PARTITION' }) : null);
  const thead = el('tr', {}, el('th', { scope: 'col' }, el('span', { class: 'kind', text: 'read' })),
    table.columns.map(c => el('th', { scope: 'col' }, c.name, el('span', { class: 'kind', text: `${c.kind} · ${c.data_type}` }))));
  const body = el('tbody');
  for (const row of partition.rows) {
    const tr = el('tr', { class: row.marked ? 'marked' : '', 'data-marked': row.marked ? 'true' : 'false' },
      el('td', { class: 'mark', text: row.marked ? '▶' : '' }));
    row.cells.forEach(cell => {
      tr.append(cell === null
        ? el('td', { class: 'absent', title: 'no value stored', text: '—' })
        : el('td', { title: cell, text: cell }));
    });
    body.append(tr);
  }
  if (partition.hidden_rows) {
    body.append(el('tr', { class: 'elided' }, el('td', { colspan: table.columns.length + 1,
      text: `… ${count(partition.hidden_rows, 'more row')} in this partition not shown` })));
  }
  return el('div', {
    class: partition.hot ? 'partition hot' : 'partition',
    'data-token': partition.token,
    'data-hot': partition.hot ? 'true' : 'false',
  }, head, el('div', { class: 'scroll', tabindex: '0', role: 'region', 'aria-label': `rows of partition ${keyText}` },
    el('table', {}, el('caption', { class: 'visually-hidden', text: `Rows of partition ${keyText}` }), el('thead', {}, thead), body)));
}

// The angle of a token on the ring: the minimum token at the top, tokens
// increasing clockwise.
function angleOf(token) {
  const t = BigInt(token);
  const min = -(2n ** 63n);
  const fraction = Number((t - min) * 10000n / (2n ** 64n)) / 10000;
  return fraction * 2 * Math.PI - Math.PI / 2;
}

// The ring: every node at its first token, tagged with its part.
export function ring(container, cluster, focus) {
  container.replaceChildren();
  const nodes = focus?.facts?.nodes ?? fromPartial(cluster, focus?.partial);
  const size = 380, c = size / 2;
  const root = svg('svg', { viewBox: `0 0 ${size} ${size}`, role: 'img',
    'aria-label': ringSummary(nodes, focus) });
  // One circle per data centre, the first outside: each places its own
  // replicas by walking its own nodes' tokens.
  const datacenters = [...new Set(nodes.map(n => n.datacenter))];
  const tokens = focusTokens(focus);
  const coordinator = nodes.find(n => n.coordinator);
  const scanned = scannedRanges(focus, nodes);
  datacenters.forEach((dc, k) => {
    const r = k === 0 ? 118 : Math.max(40, 118 - 50 * k);
    const inner = k > 0;
    const at = token => { const a = angleOf(token); return [c + r * Math.cos(a), c + r * Math.sin(a)]; };
    const members = nodes.filter(n => n.datacenter === dc);
    root.append(svg('circle', { class: 'circle', cx: c, cy: c, r, 'data-datacenter': dc }));
    const sorted = [...members].sort((a, b) => (BigInt(a.tokens[0]) < BigInt(b.tokens[0]) ? -1 : 1));
    sorted.forEach((node, i) => {
      const previous = sorted[(i + sorted.length - 1) % sorted.length];
      if (!scanned.has(node.id) || sorted.length < 2) return;
      root.append(arc(c, r, angleOf(previous.tokens[0]), angleOf(node.tokens[0])));
    });
    for (const node of members) {
      const [x, y] = at(node.tokens[0]);
      const roles = ['coordinator', 'replica', 'contacted', 'asked', 'hot'].filter(key => node[key]);
      if (scanned.has(node.id)) roles.push('range');
      if (!node.up) roles.push('down');
      const g = svg('g', { class: ['node', ...roles].join(' '), 'data-node': node.id, 'data-token': node.tokens[0],
        'data-datacenter': dc, 'data-roles': roles.join(' '), 'data-up': String(node.up) });
      g.append(svg('circle', { cx: x, cy: y, r: inner ? 12 : 17 }));
      const a = angleOf(node.tokens[0]);
      const labelX = c + (inner ? r - 30 : r + 42) * Math.cos(a);
      const labelY = c + (inner ? r - 26 : r + 36) * Math.sin(a);
      g.append(svg('text', { x: labelX, y: labelY - 6, 'text-anchor': 'middle' }, node.id));
      g.append(svg('text', { class: 'tags', x: labelX, y: labelY + 8, 'text-anchor': 'middle' }, tagText(node)));
      root.append(g);
    }
    for (const token of tokens) {
      const [x, y] = at(token);
      root.append(svg('circle', { class: 'token-mark', cx: x, cy: y, r: inner ? 5 : 6, 'data-token': token }));
    }
  });
  const labelY = datacenters.length > 1 ? size - 6 : c + 4;
  if (tokens.length === 1) {
    root.append(svg('text', { class: 'token-label', x: c, y: labelY, 'text-anchor': 'middle' }, `token ${tokens[0]}`));
  } else if (focus?.class === 'scatter-gather') {
    root.append(svg('text', { class: 'token-label', x: c, y: labelY, 'text-anchor': 'middle' }, 'every token range'));
  }
  container.append(root);
  if (datacenters.length > 1) {
    container.append(el('p', { class: 'small', text: `Outer circle ${datacenters[0]}; inner ${datacenters.slice(1).join(', ')}.` }));
  }
  if (coordinator && focus?.plan) {
    const others = (focus.plan.nodes ?? []).filter(n => n !== coordinator.id);
    container.append(el('p', { class: 'route', text: others.length
      ? `client → ${coordinator.id} → ${others.join(', ')}` : `client → ${coordinator.id} (answers itself)` }));
  }
}

// The ring's nodes for a statement that did not run: the coordinator and
// the replicas of the partitions the planner had named before it stopped.
function fromPartial(cluster, partial) {
  const targets = partial?.partitions?.kind === 'keys' ? partial.partitions.partitions : [];
  return cluster.nodes.map(n => ({
    ...n,
    coordinator: partial?.coordinator === n.id,
    replica: targets.some(t => t.replicas.includes(n.id)),
  }));
}

// The nodes whose token range (ending at their first token) the statement
// scans: all of them for a read of the whole ring.
function scannedRanges(focus, nodes) {
  const partitions = focus?.plan?.partitions;
  if (partitions?.kind === 'all') return new Set(nodes.map(n => n.id));
  return new Set();
}

// The arc of the ring from angle a to angle b, clockwise.
function arc(c, r, a, b) {
  let sweep = b - a;
  if (sweep <= 0) sweep += 2 * Math.PI;
  const [x1, y1] = [c + r * Math.cos(a), c + r * Math.sin(a)];
  const [x2, y2] = [c + r * Math.cos(a + sweep), c + r * Math.sin(a + sweep)];
  const large = sweep > Math.PI ? 1 : 0;
  return svg('path', { class: 'arc scanned', d: `M ${x1} ${y1} A ${r} ${r} 0 ${large} 1 ${x2} ${y2}` });
}

function tagText(node) {
  const tags = [];
  if (node.coordinator) tags.push('C');
  if (node.replica) tags.push(node.contacted ? 'R*' : 'R');
  else if (node.contacted) tags.push('*');
  if (node.asked) tags.push('S');
  if (node.hot) tags.push('H');
  if (!node.up) tags.push('DOWN');
  return tags.join(' ');
}

function ringSummary(nodes, focus) {
  const parts = nodes.map(n => `${n.id}${tagText(n) ? ` (${tagText(n)})` : ''}`);
  const tokens = focusTokens(focus);
  const where = tokens.length ? ` Partition token ${tokens.join(', ')}.` : '';
  return `Ring of ${nodes.length} nodes: ${parts.join(', ')}.${where}`;
}

function focusTokens(focus) {
  const partitions = focus?.plan?.partitions ?? focus?.partial?.partitions;
  if (partitions?.kind !== 'keys') return [];
  return partitions.partitions.map(p => p.token).filter(t => /^-?\d+$/.test(t));
}

export function plan(container, focus) {
  container.replaceChildren();
  const p = focus?.plan;
  if (!p) {
    const partial = focus?.partial;
    if (!partial) { container.append(el('p', { class: 'idle', text: 'No plan: the statement did not plan.' })); return; }
    container.append(facts([
      ['class', el('span', { class: 'class-name rejected', 'data-class': focus.class ?? 'unavailable',
        text: focus.class === 'rejected' ? 'rejected (not run)' : 'unavailable (not run)' })],
      ['table', partial.table],
      ['restrictions', partial.restrictions.map(r => `${r.relation} (${r.restricts})`).join('; ') || 'none understood'],
      ['partitions', partitionsText(partial.partitions)],
      ['consistency', partial.consistency],
      ['coordinator', partial.coordinator],
    ]));
    return;
  }
  container.append(facts([
    ['class', el('span', { class: `class-name ${p.class}`, 'data-class': p.class, text: p.class })],
    ['statement', `${p.statement.toUpperCase()} on ${p.table}`],
    ['partitions', partitionsText(p.partitions)],
    ['clustering', p.clustering.join(' AND ')],
    ['filters', p.filters.join(' AND ')],
    ['index', p.index],
    ['order', p.order === 'reversed' ? 'reversed clustering order' : null],
    ['limit', p.limit],
    ['consistency', p.consistency],
    ['coordinator', p.coordinator],
    ['nodes', (p.nodes ?? []).join(', ')],
    ['warnings', (p.warnings ?? []).join(' ')],
  ]));
}

function partitionsText(partitions) {
  if (!partitions) return 'not established';
  if (partitions.kind === 'all') return 'every token range (the whole ring)';
  if (partitions.kind === 'token-range') {
    const r = partitions.range;
    return `token range ${r.start_inclusive ? '[' : '('}${r.start ?? 'min'}, ${r.end ?? 'max'}${r.end_inclusive ? ']' : ')'}`;
  }
  return partitions.partitions.map(t => {
    let text = `(${t.key.join(', ')}) token ${t.token} · replicas ${t.replicas.join(', ')}`;
    if (t.contacted.length) text += ` · contacted ${t.contacted.join(', ')} (waits for ${t.required})`;
    if (t.down.length) text += ` · down ${t.down.join(', ')}`;
    return text;
  }).join('\n');
}

export function metrics(container, focus, cluster) {
  container.replaceChildren();
  const m = focus?.metrics;
  if (!m) { container.append(el('p', { class: 'idle', text: '—' })); return; }
  const total = cluster.nodes.length;
  container.append(facts([
    ['partitions', String(m.partitions_touched)],
    ['rows scanned', String(m.rows_scanned)],
    ['rows returned', String(m.rows_returned)],
    ['nodes', `${m.nodes_contacted.length} of ${total}${m.nodes_contacted.length ? ` (${m.nodes_contacted.join(', ')})` : ''}`],
    ['warnings', (focus.warnings ?? []).join(' ')],
    ['notes', (focus.notes ?? []).join(' ')],
  ]));
}

export function error(container, focus) {
  container.replaceChildren();
  const statement = el('pre', { class: 'code statement' });
  const cql = focus.cql ?? '';
  if (focus.underline) {
    const { start, end } = focus.underline;
    statement.append(cql.slice(0, start), el('u', { text: cql.slice(start, end) }), cql.slice(end));
  } else {
    statement.append(cql);
  }
  container.append(
    el('p', { class: 'message' }, el('span', { class: 'error-kind', text: focus.error }), ': ',
      el('span', { class: 'error-message', text: focus.message })),
    statement);
  if (focus.underline) {
    container.append(el('p', { class: 'small', text: focus.message.includes('ALLOW FILTERING')
      ? 'The underlined relation is the one that needs filtering.'
      : 'Underlined: the part of the statement the error is about.' }));
  }
}

export function advice(container, focus, onTry) {
  container.replaceChildren();
  for (const finding of focus.lint ?? []) {
    container.append(el('div', { class: 'finding' },
      el('span', { class: 'level', text: `${finding.level} ${finding.code} ${finding.rule}` }),
      el('p', { class: 'message', text: finding.message }),
      finding.help ? el('p', { class: 'small', text: finding.help }) : null));
  }
  const s = focus.suggestion;
  if (s) {
    const script = [s.create_table, s.query].filter(Boolean).join('\n');
    const button = el('button', { type: 'button', id: 'try-suggestion', text: 'Try the suggested table' });
    button.addEventListener('click', () => onTry(script));
    container.append(el('h3', { text: 'Suggested query table' }), el('p', { text: s.help }),
      el('pre', { class: 'code', text: script }), button);
  }
  return (focus.lint ?? []).length > 0 || !!s;
}

export function result(container, focus) {
  container.replaceChildren();
  if (focus?.kind !== 'rows' || !focus.columns) {
    container.append(el('p', { class: 'idle', text: focus?.kind === 'ok' ? 'Done.' : '—' }));
    return;
  }
  const total = focus.rows_total ?? focus.rows.length;
  const shown = focus.rows.slice(0, 50);
  const head = el('tr', {}, focus.columns.map(c => el('th', { scope: 'col', text: c })));
  const body = el('tbody', {}, shown.map(row => el('tr', {}, row.map(v =>
    el('td', { text: v === null ? 'null' : typeof v === 'object' ? JSON.stringify(v) : String(v) })))));
  container.append(el('p', { class: 'small', text: `${count(total, 'row')}${total > 50 ? ', the first 50 shown' : ''}` }),
    el('div', { class: 'scroll', tabindex: '0', role: 'region', 'aria-label': 'result rows' },
      el('table', {}, el('thead', {}, head), body)));
}

export function hbase(container, view) {
  container.replaceChildren();
  container.append(el('p', { class: 'small', text:
    `${view.table}: ${count(view.rows, 'row')}, regions split past ${view.split_rows} rows, on ${view.servers} region servers. ` +
    `Green: regions holding rows this statement touched; red outline: regions taking the newest ${view.designs[0]?.newest_writes ?? 0} writes.` }));
  const labels = {
    'primary-key': 'Row key = Cassandra\'s key (partition key # clustering)',
    'time-first': `Row key starts with the write time${view.time_column ? ` (${view.time_column})` : ''}`,
    'salted': 'Salted row key (hash bucket # key)',
  };
  const grid = el('div', { class: 'designs' });
  for (const design of view.designs) {
    const hit = design.regions.filter(r => r.newest_writes > 0).length;
    const box = el('div', { class: 'design', 'data-design': design.design, 'data-regions': design.regions.length,
      'data-newest-regions': hit, 'data-last-share': design.last_region_share },
      el('h3', { text: labels[design.design] ?? design.design }),
      el('p', { class: 'small', text: `${count(design.regions.length, 'region')}; ${design.last_region_share}% of the writes `
        + `landed in the region that was last when they arrived; the newest ones are in ${count(hit, 'region')}.` }));
    const list = el('div', { class: 'regions' });
    for (const region of design.regions.slice(0, 40)) {
      const classes = ['region'];
      if (region.touched) classes.push('touched');
      if (region.newest_writes) classes.push('newest');
      list.append(el('div', { class: classes.join(' ') },
        el('span', { text: `[${region.start ?? '−∞'} … ${region.end ?? '+∞'})` }),
        el('span', { text: `${region.rows} rows · ${region.server}${region.touched ? ` · ${region.touched} touched` : ''}` })));
    }
    if (design.regions.length > 40) list.append(el('p', { class: 'small', text: `… ${design.regions.length - 40} more regions` }));
    box.append(list);
    grid.append(box);
  }
  container.append(grid);
}

export function count(n, word) {
  return `${n.toLocaleString('en')} ${n === 1 ? word : `${word}s`}`;
}
