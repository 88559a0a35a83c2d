// Progressive search (protocol/methods/search.md, "Progressive answers"): which
// `searchRefined` notification belongs to which search answer, so a frontend can
// apply each answer and then its refinement in arrival order.
//
// The daemon sends a partial answer's refinement before it answers anything else,
// unless the next message is a search of the same source: that keystroke drops it.
// So the refinement of a partial answer is the first `searchRefined` of its source
// after it, and the next search answer of that source settles it as `null`.

/** Rejected by `Client.refinement` when the refinement does not come within the timeout. */
export class RefinementTimeoutError extends Error {
  constructor(source, timeoutMs) {
    super(`no searchRefined for ${JSON.stringify(source)} within ${timeoutMs} ms`);
    this.name = 'RefinementTimeoutError';
    this.source = source;
    this.timeout = timeoutMs;
  }
}

function settled(value) {
  return { promise: Promise.resolve(value), settle() {}, source: undefined };
}

export class Refinements {
  constructor() {
    this.due = new Map(); // source -> the entry of its partial answer, while the refinement may come
    this.bySource = new Map(); // source -> the entry of its last search answer
    this.byResult = new WeakMap(); // a search result object -> its entry
  }

  /** A search answer arrived (before its caller sees it). - Complexity: O(1). */
  answered(result) {
    const source = result?.source;
    if (typeof source !== 'string') return;
    this.due.get(source)?.settle(null); // this keystroke dropped it
    this.due.delete(source);
    let entry;
    if (result.search?.partial === true) {
      let settle;
      const promise = new Promise((resolve, reject) => { settle = (value, error) => (error ? reject(error) : resolve(value)); });
      promise.catch(() => {}); // nobody has to wait for it
      entry = { promise, settle, source };
      this.due.set(source, entry);
    } else {
      entry = settled(null);
    }
    this.bySource.set(source, entry);
    this.byResult.set(result, entry);
  }

  /** A `searchRefined` notification arrived. - Complexity: O(1). */
  refined(params) {
    const source = params?.source;
    const entry = typeof source === 'string' ? this.due.get(source) : undefined;
    if (!entry) return;
    this.due.delete(source);
    entry.settle(params);
  }

  /** The daemon is gone: no refinement will come. */
  failAll(error) {
    for (const entry of this.due.values()) entry.settle(undefined, error);
    this.due.clear();
  }

  /**
   * The refinement of a search answer (the result object) or of the last search
   * answer of a source (its name): its `searchRefined` params, or null when that
   * answer was exact, was followed by another search answer of its source first,
   * or is unknown. Rejects with RefinementTimeoutError after `timeout` ms.
   */
  wait(of, timeout) {
    const entry = typeof of === 'string' ? this.bySource.get(of) : (of && this.byResult.get(of));
    if (!entry) return Promise.resolve(null);
    if (timeout === undefined || timeout === null || timeout === Infinity) return entry.promise;
    let timer;
    const late = new Promise((_, reject) => {
      timer = setTimeout(() => reject(new RefinementTimeoutError(entry.source ?? of, timeout)), timeout);
    });
    return Promise.race([entry.promise, late]).finally(() => clearTimeout(timer));
  }
}
