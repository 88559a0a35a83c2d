// index.d.ts declares every name index.js exports (and frontend.d.ts every
// name frontend.js exports), so a TypeScript user can import what a
// JavaScript one can. The types a user annotates with are checked by tsc
// outside this suite (see README.md, "Types").
import assert from 'node:assert/strict';
import { readFileSync } from 'node:fs';
import { test } from 'node:test';

const declared = (file) => {
  const text = readFileSync(new URL(`../${file}`, import.meta.url), 'utf8');
  return new Set([...text.matchAll(/^export (?:declare )?(?:class|function|const|let|interface|type) (\w+)/gm)].map((m) => m[1]));
};

for (const [module, types, also] of [['index.js', 'index.d.ts', 'frontend.d.ts'], ['frontend.js', 'frontend.d.ts'],
  ['dom.js', 'dom.d.ts']]) {
  test(`${types} declares every export of ${module}`, async () => {
    const names = Object.keys(await import(`../${module}`));
    const known = new Set([...declared(types), ...(also ? declared(also) : [])]);
    assert.deepEqual(names.filter((name) => !known.has(name)), []);
  });
}
