// Seeded random requests for the random session test (a port and extension of
// the Python client's --selftest generators).

/** mulberry32: small, fast, and the same sequence on every platform. */
export function seededRandom(seed) {
  let state = seed >>> 0;
  const next = () => {
    state = (state + 0x6d2b79f5) >>> 0;
    let t = state;
    t = Math.imul(t ^ (t >>> 15), t | 1);
    t ^= t + Math.imul(t ^ (t >>> 7), t | 61);
    return ((t ^ (t >>> 14)) >>> 0) / 4294967296;
  };
  const int = (lo, hi) => lo + Math.floor(next() * (hi - lo + 1)); // inclusive
  const pick = (list) => list[Math.floor(next() * list.length)];
  const shuffle = (list) => {
    for (let i = list.length - 1; i > 0; i--) {
      const j = Math.floor(next() * (i + 1));
      [list[i], list[j]] = [list[j], list[i]];
    }
    return list;
  };
  const sample = (list, n) => shuffle([...list]).slice(0, n);
  return { next, int, pick, shuffle, sample, chance: (p) => next() < p };
}

const WORDS = 'grace liam ava ruby stella jack emma olivia ethan amelia lucas noah isla mason chloe éva zoë'.split(' ');

function randomContent(r) {
  const roll = r.next();
  if (roll < 0.75) return { text: `${r.pick(WORDS)} ${r.pick(WORDS)}` };
  if (roll < 0.9) return r.pick(WORDS);
  if (roll < 0.95) return { text: r.pick(WORDS), n: r.int(0, 3) };
  return undefined;
}

function withContent(id, content) {
  return content === undefined ? { id } : { id, content };
}

const allItems = (full) => full.flatMap((section) => section.items);

/** A random successor of the whole snapshot `full`: moves within and across sections,
 * content, header, section and selection-policy changes, items coming and going. */
export function randomSnapshot(r, full) {
  const items = r.shuffle(allItems(full).map((item) => ({ ...item })));
  const keep = items.filter(() => r.chance(0.8));
  const used = new Set(items.map((item) => item.id));
  for (let n = r.int(0, 4); n > 0; n--) {
    const id = `i${r.int(0, 59)}`; // a small pool, so deleted ids come back
    if (!used.has(id)) {
      used.add(id);
      keep.push({ id });
    }
  }
  for (const item of keep) {
    if (!('content' in item) || r.chance(0.2)) {
      const content = randomContent(r);
      if (content === undefined) delete item.content;
      else item.content = content;
    }
  }
  let ids = [...full.map((s) => s.id).filter(() => r.chance(0.85)), ...Array.from({ length: r.int(0, 2) }, () => `s${r.int(0, 7)}`)];
  ids = [...new Set(ids)];
  if (ids.length === 0) ids = ['s0'];
  if (r.chance(0.4)) r.shuffle(ids);
  const sections = ids.map((id) => {
    const old = full.find((s) => s.id === id) ?? {};
    const header = r.chance(0.8) ? old.header : r.pick([null, id.toUpperCase(), { title: r.pick(WORDS) }]);
    const section = { id, items: [] };
    if (header !== undefined && header !== null) section.header = header;
    if (r.chance(0.2)) section.selection = r.pick(['single', 'multiple', 'none']);
    return section;
  });
  const home = new Map(full.flatMap((s) => s.items.map((item) => [item.id, s.id])));
  for (const item of keep) {
    let target = sections.find((s) => s.id === home.get(item.id));
    if (!target || r.chance(0.25)) target = r.pick(sections);
    target.items.push(r.chance(0.1) && item.content === undefined ? item.id : item); // sometimes the bare-id form
  }
  return sections;
}

