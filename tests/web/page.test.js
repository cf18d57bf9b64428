// The demo page in headless Chromium: the seed's four cases clicked
// through in order, then a refusal, a node taken down, the HBase view,
// URL sharing, the accessibility check and the two viewports. Every fact
// about a partition (its token, its replicas) is computed independently of
// the page, by the Python driver (oracle.py) against `widerow serve`.

import { test, before, after } from 'node:test';
import assert from 'node:assert/strict';
import { spawn } from 'node:child_process';
import { createInterface } from 'node:readline';
import { readFileSync, mkdirSync } from 'node:fs';
import { createRequire } from 'node:module';
import { chromium } from 'playwright-core';

const URL_BASE = process.env.WEB_URL;
const SHOTS = process.env.SCREENSHOTS;
const FLAGS = ['--headless', '--no-sandbox', '--disable-gpu', '--disable-quic', '--no-first-run',
  '--disable-background-networking', '--disable-component-update', '--disable-sync'];
const ALL_NODES = ['node1', 'node2', 'node3', 'node4'];

let context, page, oracle, answers;
const pageErrors = [];

// Asks the oracle for the token and replicas of one partition key.
async function partitionFacts(type, value) {
  oracle.stdin.write(`${JSON.stringify({ type, value })}\n`);
  const { value: line } = await answers.next();
  return JSON.parse(line);
}

before(async () => {
  assert.ok(URL_BASE, 'WEB_URL names the running `widerow web`');
  oracle = spawn(process.env.ORACLE_PYTHON, ['oracle.py', process.env.ORACLE_PORT], { stdio: ['pipe', 'pipe', 'inherit'] });
  answers = createInterface({ input: oracle.stdout })[Symbol.asyncIterator]();
  const { value: ready } = await answers.next();
  assert.deepEqual(JSON.parse(ready), { ready: true });
  mkdirSync(SHOTS, { recursive: true });
  context = await chromium.launchPersistentContext(process.env.USER_DATA_DIR, {
    executablePath: '/usr/bin/chromium', headless: true, args: FLAGS, viewport: { width: 1440, height: 900 },
  });
  page = context.pages()[0] ?? await context.newPage();
  page.on('pageerror', e => pageErrors.push(String(e)));
  await page.goto(URL_BASE);
  await page.waitForSelector('body[data-ready=true]');
});

after(async () => {
  await context?.close();
  oracle?.stdin.end();
});

async function shot(name) {
  await page.screenshot({ path: `${SHOTS}/${name}.png`, fullPage: true });
}

// Picks a model and one of its queries, presses Run, and waits for the answer.
async function runPreset(model, query) {
  await page.selectOption('#model', model);
  await page.selectOption('#preset', query);
  await runCurrent();
}

async function runCurrent() {
  await page.click('#run');
  await page.waitForSelector('body[data-ready=true]');
}

async function nodeRoles() {
  return page.$$eval('#ring g.node', gs => Object.fromEntries(gs.map(g => [g.dataset.node, g.dataset.roles.split(' ').filter(Boolean)])));
}

const having = (roles, role) => Object.keys(roles).filter(n => roles[n].includes(role)).sort();

async function planClass() {
  return page.$eval('#plan [data-class]', e => e.dataset.class);
}

async function cql() {
  return page.inputValue('#cql');
}

