/**
 * Markdown built from document text (table names, attribute names, expression values, settings) must stay text: a
 * name like ``x`![img](https://evil.example/t.png)`` would otherwise close its code span and reach the client as live
 * markdown (an image fetched on hover, a link). Every hover and markdown string the server builds goes through these.
 */

/** The longest run of `ch` in `s`. */
function longestRun(s: string, ch: string): number {
  let best = 0;
  let run = 0;
  for (const c of s) {
    run = c === ch ? run + 1 : 0;
    if (run > best) best = run;
  }
  return best;
}

/**
 * A fenced code block that nothing in `text` can close: the fence is one backtick longer than the longest backtick
 * run inside (at least three).
 */
export function fence(text: string, info = ''): string {
  const ticks = '`'.repeat(Math.max(3, longestRun(text, '`') + 1));
  return `${ticks}${info.replace(/[`\s]/g, '')}\n${text}\n${ticks}`;
}

/**
 * An inline code span holding `text` literally: the delimiter is longer than any backtick run inside, line breaks
 * become spaces, and (for a GFM table cell) `|` is escaped, which GFM honours inside code spans.
 */
export function codeSpan(text: string, opts: { inTable?: boolean } = {}): string {
  let t = text.replace(/\r\n|[\r\n\u2028\u2029]/g, ' ');
  if (opts.inTable) t = t.replace(/\|/g, '\\|');
  if (!t) return '` `';
  const ticks = '`'.repeat(longestRun(t, '`') + 1);
  const pad = t.startsWith('`') || t.endsWith('`') || (t.startsWith(' ') && t.endsWith(' ') && t.trim()) ? ' ' : '';
  return `${ticks}${pad}${t}${pad}${ticks}`;
}

/**
 * Plain text inside markdown: the characters that open inline markup (emphasis, code, links, images, HTML, entities,
 * tables, strikethrough) and those that make a bare URL a link (`:` of `https://`, `.` of `www.`) are backslash-escaped,
 * line breaks become spaces, and a line-start marker (`#`, `-`, `+`, `=`) at the very start is escaped too.
 */
export function escapeMarkdown(text: string): string {
  return text
    .replace(/\r\n|[\r\n\u2028\u2029]/g, ' ')
    .replace(/[\\`*_{}[\]()!|<>~&.:]/g, (c) => '\\' + c)
    .replace(/^[#\-+=]/, (c) => '\\' + c);
}
