#!/usr/bin/env node
// The people picker and the settings screen in a browser, driven by the diffable daemon.
//
//   node protocol/examples/web/server.js [--port 8080]      (loopback only; --port 0 picks a free port)
//
// Node standard library only. One daemon (spawned through the JS client) for the server; every
// page opens its own session (sources `people:<id>` and `settings:<id>`). Diffs go to the page over
// Server-Sent Events (`GET /events?session=ID`), user actions come as `POST /action` (JSON). The page
// replays the steps diffs into keyed DOM nodes with protocol/clients/js/dom.js and frontend.js,
// served as ES modules under /lib/. The big list (source `big:<id>`, 100,000 people) goes through a
// viewport: the page holds only the window's rows, scrolling sends `viewport`, answers are `window` steps.
import { createServer } from 'node:http';
import { readFile } from 'node:fs/promises';
import { dirname, join } from 'node:path';
import { fileURLToPath } from 'node:url';
import { Client, DaemonNotFoundError } from '../../clients/js/index.js';
import { BIG_COUNT, bigPeople } from './people.js';

const here = dirname(fileURLToPath(import.meta.url));
const clientDir = join(here, '..', '..', 'clients', 'js');
const HOST = '127.0.0.1';

const PLACEHOLDER = { id: 'no-results', content: { text: 'No results' } };
const SEED_PEOPLE = ['Lily Rose', 'Ava Grace', 'Ruby Mae', 'Stella Luna', 'Jack Ryan', 'Emma Kate', 'Olivia Jade',
  'Ethan James', 'Amelia Rose', 'Lucas John', 'Madison Claire', 'Noah William', 'Isla Faith', 'Mason Alexander',
  'Grace Elizabeth', 'Liam Thomas', 'Chloe Grace', 'Jackson Lee', 'Scarlett Belle'];
const slug = (name) => name.toLowerCase().replace(/ /g, '-');
const PEOPLE = [
  { id: 'addedList', header: 'Added', items: [] },
  { id: 'searchBar', items: [{ id: 'search-bar' }] },
  { id: 'list', header: 'People', items: SEED_PEOPLE.map((n) => ({ id: slug(n), content: { text: n } })) },
];
const SETTINGS = [
  { id: 'numbers', header: 'Pick a number', selection: 'single', allowsEmptySelection: false,
    items: ['one', 'two', 'three'].map((n) => ({ id: n, content: { text: n } })) },
  { id: 'letters', header: 'Pick some letters', selection: 'multiple',
    items: ['a', 'b', 'c', 'd'].map((n) => ({ id: n, content: { text: n } })) },
];

const BIG = [{ id: 'people', items: bigPeople(BIG_COUNT) }]; // no header: flat row k is person k
const MAX_WINDOW = 200;

const STATIC = {
  '/': ['index.html', 'text/html; charset=utf-8', here],
  '/app.js': ['app.js', 'text/javascript; charset=utf-8', here],
  '/app.css': ['app.css', 'text/css; charset=utf-8', here],
  '/big.js': ['big.js', 'text/javascript; charset=utf-8', here],
  '/lib/dom.js': ['dom.js', 'text/javascript; charset=utf-8', clientDir],
  '/lib/frontend.js': ['frontend.js', 'text/javascript; charset=utf-8', clientDir],
  '/lib/errors.js': ['errors.js', 'text/javascript; charset=utf-8', clientDir],
  '/lib/contract.js': ['contract.js', 'text/javascript; charset=utf-8', clientDir],
  '/lib/jsonpatch.js': ['jsonpatch.js', 'text/javascript; charset=utf-8', clientDir],
};