test('1. inbox + partition range: one partition, its token and replicas marked on the ring', async () => {
  await runPreset('inbox', 'range');
  const user = (await cql()).match(/user_id = ([0-9a-f-]{36})/)[1];
  const expected = await partitionFacts('uuid', user);
  assert.equal(await planClass(), 'partition-scan');
  const partitions = await page.$$eval('#wide-row .partition', ps => ps.map(p => p.dataset.token));
  assert.deepEqual(partitions, [expected.token], 'the wide row shows the one partition, at the driver\'s token');
  assert.deepEqual(await page.$$eval('#ring .token-mark', ms => ms.map(m => m.dataset.token)), [expected.token]);
  const roles = await nodeRoles();
  assert.deepEqual(having(roles, 'replica'), expected.replicas);
  assert.deepEqual(having(roles, 'coordinator'), ['node1']);
  assert.deepEqual(having(roles, 'asked'), [], 'not a scatter-gather');
  const marked = await page.$$eval('#wide-row tr[data-marked=true]', rs => rs.length);
  const rows = await page.$$eval('#wide-row tr[data-marked]', rs => rs.length);
  assert.ok(marked > 0 && marked < rows, `a range of the partition is read (${marked} of ${rows})`);
  assert.ok(await page.$$eval('#wide-row td.absent', cs => cs.length) > 0, 'sparse cells are visibly absent');
  const metrics = await page.textContent('#metrics');
  assert.match(metrics, /partitions\s*1/);
  await shot('1-inbox-partition-range');
});

test('2. orders + full primary key: a single-row lookup', async () => {
  await runPreset('orders', 'key');
  const order = (await cql()).match(/order_id = ([0-9a-f-]{36})/)[1];
  const expected = await partitionFacts('timeuuid', order);
  assert.equal(await planClass(), 'point-lookup');
  assert.deepEqual(await page.$$eval('#wide-row .partition', ps => ps.map(p => p.dataset.token)), [expected.token]);
  assert.equal(await page.$$eval('#wide-row tr[data-marked=true]', rs => rs.length), 1);
  const roles = await nodeRoles();
  assert.deepEqual(having(roles, 'replica'), expected.replicas);
  assert.equal(having(roles, 'contacted').length, 1, 'consistency ONE contacts one replica');
  assert.ok(expected.replicas.includes(having(roles, 'contacted')[0]));
  await shot('2-orders-primary-key');
});

test('3. the status design + partition key: one hot partition, not a cluster scan', async () => {
  await runPreset('status', 'key');
  const expected = await partitionFacts('text', 'pending');
  const klass = await planClass();
  assert.notEqual(klass, 'scatter-gather');
  assert.equal(klass, 'partition-scan');
  const hot = await page.$$eval('#wide-row .partition[data-hot=true]', ps => ps.map(p => p.dataset.token));
  assert.deepEqual(hot, [expected.token], 'exactly one partition is hot, the pending one');
  const roles = await nodeRoles();
  assert.deepEqual(having(roles, 'replica'), expected.replicas);
  assert.deepEqual(having(roles, 'hot'), expected.replicas, 'the hot partition\'s replicas carry the load');
  assert.deepEqual(having(roles, 'asked'), []);
  assert.match(await page.textContent('#metrics'), /Hot partition \(pending\)/);
  assert.match(await page.textContent('#advice'), /M002 hot-partition/, 'the linter names the design');
  await shot('3-status-hot-partition');
  // The picture for the README: the wide row and ring, the plan and metrics.
  const views = await page.$$eval('.views', vs => vs.map(v => { const r = v.getBoundingClientRect();
    return { x: r.left + scrollX, y: r.top + scrollY, width: r.width, height: r.height }; }));
  const top = views[0], bottom = views[1];
  await page.screenshot({ path: `${SHOTS}/readme.png`, fullPage: true,
    clip: { x: top.x, y: top.y, width: top.width, height: bottom.y + bottom.height - top.y } });
});

test('4. no partition key: scatter-gather reads every token range, every node\'s range marked', async () => {
  await runPreset('inbox', 'scan');
  assert.equal(await planClass(), 'scatter-gather');
  const roles = await nodeRoles();
  assert.deepEqual(having(roles, 'range'), ALL_NODES, 'every node\'s token range is read');
  // The nodes asked hold, between them, a replica of every range (at ONE
  // one replica per range answers, so a covering subset is asked).
  const asked = having(roles, 'asked');
  assert.ok(asked.length >= 1);
  const ranges = await page.$$eval('#ring g.node', gs => gs.map(g => g.dataset.token));
  for (const end of ranges) {
    const { replicas } = await partitionFacts('token', end);
    assert.ok(replicas.some(r => asked.includes(r)), `the range ending at ${end} is read from one of ${replicas}`);
  }
  const tokens = await page.$$eval('#wide-row .partition', ps => ps.map(p => p.dataset.token));
  const users = ['a11ce000-0000-4000-8000-000000000001', 'b0b00000-0000-4000-8000-000000000002', 'ca201000-0000-4000-8000-000000000003'];
  const expected = [];
  for (const user of users) expected.push((await partitionFacts('uuid', user)).token);
  expected.sort((a, b) => (BigInt(a) < BigInt(b) ? -1 : 1));
  assert.deepEqual(tokens, expected, 'every partition, in token order');
  assert.equal(await page.$$eval('#ring .arc.scanned', as => as.length), 4, 'the whole ring is drawn as scanned');
  await shot('4-scatter-gather');
});

