// The smallest DOM that dom.js needs, strict like the real one: insertBefore
// and removeChild throw on a node that is not where the caller claims.
export class FakeElement {
  constructor(tagName, ownerDocument) {
    this.tagName = tagName.toUpperCase();
    this.ownerDocument = ownerDocument;
    this.attributes = new Map();
    this.children = [];
    this.parentNode = null;
    this.textContent = '';
  }

  setAttribute(name, value) { this.attributes.set(name, String(value)); }
  getAttribute(name) { return this.attributes.has(name) ? this.attributes.get(name) : null; }
  hasAttribute(name) { return this.attributes.has(name); }

  insertBefore(node, reference) {
    if (reference !== null && reference.parentNode !== this) throw new Error('insertBefore: reference is not a child');
    if (node.parentNode) node.parentNode.removeChild(node);
    const at = reference === null ? this.children.length : this.children.indexOf(reference);
    this.children.splice(at, 0, node);
    node.parentNode = this;
    return node;
  }

  appendChild(node) { return this.insertBefore(node, null); }

  removeChild(node) {
    const at = this.children.indexOf(node);
    if (at < 0) throw new Error('removeChild: not a child');
    this.children.splice(at, 1);
    node.parentNode = null;
    return node;
  }

  replaceChild(node, old) {
    const at = this.children.indexOf(old);
    if (at < 0) throw new Error('replaceChild: not a child');
    if (node.parentNode) node.parentNode.removeChild(node);
    this.children[at] = node;
    old.parentNode = null;
    node.parentNode = this;
    return old;
  }
}

export class FakeDocument {
  createElement(tagName) { return new FakeElement(tagName, this); }
}

/** Row renderer used by the tests: the text is the id and content, so re-renders are visible. */
export const renderOptions = (counters = { render: 0, update: 0 }) => ({
  counters,
  render(item, section) {
    counters.render++;
    const element = new FakeDocument().createElement('li');
    element.section = section;
    element.textContent = `${item.id}:${JSON.stringify(item.content ?? null)}`;
    return element;
  },
  update(element, item) {
    counters.update++;
    element.textContent = `${item.id}:${JSON.stringify(item.content ?? null)}`;
  },
  renderHeader(section) {
    if (section.header === undefined || section.header === null) return null;
    const element = new FakeDocument().createElement('h2');
    element.textContent = JSON.stringify(section.header);
    return element;
  },
});

/** What the container shows, as {id, header, rows: [text]} per section. */
export function describe(container) {
  return container.children.map((section) => {
    const hasHeader = section.children[0]?.hasAttribute('data-header') ?? false;
    return {
      id: section.getAttribute('data-id'),
      header: hasHeader ? section.children[0].textContent : null,
      rows: section.children.slice(hasHeader ? 1 : 0).map((row) => row.textContent),
    };
  });
}

/** The same shape from the model's sections, to compare with `describe`. */
export function expectedView(sections) {
  return sections.map((section) => ({
    id: section.id,
    header: section.header === undefined || section.header === null ? null : JSON.stringify(section.header),
    rows: section.items.map((item) => `${item.id}:${JSON.stringify(item.content ?? null)}`),
  }));
}
