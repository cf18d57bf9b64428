// widerow serve, judged by the Node.js cassandra-driver (DataStax/Apache,
// pinned in package.json). Target from CQL_HOST / CQL_PORT; CQL_PROTOCOL=4
// caps the protocol (this driver speaks no v5: with 5 it negotiates v4).
// Runs in a keyspace of its own, created first and dropped last.
//   node test.mjs
import { test, before, after } from 'node:test';
import assert from 'node:assert/strict';
import cassandra from 'cassandra-driver';

const { Client, errors, types } = cassandra;
const host = process.env.CQL_HOST || '127.0.0.1';
const port = Number(process.env.CQL_PORT || '9042');
const proto = process.env.CQL_PROTOCOL || '';
const ks = `drv_node_${process.pid}_${Date.now() % 1e9}`;

const protocolOptions = { port };
if (proto === '4') protocolOptions.maxVersion = 4;
if (proto === '5') console.log('# note: this driver speaks protocol v4 at most; CQL_PROTOCOL=5 tests v4');

const client = new Client({
  contactPoints: [host],
  localDataCenter: 'datacenter1',
  protocolOptions,
  socketOptions: { connectTimeout: 10000, readTimeout: 30000 },
});

before(async () => {
  await client.connect();
  await client.execute(
    `CREATE KEYSPACE ${ks} WITH replication = {'class': 'SimpleStrategy', 'replication_factor': 1}`);
});

after(async () => {
  try {
    await client.execute(`DROP KEYSPACE IF EXISTS ${ks}`);
  } finally {
    await client.shutdown();
  }
});

test('connect', async () => {
  const version = client.controlConnection.protocolVersion;
  assert.equal(version, types.protocolVersion.v4, `negotiated protocol ${version}`);
  const rs = await client.execute("SELECT release_version, data_center FROM system.local WHERE key = 'local'");
  assert.equal(rs.rowLength, 1);
  assert.equal(rs.first().data_center, 'datacenter1');
  assert.ok(client.metadata.keyspaces.system, 'driver metadata has no system keyspace');
  const hosts = client.hosts.values();
  assert.equal(hosts.length >= 1, true);
  assert.ok(hosts.every((h) => h.isUp()));
});

test('prepared round trip', async () => {
  await client.execute(
    `CREATE TABLE ${ks}.kv (k int PRIMARY KEY, name text, big bigint, data blob, id uuid, ` +
    `at timestamp, nums list<int>, attrs map<text, int>, price decimal, pair tuple<int, text>)`);
  const insert = `INSERT INTO ${ks}.kv (k, name, big, data, id, at, nums, attrs, price, pair) ` +
    'VALUES (?, ?, ?, ?, ?, ?, ?, ?, ?, ?)';
  const id = types.Uuid.random();
  const at = new Date(Date.UTC(2024, 1, 29, 23, 59, 58, 123));
  await client.execute(insert, [7, 'zoë ✓', types.Long.fromString('-9000000000'), Buffer.from([0, 1, 0xff]),
    id, at, [3, 1, 2], { x: 1, y: -2 }, types.BigDecimal.fromString('-12.345'), new types.Tuple(1, 'one')],
  { prepare: true });
  const rs = await client.execute(`SELECT * FROM ${ks}.kv WHERE k = ?`, [7], { prepare: true });
  assert.equal(rs.rowLength, 1);
  const r = rs.first();
  assert.equal(r.name, 'zoë ✓');
  assert.equal(r.big.toString(), '-9000000000');
  assert.deepEqual([...r.data], [0, 1, 0xff]);
  assert.equal(r.id.toString(), id.toString());
  assert.equal(r.at.getTime(), at.getTime());
  assert.deepEqual(r.nums, [3, 1, 2]);
  assert.deepEqual(r.attrs, { x: 1, y: -2 });
  assert.equal(r.price.toString(), '-12.345');
  assert.deepEqual(r.pair.values(), [1, 'one']);
  // named parameters, and a key that is not there
  const none = await client.execute(`SELECT * FROM ${ks}.kv WHERE k = :k`, { k: 8 }, { prepare: true });
  assert.equal(none.rowLength, 0);
  // column metadata as the server sent it
  const names = rs.columns.map((c) => c.name).sort();
  assert.deepEqual(names, ['at', 'attrs', 'big', 'data', 'id', 'k', 'name', 'nums', 'pair', 'price']);
});

