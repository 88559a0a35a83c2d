// Drives the web demo in headless Chromium over the DevTools protocol (WebSocket from
// `node --experimental-websocket`, see ./run-tests) and checks the DOM after every step.
// Missing chromium or WebSocket is a failure, never a skip. Loopback only.
import { spawn } from 'node:child_process';
import { mkdtempSync, mkdirSync, rmSync, writeFileSync, existsSync, unlinkSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { dirname, join } from 'node:path';
import { fileURLToPath } from 'node:url';
import { BIG_COUNT, bigPeople } from './people.js';

const here = dirname(fileURLToPath(import.meta.url));
// Screenshots go under the ignored .build/ (git status stays clean); set
// DIFFABLE_SCREENSHOT_DIR=protocol/examples/web to refresh the tracked ones on purpose.
const shots = process.env.DIFFABLE_SCREENSHOT_DIR || join(here, '..', '..', '..', '.build', 'screenshots', 'web');
mkdirSync(shots, { recursive: true });
const SEED = ['Lily Rose', 'Ava Grace', 'Ruby Mae', 'Stella Luna', 'Jack Ryan', 'Emma Kate', 'Olivia Jade',
  'Ethan James', 'Amelia Rose', 'Lucas John', 'Madison Claire', 'Noah William', 'Isla Faith', 'Mason Alexander',
  'Grace Elizabeth', 'Liam Thomas', 'Chloe Grace', 'Jackson Lee', 'Scarlett Belle'];
let passed = 0;
let failed = 0;
const cleanups = [];

function check(name, ok, detail = '') {
  if (ok) { passed++; console.log(`ok   ${name}`); } else { failed++; console.log(`FAIL ${name}${detail ? `\n     ${detail}` : ''}`); }
  return ok;
}

function which(name) {
  for (const dir of (process.env.PATH ?? '').split(':')) if (dir && existsSync(join(dir, name))) return join(dir, name);
  return null;
}

/** Spawns a process and resolves with the first match of `pattern` on its stdout/stderr. */
function launch(command, args, pattern, what, timeout = 20000) {
  const child = spawn(command, args, { stdio: ['ignore', 'pipe', 'pipe'] });
  cleanups.push(() => { if (child.exitCode === null) child.kill('SIGTERM'); });
  return new Promise((resolve, reject) => {
    let output = '';
    const timer = setTimeout(() => reject(new Error(`${what}: no ${pattern} after ${timeout} ms:\n${output.slice(-2000)}`)), timeout);
    const onData = (chunk) => {
      output += chunk;
      const match = output.match(pattern);
      if (match) { clearTimeout(timer); resolve({ child, match }); }
    };
    child.stdout.on('data', onData);
    child.stderr.on('data', onData);
    child.on('exit', (code) => { clearTimeout(timer); reject(new Error(`${what} exited (${code}):\n${output.slice(-2000)}`)); });
  });
}

class Cdp {
  constructor(url) {
    this.ws = new WebSocket(url);
    this.next = 1;
    this.pending = new Map();
    this.ws.addEventListener('message', (event) => {
      const message = JSON.parse(event.data);
      const waiter = this.pending.get(message.id);
      if (waiter) {
        this.pending.delete(message.id);
        if (message.error) waiter.reject(new Error(`${waiter.method}: ${message.error.message}`)); else waiter.resolve(message.result);
      }
    });
    this.opened = new Promise((resolve, reject) => {
      this.ws.addEventListener('open', resolve);
      this.ws.addEventListener('error', () => reject(new Error(`cannot connect to ${url}`)));
    });
  }

  send(method, params = {}) {
    const id = this.next++;
    this.ws.send(JSON.stringify({ id, method, params }));
    return new Promise((resolve, reject) => this.pending.set(id, { resolve, reject, method }));
  }

  async eval(expression) {
    const result = await this.send('Runtime.evaluate', { expression, awaitPromise: true, returnByValue: true });
    if (result.exceptionDetails) throw new Error(`eval ${expression}: ${result.exceptionDetails.exception?.description ?? result.exceptionDetails.text}`);
    return result.result.value;
  }

  // A hang detector, not a speed check: a busy machine may take seconds to render.
  async until(expression, timeout = 60000) {
    const deadline = Date.now() + timeout;
    for (;;) {
      const value = await this.eval(expression).catch(() => false);
      if (value) return value;
      if (Date.now() > deadline) return false;
      await new Promise((r) => setTimeout(r, 15));
    }
  }

  async idle() { return this.until('window.__diffable && window.__diffable.ready && window.__diffable.idle()'); }

  async type(text) {
    for (const ch of text) {
      await this.send('Input.dispatchKeyEvent', { type: 'keyDown', key: ch, text: ch, unmodifiedText: ch });
      await this.send('Input.dispatchKeyEvent', { type: 'keyUp', key: ch });
    }
  }

  async key(key, code, keyCode) {
    await this.send('Input.dispatchKeyEvent', { type: 'rawKeyDown', key, code, windowsVirtualKeyCode: keyCode, nativeVirtualKeyCode: keyCode });
    if (key === 'Enter') await this.send('Input.dispatchKeyEvent', { type: 'char', key, text: '\r', unmodifiedText: '\r' });
    await this.send('Input.dispatchKeyEvent', { type: 'keyUp', key, code, windowsVirtualKeyCode: keyCode, nativeVirtualKeyCode: keyCode });
  }

  close() { this.ws.close(); }
}

const LIST = `[...document.querySelectorAll('#people section[data-id="list"] > .row')].map(r => r.textContent.replace(/(Add|Remove)$/, '').trim())`;
const ADDED = `[...document.querySelectorAll('#people section[data-id="addedList"] > .row')].map(r => r.querySelector('.name').textContent)`;
const TAG = `(() => { let n = 0; for (const r of document.querySelectorAll('#people [data-id]')) r.__tag ??= ++window.__tagCounter; return true; })()`;
const TAGS = `Object.fromEntries([...document.querySelectorAll('#people .person')].map(r => [r.dataset.id, r.__tag ?? null]))`;
const SELECTED = `[...document.querySelectorAll('#settings .option.selected')].map(r => r.dataset.id).join(',')`;
const same = (a, b) => JSON.stringify(a) === JSON.stringify(b);

async function main() {
  const started = Date.now();
  if (!check('WebSocket client available (node --experimental-websocket)', typeof WebSocket === 'function')) return;
  const chromium = which('chromium') ?? which('chromium-browser');
  if (!check('chromium is installed (protocol/tools/install-test-tools)', chromium !== null)) return;

  const { match: served } = await launch(process.execPath, [join(here, 'server.js'), '--port', '0'], /http:\/\/127\.0\.0\.1:(\d+)\//, 'server.js');
  const base = `http://127.0.0.1:${served[1]}/`;
  check(`server listens on loopback (${base})`, true);
  const page = await (await fetch(base)).text();
  check('GET / serves the page (no framework, ES modules)', page.includes('type="module"') && page.includes('/app.js'));
  const dom = await fetch(`${base}lib/dom.js`);
  check('GET /lib/dom.js serves the JS client’s dom.js as a module', dom.ok && (await dom.text()).includes('export function applySteps'));

  const profile = mkdtempSync(join(tmpdir(), 'diffable-web-'));
  cleanups.push(() => rmSync(profile, { recursive: true, force: true }));
  const { match: devtools } = await launch(chromium, ['--headless', '--no-sandbox', '--disable-gpu', '--remote-debugging-address=127.0.0.1',
    '--remote-debugging-port=0', `--user-data-dir=${profile}`, '--window-size=900,1000', '--no-first-run', 'about:blank'],
  /DevTools listening on (ws:\/\/127\.0\.0\.1:(\d+)\/\S+)/, 'chromium', 30000);
  const targets = await (await fetch(`http://127.0.0.1:${devtools[2]}/json/list`)).json();
  const target = targets.find((t) => t.type === 'page');
  const cdp = new Cdp(target.webSocketDebuggerUrl);
  cleanups.push(() => cdp.close());
  await cdp.opened;
  await cdp.send('Page.enable');
  await cdp.send('Runtime.enable');
  await cdp.send('Emulation.setDeviceMetricsOverride', { width: 880, height: 960, deviceScaleFactor: 1, mobile: false });
  await cdp.send('Page.navigate', { url: base });

  // initial screens
  check('page connects over SSE and renders', await cdp.until('window.__diffable?.ready && document.querySelectorAll("#people .person").length === 19', 60000));
  check('people: the 19 seed people in order', same(await cdp.eval(LIST), SEED), JSON.stringify(await cdp.eval(LIST)));
  check('people: nobody added; search box focused', same(await cdp.eval(ADDED), []) && await cdp.eval('document.activeElement?.id === "search"'));
  check('settings: two; a, c selected', await cdp.until(`${SELECTED} === 'two,a,c'`), await cdp.eval(SELECTED));

  // typing: keyed updates keep the unchanged rows' nodes
  await cdp.eval('window.__tagCounter = 0; window.__input = document.getElementById("search"); ' + TAG);
  const tagsBefore = await cdp.eval(TAGS);
  await cdp.type('gr');
  await cdp.until('document.getElementById("search").value === "gr"');
  await cdp.idle();
  const expected = SEED.filter((n) => n.toLowerCase().includes('gr'));
  check('people: typing gr lists exactly the names containing gr', same(await cdp.eval(LIST), expected), JSON.stringify(await cdp.eval(LIST)));
  const tagsAfter = await cdp.eval(TAGS);
  check('people: the rows that stayed are the same DOM nodes (keyed updates)',
    expected.every((n) => tagsAfter[n.toLowerCase().replace(/ /g, '-')] !== null && tagsAfter[n.toLowerCase().replace(/ /g, '-')] === tagsBefore[n.toLowerCase().replace(/ /g, '-')]),
    `${JSON.stringify(tagsBefore)} -> ${JSON.stringify(tagsAfter)}`);
  check('people: the search box is the same node, still focused', await cdp.eval('document.getElementById("search") === window.__input && document.activeElement === window.__input'));
  const marks = await cdp.eval(`[...document.querySelectorAll('#people section[data-id="list"] mark')].map(m => m.textContent)`);
  check('people: <mark> highlights from the search result (Gr in each row)', same(marks, ['Gr', 'Gr', 'Gr']), JSON.stringify(marks));
  check('people: status shows the last diff', /^−\d+ \+\d+ ↕\d+ ⟳\d+ in [\d.]+ ms · “gr”: 3 match/.test(await cdp.eval('document.getElementById("people-status").textContent')),
    await cdp.eval('document.getElementById("people-status").textContent'));
  check('people: deleted/inserted/moved rows were animated', (await cdp.eval('window.__diffable.animations')) > 0);

  // keyboard: ↓ ↓ Enter moves Grace Elizabeth to Added, as the same node
  const graceTag = tagsAfter['grace-elizabeth'];
  await cdp.key('ArrowDown', 'ArrowDown', 40);
  await cdp.key('ArrowDown', 'ArrowDown', 40);
  check('people: ↓↓ puts the cursor on Grace Elizabeth', await cdp.until('document.querySelector("#people .cursor")?.dataset.id === "grace-elizabeth"'));
  await cdp.key('Enter', 'Enter', 13);
  await cdp.until(`${ADDED}.length === 1`);
  await cdp.idle();
  check('people: Enter moves her to Added', same(await cdp.eval(ADDED), ['Grace Elizabeth']) && same(await cdp.eval(LIST), ['Ava Grace', 'Chloe Grace']),
    `${JSON.stringify(await cdp.eval(ADDED))} ${JSON.stringify(await cdp.eval(LIST))}`);
  check('people: the moved row is the same node (a move, not delete + insert)', (await cdp.eval(TAGS))['grace-elizabeth'] === graceTag);
  check('people: no highlight in Added', (await cdp.eval('document.querySelectorAll("#people section[data-id=addedList] mark").length')) === 0);

  // no results
  await cdp.type('x');
  await cdp.until('document.getElementById("search").value === "grx"');
  await cdp.idle();
  const rows = await cdp.eval(LIST);
  check('people: a non-matching query shows the placeholder', same(rows, ['No results']) && same(await cdp.eval(ADDED), ['Grace Elizabeth']), JSON.stringify(rows));

  // clear: everything not added comes back; Ava and Chloe keep their nodes
  for (let k = 0; k < 3; k++) await cdp.key('Backspace', 'Backspace', 8);
  await cdp.until('document.getElementById("search").value === ""');
  await cdp.idle();
  check('people: clearing the query lists everyone not added', same(await cdp.eval(LIST), SEED.filter((n) => n !== 'Grace Elizabeth')), JSON.stringify(await cdp.eval(LIST)));
  const tagsCleared = await cdp.eval(TAGS);
  check('people: the Added row kept its node through grx and back; rows that came back are new nodes',
    tagsCleared['grace-elizabeth'] === graceTag && tagsCleared['lily-rose'] === null,
    JSON.stringify(tagsCleared));

  // click in Added: she goes back to the end of the list
  await cdp.eval('document.querySelector("#people .person[data-id=grace-elizabeth]").click()');
  await cdp.until(`${ADDED}.length === 0`);
  await cdp.idle();
  const back = await cdp.eval(LIST);
  check('people: clicking her in Added puts her at the end of the list', back.length === 19 && back[18] === 'Grace Elizabeth', JSON.stringify(back));

  // settings: single moves, the last one stays, multiple toggles
  const click = (id) => cdp.eval(`document.querySelector('#settings .option[data-id="${id}"]').click()`);
  await click('one');
  check('settings: one replaces two (single)', await cdp.until(`${SELECTED} === 'one,a,c'`), await cdp.eval(SELECTED));
  await click('one');
  await cdp.idle();
  check('settings: the last selected number cannot be deselected',
    (await cdp.eval(SELECTED)) === 'one,a,c' && /stays selected/.test(await cdp.eval('document.getElementById("settings-status").textContent')),
    `${await cdp.eval(SELECTED)} ${await cdp.eval('document.getElementById("settings-status").textContent')}`);
  await click('b');
  check('settings: b added (multiple)', await cdp.until(`${SELECTED} === 'one,a,b,c'`), await cdp.eval(SELECTED));
  await click('a');
  check('settings: a removed (multiple)', await cdp.until(`${SELECTED} === 'one,b,c'`), await cdp.eval(SELECTED));
  // big list: 100,000 people through a viewport; the DOM holds only the window's rows
  const BIG_IDS = `[...document.querySelectorAll('#big-rows > [data-id]')].map(r => r.dataset.id)`;
  const BIG_TEXT = `[...document.querySelectorAll('#big-rows > [data-id]')].map(r => r.textContent)`;
  const people = bigPeople(BIG_COUNT);
  const range = (list, start, n) => list.slice(start, start + n).map((p) => p.id);
  check('big: the first window arrives', await cdp.until('window.__diffable.big?.windows > 0', 60000));
  const { count, rowHeight } = await cdp.eval('({ count: window.__diffable.big.count, rowHeight: window.__diffable.big.rowHeight })');
  check(`big: the window is a screenful plus overscan (${count} rows), not the list`, count >= 12 && count <= 60, String(count));
  check('big: the DOM holds exactly the window: people 0…count−1, with their names',
    same(await cdp.eval(BIG_IDS), range(people, 0, count)) && same(await cdp.eval(BIG_TEXT), people.slice(0, count).map((p) => p.content.text)),
    JSON.stringify(await cdp.eval(BIG_IDS)));
  check('big: the spacer is the whole list tall (the scrollbar is the list’s)',
    (await cdp.eval('document.getElementById("big-spacer").offsetHeight')) === BIG_COUNT * rowHeight,
    String(await cdp.eval('document.getElementById("big-spacer").offsetHeight')));
  check('big: status shows the window of 100,000', /^rows 0–\d+ of 100,000 /.test(await cdp.eval('document.getElementById("big-status").textContent')),
    await cdp.eval('document.getElementById("big-status").textContent'));

  const scrollBig = (top) => cdp.eval(`document.getElementById("big-scroller").scrollTop = ${top}; true`);
  const firstBig = (id) => cdp.until(`${BIG_IDS}[0] === ${JSON.stringify(id)}`, 60000);
  await scrollBig(50_000 * rowHeight);
  check('big: scrolling to row 50,000 sends a viewport; the window follows', await firstBig(people[50_000 - 6].id), JSON.stringify(await cdp.eval(BIG_IDS)));
  await cdp.idle();
  check('big: after the scroll the DOM holds only the new window’s rows',
    same(await cdp.eval(BIG_IDS), range(people, 49_994, count)), JSON.stringify(await cdp.eval(BIG_IDS)));
  const boxes = await cdp.eval(`(() => { const s = document.getElementById('big-scroller').getBoundingClientRect(); const r = [...document.querySelectorAll('#big-rows > [data-id]')].find(e => e.dataset.id === 'n50000').getBoundingClientRect(); return [s.top, r.top]; })()`);
  check('big: row 50,000 is drawn at the top of the scroller', Math.abs(boxes[1] - boxes[0]) <= 1, JSON.stringify(boxes));
  await cdp.eval(`window.__bigTags = new Map([...document.querySelectorAll('#big-rows > [data-id]')].map(r => [r.dataset.id, r])); true`);
  await scrollBig(50_003 * rowHeight);
  check('big: scrolling 3 rows moves the window by 3', await firstBig(people[49_997].id), JSON.stringify(await cdp.eval(BIG_IDS)));
  await cdp.idle();
  const kept = await cdp.eval(`[...document.querySelectorAll('#big-rows > [data-id]')].filter(r => window.__bigTags.get(r.dataset.id) === r).length`);
  check('big: the rows still in the window are the same DOM nodes (3 new, 3 gone)', kept === count - 3, `${kept} of ${count}`);

  await cdp.eval('document.getElementById("big-search").focus()');
  await cdp.type('zoe');
  await cdp.until('document.getElementById("big-search").value === "zoe"');
  const matching = people.filter((p) => p.content.text.toLowerCase().includes('zoe'));
  check('big: a search answers in the window: the first matches, from the top', await firstBig(matching[0].id), JSON.stringify(await cdp.eval(BIG_IDS)));
  await cdp.idle();
  check('big: after the search the DOM holds the window of matches only',
    same(await cdp.eval(BIG_IDS), range(matching, 0, count)), JSON.stringify(await cdp.eval(BIG_IDS)));
  const bigStatus = await cdp.eval('document.getElementById("big-status").textContent');
  check(`big: status counts ${matching.length} matches of the window’s ${matching.length} rows`,
    bigStatus.includes(`of ${matching.length.toLocaleString('en')} `) && bigStatus.includes(`“zoe”: ${matching.length.toLocaleString('en')} match`), bigStatus);
  check('big: matched rows carry <mark> highlights', same(await cdp.eval(`[...document.querySelectorAll('#big-rows mark')].slice(0, 2).map(m => m.textContent)`), ['Zoe', 'Zoe']));
  await scrollBig(1000 * rowHeight);
  check('big: scrolling in the matches moves the window through them', await firstBig(matching[994].id), JSON.stringify(await cdp.eval(BIG_IDS)));
  await cdp.idle();
  check('big: the DOM holds matches 994… only', same(await cdp.eval(BIG_IDS), range(matching, 994, count)), JSON.stringify(await cdp.eval(BIG_IDS)));
  await cdp.type('x');
  check('big: no match: the placeholder is the only row', await cdp.until(`${JSON.stringify(['no-results'])}.join() === ${BIG_IDS}.join()`, 60000), JSON.stringify(await cdp.eval(BIG_IDS)));
  await cdp.idle();
  check('big: the people picker’s search box is untouched by the big list', (await cdp.eval('document.getElementById("search").value')) === '');
  await cdp.key('Backspace', 'Backspace', 8);
  await firstBig(matching[0].id);
  await cdp.idle();
  const clip = await cdp.eval(`(() => { const a = document.getElementById('big-screen'); a.scrollIntoView(); const r = a.getBoundingClientRect(); return { x: r.left, y: r.top + window.scrollY, width: r.width, height: r.height + 8, scale: 1 }; })()`);
  const bigShot = await cdp.send('Page.captureScreenshot', { format: 'png', clip, captureBeyondViewport: true });
  writeFileSync(join(shots, 'screenshot-big.png'), Buffer.from(bigShot.data, 'base64'));
  await cdp.eval('window.scrollTo(0, 0); true');
  check(`big-list screenshot saved to ${join(shots, 'screenshot-big.png')}`, existsSync(join(shots, 'screenshot-big.png')));
  check('no errors reported by the page', same(await cdp.eval('window.__diffable.failures'), []), JSON.stringify(await cdp.eval('window.__diffable.failures')));

  // screenshot: Grace and Lucas added, "a" typed
  for (const id of ['grace-elizabeth', 'lucas-john']) await cdp.eval(`document.querySelector("#people .person[data-id=${id}]").click()`);
  await cdp.until(`${ADDED}.length === 2`);
  await cdp.eval('document.getElementById("search").focus()');
  await cdp.type('a');
  await cdp.until('document.getElementById("search").value === "a"');
  await cdp.idle();
  await cdp.key('ArrowDown', 'ArrowDown', 40);
  await new Promise((r) => setTimeout(r, 400)); // let the animations finish
  const shot = await cdp.send('Page.captureScreenshot', { format: 'png', captureBeyondViewport: false });
  const png = join(shots, 'screenshot.png');
  if (existsSync(png)) unlinkSync(png);
  writeFileSync(png, Buffer.from(shot.data, 'base64'));
  check(`screenshot saved to ${png}`, existsSync(png));
  console.log(`(${((Date.now() - started) / 1000).toFixed(1)} s)`);
}

try {
  await main();
} catch (error) {
  check('the run completed', false, error.stack ?? String(error));
} finally {
  for (const cleanup of cleanups.reverse()) { try { cleanup(); } catch { /* best effort */ } }
}
console.log(`${passed} passed, ${failed} failed`);
process.exit(failed ? 1 : 0);