function parseArgs(argv) {
  let port = 8080;
  for (let k = 0; k < argv.length; k++) {
    if (argv[k] === '--port' && k + 1 < argv.length) port = Number(argv[++k]);
    else if (argv[k].startsWith('--port=')) port = Number(argv[k].slice(7));
    else if (argv[k] === '--help' || argv[k] === '-h') {
      console.log('usage: node server.js [--port 8080]  (serves on 127.0.0.1; --port 0 picks a free port)');
      process.exit(0);
    } else {
      console.error(`server.js: unknown argument ${argv[k]}`);
      process.exit(2);
    }
  }
  if (!Number.isInteger(port) || port < 0 || port > 65535) {
    console.error('server.js: --port must be 0..65535');
    process.exit(2);
  }
  return { port };
}

class Session {
  constructor(id, client, stream) {
    this.id = id;
    this.client = client;
    this.stream = stream;
    this.query = '';
    this.people = new Map(PEOPLE[2].items.map((item) => [item.id, item]));
    this.addedSet = new Set();
    this.queue = Promise.resolve(); // one request at a time per session: diffs arrive in order
    this.seq = 0; // events sent; a POST answers the seq of the last event its action caused
    this.bigOpen = false; // the big list is created when the page first asks for its window
    this.bigCount = 0;
  }

  source(screen) { return `${screen}:${this.id}`; }

  send(event, data) {
    this.seq += 1;
    if (!this.stream.writableEnded) this.stream.write(`event: ${event}\ndata: ${JSON.stringify({ ...data, seq: this.seq })}\n\n`);
  }

  /** Runs `request` after the previous one, pushes its result as a `diff` event. */
  run(screen, label, request) {
    const task = this.queue.then(async () => {
      const started = process.hrtime.bigint();
      try {
        const result = await request(this.client);
        const ms = Number(process.hrtime.bigint() - started) / 1e6;
        this.send('diff', { screen, label, ms, result });
        return result;
      } catch (error) {
        if (error?.code === -32800) return undefined; // a superseded search: nothing changed
        this.send('failure', { screen, label, message: String(error?.message ?? error) });
        return undefined;
      }
    });
    this.queue = task.catch(() => {});
    return task;
  }

  async start() {
    await this.run('people', 'apply', (c) => c.apply(this.source('people'), PEOPLE));
    await this.run('settings', 'apply', (c) => c.apply(this.source('settings'), SETTINGS));
    await this.run('settings', 'select', (c) => c.select(this.source('settings'), { ids: ['two', 'a', 'c'] }));
  }

  async action(body) {
    const people = this.source('people');
    switch (body.action) {
      case 'search': {
        const query = String(body.query ?? '');
        this.query = query;
        return this.run('people', 'search', (c) => c.search(people, query, { sections: ['list'], placeholder: PLACEHOLDER }));
      }
      case 'move': {
        const id = String(body.id);
        const person = this.people.get(id);
        if (!person) throw new Error(`no person ${id}`);
        const target = this.addedSet.has(id) ? 'list' : 'addedList';
        if (target === 'list') this.addedSet.delete(id); else this.addedSet.add(id);
        // delete + append in one edit: the same id comes back, so the daemon answers a move
        const result = await this.run('people', 'move', (c) => c.edit(people, [
          { op: 'deleteItems', ids: [id] }, { op: 'appendItems', items: [person], section: target }]));
        if (result && target === 'list' && this.query) {
          // the row the diff brought back into the filtered list gets its highlight
          await this.run('people', 'highlights', (c) => c.highlights(people, 2, { start: 0, count: 200 }));
        }
        return result;
      }
      case 'big-viewport': {
        // the page scrolled (or opened the list): the window it draws
        const start = Number(body.start);
        const count = Number(body.count);
        if (!Number.isInteger(start) || start < 0 || !Number.isInteger(count) || count < 1 || count > MAX_WINDOW) {
          throw new Error('big-viewport needs integers start >= 0 and 1 <= count <= 200');
        }
        this.bigCount = count;
        const big = this.source('big');
        if (!this.bigOpen) {
          this.bigOpen = true;
          return this.run('big', 'apply', (c) => c.apply(big, BIG, { viewport: { start, count } }));
        }
        return this.run('big', 'viewport', (c) => c.viewport(big, { start, count }));
      }
      case 'big-search': {
        if (!this.bigOpen) throw new Error('big-search before big-viewport');
        const query = String(body.query ?? '');
        // a new query shows its first matches: the window goes back to the top with it
        return this.run('big', 'search', (c) => c.search(this.source('big'), query,
          { sections: ['people'], placeholder: PLACEHOLDER, viewport: { start: 0, count: this.bigCount } }));
      }
      case 'toggle':
        return this.run('settings', 'select', (c) => c.select(this.source('settings'), { action: 'toggle', ids: [String(body.id)] }));
      default:
        throw new Error(`unknown action ${JSON.stringify(body.action)}`);
    }
  }