test('paging with pageState', async () => {
  await client.execute(`CREATE TABLE ${ks}.paged (p int, c int, v text, PRIMARY KEY (p, c))`);
  const ins = `INSERT INTO ${ks}.paged (p, c, v) VALUES (?, ?, ?)`;
  const parts = 3, per = 1000;
  const params = [];
  for (let p = 0; p < parts; p++) for (let i = 0; i < per; i++) params.push([p, (i * 7919) % per, `${p}:${(i * 7919) % per}`]);
  await cassandra.concurrent.executeConcurrent(client, ins, params, { concurrencyLevel: 64 });

  const query = `SELECT p, c, v FROM ${ks}.paged`;
  const pages = [];
  let pageState;
  for (;;) {
    const rs = await client.execute(query, [], { prepare: true, fetchSize: 1000, pageState });
    pages.push(rs.rows);
    pageState = rs.pageState;
    assert.ok(pages.length <= 5, 'paging does not end');
    if (!pageState) break;
  }
  const rows = pages.flat();
  assert.equal(rows.length, parts * per);
  assert.deepEqual(pages.slice(0, 3).map((p) => p.length), [1000, 1000, 1000]);
  // each partition in one run, clustering ascending
  const seen = new Set();
  let last = null;
  for (const r of rows) {
    assert.equal(r.v, `${r.p}:${r.c}`);
    if (last && last.p === r.p) assert.equal(r.c, last.c + 1);
    else { assert.ok(!seen.has(r.p), `partition ${r.p} twice`); assert.equal(r.c, 0); seen.add(r.p); }
    last = r;
  }
  // resuming from a saved pageState (a hex string works too) gives the second page again
  const first = await client.execute(query, [], { prepare: true, fetchSize: 1000 });
  const again = await client.execute(query, [], { prepare: true, fetchSize: 1000, pageState: first.pageState });
  assert.deepEqual(again.rows.map((r) => [r.p, r.c]), pages[1].map((r) => [r.p, r.c]));
  // eachRow with autoPage walks all the pages
  const count = await new Promise((resolve, reject) => {
    let n = 0;
    client.eachRow(query, [], { prepare: true, fetchSize: 700, autoPage: true },
      () => { n++; }, (err) => (err ? reject(err) : resolve(n)));
  });
  assert.equal(count, parts * per);
});

test('errors are ResponseError with the server code', async () => {
  await assert.rejects(client.execute(`SELECT * FROM ${ks}.no_such_table`), (err) => {
    assert.ok(err instanceof errors.ResponseError, `not a ResponseError: ${err}`);
    assert.equal(err.code, 0x2200);
    assert.equal(err.code, types.responseErrorCodes.invalid);
    assert.match(err.message, /table no_such_table does not exist/);
    return true;
  });
  await assert.rejects(client.execute('SELEC * FROM system.local'), (err) => {
    assert.ok(err instanceof errors.ResponseError);
    assert.equal(err.code, types.responseErrorCodes.syntaxError);
    return true;
  });
  await assert.rejects(client.execute(`SELECT * FROM ${ks}.no_such_table WHERE k = ?`, [1], { prepare: true }),
    (err) => err instanceof errors.ResponseError && err.code === 0x2200);
  await assert.rejects(client.execute(`CREATE TABLE ${ks}.kv (k int PRIMARY KEY)`), (err) => {
    assert.equal(err.code, types.responseErrorCodes.alreadyExists);
    assert.equal(err.keyspace, ks);
    assert.equal(err.table, 'kv');
    return true;
  });
  // still usable
  const rs = await client.execute("SELECT key FROM system.local");
  assert.equal(rs.first().key, 'local');
});
