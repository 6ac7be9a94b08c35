/**
 * Hover markdown carries document text as text: hostile table names, placeholders and values cannot close their code
 * span or fence and reach the client as live markdown (an image fetched on hover, a link). Checked by rendering with
 * markdown-it at its most permissive (HTML and bare-URL links on), as a hover renderer would.
 */
import { strict as assert } from 'node:assert';
import { createRequire } from 'node:module';
import { Position, TextDocument } from 'vscode-languageserver-textdocument';
import { initParsers } from '../../../server/src/extract';
import { codeSpan, escapeMarkdown, fence } from '../../../server/src/language/markdown';
import { DEFAULT_SETTINGS } from '../../../server/src/protocol/settings';
import { DynalintService } from '../../../server/src/service';

// markdown-it is installed with @vscode/vsce (a dev dependency); no types are published with it.
const MarkdownIt = createRequire(__filename)('markdown-it') as new (o: object) => { render(src: string): string };
const render = (src: string) => new MarkdownIt({ html: true, linkify: true }).render(src);
/** Live markup: anything that fetches, links or formats beyond code/paragraph/table/emphasis we wrote ourselves. */
const live = (html: string) => /<(img|a|script|iframe|h\d)\b/i.test(html);

const IMG = '![pwn](https://evil.example/p.png)';
const HOSTILE = [
  IMG,
  'x`' + IMG + '`y',
  '```\n' + IMG + '\n```',
  '````' + IMG,
  '<img src=https://evil.example/p.png>',
  'https://evil.example/click',
  'www.evil.example',
  '[click](https://evil.example)',
  '| a | ' + IMG + ' |',
  '# heading\n' + IMG,
  '&#60;img src=x&#62;',
];

describe('markdown from document text', () => {
  it('fence(): no content closes it, whatever its backtick runs', () => {
    for (const s of HOSTILE) {
      const html = render(fence(s));
      assert.ok(!live(html), `${JSON.stringify(s)} -> ${html}`);
      assert.match(html, /^<pre><code>/);
    }
    assert.equal(fence('a ```` b'), '`````\na ```` b\n`````');
    assert.equal(fence('plain'), '```\nplain\n```');
  });

  it('codeSpan(): stays one literal span, in a paragraph and in a table cell', () => {
    for (const s of HOSTILE) {
      const para = render(`Put ${codeSpan(s)} here`);
      assert.ok(!live(para), `${JSON.stringify(s)} -> ${para}`);
      const table = render(`| op | x |\n|---|---|\n| Put ${codeSpan(s, { inTable: true })} | 1 |\n`);
      assert.ok(!live(table), `${JSON.stringify(s)} -> ${table}`);
      assert.equal(table.match(/<td>/g)?.length, 2, table);
    }
    assert.equal(codeSpan('Likes'), '`Likes`');
    assert.equal(codeSpan('a`b'), '``a`b``');
    assert.equal(codeSpan('`a'), '`` `a ``');
  });

  it('escapeMarkdown(): plain text stays plain', () => {
    for (const s of HOSTILE) {
      const html = render(`prices for ${escapeMarkdown(s)}`);
      assert.ok(!live(html), `${JSON.stringify(s)} -> ${html}`);
    }
    assert.equal(escapeMarkdown('us-east-1'), 'us-east-1');
  });
});

describe('hovers over hostile documents', () => {
  before(() => initParsers());
  const hoverAt = (text: string, languageId: string, needle: string, delta = 1): string => {
    const doc = TextDocument.create(`file:///h.${languageId === 'python' ? 'py' : 'json'}`, languageId, 1, text);
    const at: Position = doc.positionAt(text.indexOf(needle) + delta);
    const hover = new DynalintService().hover(doc, DEFAULT_SETTINGS, at);
    return hover && typeof hover.contents === 'object' && 'value' in hover.contents ? hover.contents.value : '';
  };

  it('the cost hover: a table name and a counter that try to close their code spans', () => {
    const table = 'T`' + IMG + '`|x';
    const text = JSON.stringify(
      {
        TableName: table,
        Key: { PK: { S: 'a' } },
        UpdateExpression: 'ADD #c :one',
        ExpressionAttributeNames: { '#c': 'n`' + IMG },
        ExpressionAttributeValues: { ':one': { N: '1' } },
      },
      null,
      2,
    );
    const value = hoverAt(text, 'json', '"UpdateExpression"');
    assert.match(value, /cost estimate/);
    const html = render(value);
    assert.ok(!live(html), html);
    assert.ok(html.includes('evil.example/p.png'), 'the text is still shown, as text');
  });

  it('the placeholder hover: a value whose text contains a fence', () => {
    const text = `import boto3
ddb = boto3.resource("dynamodb")
t = ddb.Table("T")
t.update_item(Key={"PK": "a"}, UpdateExpression="SET a = :v", ExpressionAttributeValues={":v": """
\`\`\`
${IMG}
<img src=https://evil.example/q.png>
"""})
`;
    const value = hoverAt(text, 'python', 'SET a = :v', 'SET a = :'.length);
    assert.match(value, /ExpressionAttributeValues/);
    const html = render(value);
    assert.ok(!live(html), `${value}\n---\n${html}`);
  });
});
