import DiffableEngine

// Snapshots written as short strings, for hand-checked examples.
//
// A section spec `"A=h"` is section `A` with header `h`; an item spec
// `"a1=x"` is item `a1` with content `x` (the text after the first `=`);
// without `=` there is no header or content.

/// The content whose bytes are `text`'s UTF-8.
package func content(_ text: String) -> Content { Content(bytes: Array(text.utf8)) }

/// The item an item spec names: `item("a1=x")`.
package func item(_ spec: String) -> Item {
    let parts = spec.split(separator: "=", maxSplits: 1).map(String.init)
    return Item(id: parts[0], content: parts.count > 1 ? content(parts[1]) : nil)
}

/// `snap(("A=h", ["a1=x", "a2"]), ("B", []))`: sections and items from specs.
/// - Complexity: O(items)
package func snap(_ sections: (String, [String])...) -> Snapshot {
    Snapshot(sections: sections.map { spec, items in
        let parts = spec.split(separator: "=", maxSplits: 1).map(String.init)
        return Section(id: parts[0], header: parts.count > 1 ? content(parts[1]) : nil, items: items.map(item))
    })
}

/// Row `row` of section `section`.
package func path(_ section: Int, _ row: Int) -> ItemPath { ItemPath(section: section, row: row) }
