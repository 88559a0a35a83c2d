// Programs as users write them against the package's types: `tsc` (types.test.js) must accept this
// file. It also pins that the hand-written builder types stay within what the schemas accept.
import {
  Client, Frontend, RpcError, ErrorCodes,
  type ApplyParams, type ChangeResult, type EditOp, type EditParamsOp, type FullSnapshotResult, type Highlight,
  type InitializeResult, type Item, type ProgressValue, type Row, type SearchRefinedParams, type SearchResult, type SectionInput,
  type SelectResult, type SnapshotResult, type Step, type WindowRow, type WindowUpdate,
} from '../../index.js';
import { replaySteps, type Section } from '../../frontend.js';
import { applyWindowSteps } from '../../dom.js';

type Assert<T extends true> = T;
/** Every op `Client.edit` takes is one `edit.schema.json` accepts. */
export type EditOpsAreSchemaOps = Assert<EditOp extends EditParamsOp ? true : false>;
/** Every answer `Frontend.update` replays is a ChangeResult. */
type Answer = Awaited<ReturnType<Client['apply' | 'edit' | 'search' | 'select' | 'setSelectionMode' | 'viewport' | 'expand' | 'collapse']>>;
export type AnswersReplay = Assert<[Answer] extends [ChangeResult] ? true : false>;
/** The client's apply options name every member of the schema's params (less the positional ones). */
type ApplyOptions = NonNullable<Parameters<Client['apply']>[2]>;
export type ApplyOptionsAreParams = Assert<Exclude<keyof ApplyParams, 'source' | 'sections' | 'workDoneToken'> extends keyof ApplyOptions ? true : false>;

function people(names: string[]): SectionInput[] {
  return [{ id: 'list', header: 'People', selection: 'multiple', items: names.map((name) => ({ id: name.toLowerCase(), content: { text: name } })) }];
}

export async function session(): Promise<Row[]> {
  const client = await Client.start({ initializationOptions: { form: 'steps', echo: 'ids' }, timeout: 5000 });
  const info: InitializeResult | undefined = client.initializeResult;
  const version: string | undefined = info?.serverInfo.version;
  const frontend = new Frontend();
  frontend.update(await client.apply('people', people(['Ada', 'Grace']), { viewport: null, updates: 'patch' }));
  frontend.update(await client.edit('people', [
    { op: 'insertItems', items: [{ id: 'alan', content: 'Alan' }], after: 'ada' },
    { op: 'patchContent', id: 'ada', patch: [{ op: 'replace', path: '/text', value: 'Ada L.' }] },
  ]));
  const selected: SelectResult = await client.select('people', { ids: ['alan'] });
  frontend.update(selected);
  const found: SearchResult = await client.search('people', 'a', {
    mode: 'fuzzy', order: 'score', tiebreak: ['length'], onProgress: (value: ProgressValue) => console.log(value.kind),
  });
  frontend.update(found);
  // progressive search: the partial answer, then its refinement, applied in that order
  const quick: SearchResult = await client.search('people', 'ad', { order: 'score', progressive: true });
  frontend.update(quick);
  const partial: true | undefined = quick.search.partial;
  const refined: SearchRefinedParams | null = await client.refinement(quick, { timeout: 1000 });
  if (refined) frontend.update(refined);
  console.log(partial, await client.refinement('people'));
  const highlights: Highlight[] = found.highlights ?? [];
  const steps: Step[] = found.steps ?? [];
  const window: WindowUpdate | null | undefined = (await client.viewport('people', { start: 0, count: 20 })).window;
  const rows: WindowRow[] = (await client.rows('people', { count: 10 })).rows;
  const snapshot: SnapshotResult = await client.snapshot('people');
  const visible: Item[] = (await client.snapshot('people')).sections[0].items;
  const full: FullSnapshotResult = await client.snapshot('people', { full: true });
  const held: Section[] = replaySteps([], steps);
  await client.setSelectionMode('people', { list: { mode: 'single' } });
  console.log(version, highlights, window, rows, snapshot, visible, full.sections[0].items[0].children, held,
    (await client.sources()).sources[0].items, (await client.drop('people')).dropped);
  try {
    await client.snapshot('vegetables');
  } catch (error) {
    if (error instanceof RpcError && error.code === ErrorCodes.UnknownSource) console.log(error.data);
  }
  await client.close();
  return frontend.rows('people').filter((row) => row.kind === 'item');
}

export function draw(container: Element, update: WindowUpdate): Element {
  return applyWindowSteps(container, update, { render: (row) => document.createElement(row.header ? 'h2' : 'li') });
}