  async drop() {
    await this.queue;
    for (const screen of ['people', 'settings', ...(this.bigOpen ? ['big'] : [])]) {
      try { await this.client.drop(this.source(screen)); } catch { /* already gone */ }
    }
  }
}

async function main() {
  const { port } = parseArgs(process.argv.slice(2));
  let client;
  try {
    client = await Client.start({ initializationOptions: { form: 'steps' } });
  } catch (error) {
    if (error instanceof DaemonNotFoundError) {
      console.error(`server.js: ${error.message}\n\nTo build the daemon, from the checkout root:\n    swift build -c release\n(or set DIFFABLE_BIN to a built binary)`);
    } else {
      console.error(`server.js: could not start the daemon: ${error?.message ?? error}`);
    }
    process.exit(1);
  }
  const sessions = new Map();

  const server = createServer(async (req, res) => {
    const url = new URL(req.url, `http://${HOST}`);
    try {
      if (req.method === 'GET' && STATIC[url.pathname]) {
        const [file, type, dir] = STATIC[url.pathname];
        res.writeHead(200, { 'content-type': type, 'cache-control': 'no-store' });
        res.end(await readFile(join(dir, file)));
      } else if (req.method === 'GET' && url.pathname === '/events') {
        const id = url.searchParams.get('session') ?? '';
        if (!/^[A-Za-z0-9_-]{1,64}$/.test(id) || sessions.has(id)) {
          res.writeHead(400, { 'content-type': 'text/plain' });
          res.end('a new session id ([A-Za-z0-9_-]{1,64}) is needed');
          return;
        }
        res.writeHead(200, { 'content-type': 'text/event-stream', 'cache-control': 'no-store', connection: 'keep-alive' });
        res.write(': diffable\n\n');
        const session = new Session(id, client, res);
        sessions.set(id, session);
        req.on('close', () => { sessions.delete(id); session.drop(); });
        await session.start();
        session.send('ready', { session: id });
      } else if (req.method === 'POST' && url.pathname === '/action') {
        let body = '';
        for await (const chunk of req) body += chunk;
        const parsed = JSON.parse(body);
        const session = sessions.get(parsed.session);
        if (!session) {
          res.writeHead(404, { 'content-type': 'application/json' });
          res.end(JSON.stringify({ error: 'no such session' }));
          return;
        }
        await session.action(parsed);
        res.writeHead(200, { 'content-type': 'application/json' });
        res.end(JSON.stringify({ ok: true, seq: session.seq }));
      } else {
        res.writeHead(404, { 'content-type': 'text/plain' });
        res.end('not found');
      }
    } catch (error) {
      if (!res.headersSent) res.writeHead(400, { 'content-type': 'application/json' });
      res.end(JSON.stringify({ error: String(error?.message ?? error) }));
    }
  });
  server.listen(port, HOST, () => {
    console.log(`diffable web demo: http://${HOST}:${server.address().port}/`);
  });
  const stop = async () => {
    server.close();
    for (const session of sessions.values()) session.stream.end();
    await client.close();
    process.exit(0);
  };
  process.on('SIGINT', stop);
  process.on('SIGTERM', stop);
}

main();