test('a refused query shows Cassandra\'s message with the relation underlined, and the linter', async () => {
  await runPreset('inbox', 'refused');
  assert.equal(await page.isVisible('#error-panel'), true);
  assert.equal(await page.textContent('#error .error-kind'), 'InvalidRequest');
  assert.equal(await page.textContent('#error .error-message'),
    'Cannot execute this query as it might involve data filtering and thus may have unpredictable performance. '
    + 'If you want to execute this query despite the performance unpredictability, use ALLOW FILTERING');
  assert.equal(await page.textContent('#error u'), "sender = 'boss@work.example.com'");
  assert.equal(await planClass(), 'rejected');
  assert.equal(await page.isVisible('#advice-panel'), true);
  assert.match(await page.textContent('#advice'), /allow-filtering-required/);
  await shot('5-refused');
});

test('the linter\'s suggested table is one click away and serves the query from one partition', async () => {
  await runPreset('inbox', 'refused');
  const button = await page.$('#try-suggestion');
  assert.ok(button, 'a suggested query table is offered');
  await button.click();
  await page.waitForSelector('body[data-ready=true]');
  assert.ok(['partition-scan', 'point-lookup'].includes(await planClass()));
  await shot('6-suggestion');
});

test('a node taken down turns a QUORUM read into Unavailable', async () => {
  await page.selectOption('#model', 'orders');
  await page.selectOption('#preset', 'key');
  const order = (await cql()).match(/order_id = ([0-9a-f-]{36})/)[1];
  const { replicas } = await partitionFacts('timeuuid', order);
  await page.selectOption('#consistency', 'QUORUM');
  await page.click('#apply');
  await page.waitForSelector('body[data-ready=true]');
  assert.equal(await planClass(), 'point-lookup');
  assert.equal(having(await nodeRoles(), 'contacted').length, 2, 'QUORUM of 3 contacts 2 replicas');
  await page.click(`#node-toggles button[data-node=${replicas[0]}]`);
  await page.waitForSelector('body[data-ready=true]');
  assert.equal(await planClass(), 'point-lookup', 'one replica down still makes a quorum');
  await page.click(`#node-toggles button[data-node=${replicas[1]}]`);
  await page.waitForSelector('body[data-ready=true]');
  assert.equal(await page.isVisible('#error-panel'), true);
  assert.equal(await page.textContent('#error .error-kind'), 'Unavailable');
  assert.equal(await page.textContent('#error .error-message'), 'Cannot achieve consistency level QUORUM');
  const down = await page.$$eval('#ring g.node[data-up=false]', gs => gs.map(g => g.dataset.node).sort());
  assert.deepEqual(down, [replicas[0], replicas[1]].sort());
  assert.deepEqual(having(await nodeRoles(), 'replica'), replicas, 'the replicas it could not reach are shown');
  assert.doesNotMatch(await page.textContent('#error'), /null/);
  await shot('7-unavailable');
  await page.click('#reset');
  await page.waitForFunction(() => document.getElementById('status').textContent.includes('back to'));
  assert.equal(await page.inputValue('#consistency'), 'ONE');
});

