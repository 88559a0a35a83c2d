// index.d.ts declares every name index.js exports (and frontend.d.ts every
// name frontend.js exports), so a TypeScript user can import what a
// JavaScript one can; and `tsc` accepts the declarations with a program
// written against them (typecheck/usage.ts: the generated types.d.ts, the
// hand-written builder types within the schemas' shapes).
import assert from 'node:assert/strict';
import { spawnSync } from 'node:child_process';
import { readFileSync } from 'node:fs';
import { fileURLToPath } from 'node:url';
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

test('tsc accepts the declarations and a program using them (tests/typecheck)', () => {
  const project = fileURLToPath(new URL('./typecheck/tsconfig.json', import.meta.url));
  const run = spawnSync('tsc', ['-p', project], { encoding: 'utf8' });
  assert.ok(!run.error, `tsc could not run (${run.error?.message}): install TypeScript (protocol/tools/install-test-tools)`);
  assert.equal(run.status, 0, `tsc -p ${project}:\n${run.stdout}${run.stderr}`);
});