/** 1–3 edit ops over `full`; some are meant to fail (1004). */
export function randomEditOps(r, full, round) {
  const itemIds = allItems(full).map((item) => item.id);
  const sectionIds = full.map((section) => section.id);
  const fresh = (k) => withContent(`e${round}_${k}`, randomContent(r));
  const position = (ids) => ({ [r.pick(['before', 'after'])]: r.pick(ids) });
  const ops = [];
  for (let k = r.int(1, 3); k > 0; k--) {
    const choices = ['appendItems', 'appendSections'];
    if (itemIds.length) choices.push('insertItems', 'deleteItems', 'moveItem', 'moveItem', 'setContent', 'setContent', 'reloadItems', 'reconfigureItems');
    if (sectionIds.length) choices.push('insertSections', 'moveSection', 'setHeaders', 'reloadSections', 'deleteSections');
    if (r.chance(0.03)) choices.push('deleteAllItems', 'moveItemToGhost');
    const kind = r.pick(choices);
    switch (kind) {
      case 'appendItems': ops.push({ op: kind, items: [fresh(k), fresh(k + 10)].slice(0, r.int(1, 2)), ...(sectionIds.length && r.chance(0.5) ? { section: r.pick(sectionIds) } : {}) }); break;
      case 'appendSections': ops.push({ op: kind, sections: [{ id: `es${round}_${k}`, header: r.pick(WORDS), items: [fresh(k + 20)] }] }); break;
      case 'insertItems': ops.push({ op: kind, items: [fresh(k + 30)], ...position(itemIds) }); break;
      case 'insertSections': ops.push({ op: kind, sections: [{ id: `es${round}_${k + 40}`, items: [] }], ...position(sectionIds) }); break;
      case 'deleteItems': ops.push({ op: kind, ids: r.sample(itemIds, r.int(1, Math.min(2, itemIds.length))) }); break;
      case 'deleteSections': ops.push({ op: kind, ids: [r.pick(sectionIds)] }); break;
      case 'moveItem': ops.push({ op: kind, id: r.pick(itemIds), ...position(itemIds) }); break;
      case 'moveItemToGhost': ops.push({ op: 'moveItem', id: r.pick(itemIds.length ? itemIds : ['ghost']), before: 'ghost' }); break;
      case 'moveSection': ops.push({ op: kind, id: r.pick(sectionIds), ...position(sectionIds) }); break;
      case 'setContent': ops.push({ op: kind, items: [withContent(r.pick(itemIds), randomContent(r))], ...(r.chance(0.5) ? { style: r.pick(['reload', 'reconfigure']) } : {}) }); break;
      case 'reloadItems':
      case 'reconfigureItems': ops.push({ op: kind, ids: [r.pick(itemIds)] }); break;
      case 'setHeaders': ops.push({ op: kind, sections: [{ id: r.pick(sectionIds), header: r.pick([null, r.pick(WORDS), { title: r.pick(WORDS) }]) }] }); break;
      case 'reloadSections': ops.push({ op: kind, ids: [r.pick(sectionIds)] }); break;
      case 'deleteAllItems': ops.push({ op: kind }); break;
      default: throw new Error(kind);
    }
  }
  return ops;
}

/** A search request's options: scope, mode, order, limit, highlight limit and a placeholder varying in id and content. */
export function randomSearch(r, full) {
  const texts = allItems(full).map((item) => (typeof item.content === 'string' ? item.content : item.content?.text)).filter(Boolean);
  const text = texts.length ? r.pick(texts) : 'x';
  const start = r.int(0, text.length - 1);
  const query = r.pick(['', text.slice(start, start + r.int(1, 4)), text.slice(start, start + r.int(1, 4)).toUpperCase(), 'zz', 'gr', 'a e']);
  const options = { mode: r.pick(['substring', 'fuzzy', undefined]) };
  if (full.length && r.chance(0.5)) options.sections = r.sample(full.map((s) => s.id), r.int(1, full.length));
  if (r.chance(0.3)) options.limit = r.int(0, 5);
  if (r.chance(0.2)) options.order = r.pick(['source', 'score']);
  if (r.chance(0.2)) options.highlightLimit = r.int(0, 3);
  if (r.chance(0.4)) {
    const ids = ['no-results', 'empty', 'placeholder-2'];
    if (allItems(full).length && r.chance(0.1)) ids.push(allItems(full)[0].id); // collides with an item: -32602
    options.placeholder = withContent(r.pick(ids), r.pick([{ text: 'No results' }, { text: 'Nothing for you' }, 'empty', undefined]));
  }
  return { query, options };
}

/** select options: ids, visible paths, or a clear by sections. */
export function randomSelect(r, full, visible) {
  const action = r.pick(['select', 'select', 'deselect', 'toggle', 'clear']);
  const ids = allItems(full).map((item) => item.id);
  if (action === 'clear') return r.chance(0.5) && full.length ? { action, sections: [r.pick(full).id] } : { action };
  const paths = visible.flatMap((section, s) => section.items.map((_, row) => [s, row]));
  if (paths.length && r.chance(0.3)) return { action, paths: [r.pick(paths)] };
  return ids.length ? { action, ids: r.sample(ids, r.int(1, Math.min(2, ids.length))) } : { action: 'clear' };
}

/** setSelectionMode's sections: a policy for one or two sections (some that do not exist yet). */
export function randomPolicies(r, full) {
  const policies = {};
  for (const id of r.sample([...full.map((s) => s.id), 's7'], r.int(1, 2))) {
    const mode = r.pick(['none', 'single', 'multiple']);
    policies[id] = mode !== 'none' && r.chance(0.3) ? { mode, allowsEmpty: false } : { mode };
  }
  return policies;
}
