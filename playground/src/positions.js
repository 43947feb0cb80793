// agentc's reports count columns in Unicode scalar values (1-based, ends
// exclusive); CodeMirror counts offsets in UTF-16 code units. A character
// outside the Basic Multilingual Plane (an emoji) is one column and two
// code units, so the two differ after one on the same line.

/** The document offset of a report's 1-based line and column, clamped to the document. */
export function toOffset(doc, line, column) {
  if (!Number.isFinite(line) || line < 1) return 0;
  if (line > doc.lines) return doc.length;
  const at = doc.line(line);
  const text = at.text;
  let index = 0;
  for (let col = 1; col < column && index < text.length; col++) {
    const code = text.codePointAt(index);
    index += code > 0xffff ? 2 : 1;
  }
  return at.from + index;
}

/** A report's range as document offsets, `from <= to`. */
export function toRange(doc, range) {
  const from = toOffset(doc, range.line, range.column);
  const to = toOffset(doc, range.endLine ?? range.line, range.endColumn ?? range.column);
  return to < from ? { from, to: from } : { from, to };
}