test('a second data centre: a circle of its own, with replicas placed in each', async () => {
  await page.selectOption('#model', 'orders');
  await page.selectOption('#preset', 'key');
  await page.check('#second-dc');
  await page.click('#apply');
  await page.waitForSelector('body[data-ready=true]');
  assert.equal(await page.$$eval('#ring circle.circle', cs => cs.length), 2);
  const byDc = await page.$$eval('#ring g.node', gs => gs.map(g => [g.dataset.datacenter, g.dataset.roles]));
  assert.equal(byDc.length, 8);
  for (const dc of ['datacenter1', 'dc2']) {
    const replicas = byDc.filter(([d, roles]) => d === dc && roles.split(' ').includes('replica'));
    assert.equal(replicas.length, 3, `RF 3 in ${dc}`);
  }
  await shot('9-two-datacenters');
  await page.click('#reset');
  await page.waitForFunction(() => document.getElementById('status').textContent.includes('back to'));
  assert.equal(await page.$$eval('#node-toggles button', bs => bs.length), 4);
});

test('the HBase view: a time-ordered key piles onto the last region, a salted key spreads', async () => {
  await runPreset('status', 'key');
  await page.fill('#split', '1000');
  await page.click('#hbase-apply');
  await page.waitForSelector('#hbase .design[data-design=time-first]');
  await page.waitForFunction(() => document.querySelector('#hbase p')?.textContent.includes('past 1000 rows'));
  const designs = await page.$$eval('#hbase .design', ds => Object.fromEntries(ds.map(d =>
    [d.dataset.design, { regions: Number(d.dataset.regions), last: Number(d.dataset.lastShare) }])));
  assert.ok(designs['time-first'].regions >= 12, '12,000 rows split past 1,000 rows make at least 12 regions');
  assert.equal(designs['time-first'].last, 100, 'every write lands in the region that is last when it arrives');
  assert.ok(designs.salted.last < 50, `a salted key spreads the writes (${designs.salted.last}% to the last region)`);
  assert.ok(await page.$$eval('#hbase .design[data-design=primary-key] .region.touched', rs => rs.length) >= 1);
  await shot('8-hbase');
});

test('a URL carries the model and query, and opening it runs the case', async () => {
  await runPreset('orders', 'key');
  const shared = page.url();
  assert.match(shared, /model=orders/);
  assert.match(shared, /query=key/);
  const other = await context.newPage();
  await other.goto(shared);
  await other.waitForFunction(() => document.querySelector('#plan [data-class]'));
  assert.equal(await other.$eval('#plan [data-class]', e => e.dataset.class), 'point-lookup');
  await other.close();
});

test('no serious or critical accessibility violation (axe-core)', async () => {
  await runPreset('status', 'key');
  const require = createRequire(import.meta.url);
  // Evaluated through the debugging protocol: the page's own policy
  // (default-src 'self') rightly refuses inline scripts.
  await page.evaluate(readFileSync(require.resolve('axe-core/axe.min.js'), 'utf8'));
  const violations = await page.evaluate(async () => {
    const result = await window.axe.run(document);
    return result.violations.map(v => ({ id: v.id, impact: v.impact, nodes: v.nodes.length, help: v.help }));
  });
  const bad = violations.filter(v => v.impact === 'serious' || v.impact === 'critical');
  assert.deepEqual(bad, []);
});

for (const [width, height] of [[390, 844], [1440, 900]]) {
  test(`nothing overflows horizontally at ${width}×${height}`, async () => {
    await page.setViewportSize({ width, height });
    for (const [model, query] of [['inbox', 'range'], ['status', 'key'], ['inbox', 'refused']]) {
      await runPreset(model, query);
      const overflow = await page.evaluate(() => ({
        page: document.documentElement.scrollWidth, body: document.body.scrollWidth, view: window.innerWidth,
      }));
      assert.ok(overflow.page <= overflow.view && overflow.body <= overflow.view,
        `${model}/${query}: ${JSON.stringify(overflow)}`);
    }
    await shot(`viewport-${width}x${height}`);
    await page.setViewportSize({ width: 1440, height: 900 });
  });
}

test('the page raised no script error', () => {
  assert.deepEqual(pageErrors, []);
});
