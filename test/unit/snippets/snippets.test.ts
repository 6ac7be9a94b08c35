/**
 * Every contributed snippet, expanded with its defaults inside the code around it (imports, a client, a function),
 * is found by the extractor as the request it stands for, in the right value style, and lints clean.
 */
import assert from 'node:assert/strict';
import { readFileSync } from 'node:fs';
import { join } from 'node:path';
import { extract, initParsers } from '../../../server/src/extract';
import type { Api, ValueStyle } from '../../../server/src/extract/model';
import { runRules } from '../../../server/src/rules';

const root = join(__dirname, '..', '..', '..');
const pkg = JSON.parse(readFileSync(join(root, 'package.json'), 'utf8'));
const contributions: { language: string; path: string }[] = pkg.contributes.snippets;

interface Snippet {
  prefix: string;
  description: string;
  body: string[];
}

/** Expand a VS Code snippet with its defaults: `${n:text}` -> text, `$n` / `${n}` -> '', `\$` -> `$`. */
export function expandSnippet(body: string): string {
  let out = '';
  let i = 0;
  const close = (from: number): number => {
    // index of the `}` closing a placeholder whose text starts at `from` (placeholders may nest)
    let depth = 1;
    for (let j = from; j < body.length; j++) {
      if (body[j] === '\\') j++;
      else if (body.startsWith('${', j)) {
        depth++;
        j++;
      }
      else if (body[j] === '}' && --depth === 0) return j;
    }
    throw new Error(`unclosed placeholder in ${body}`);
  };
  while (i < body.length) {
    const c = body[i];
    if (c === '\\' && /[$}\\]/.test(body[i + 1] ?? '')) {
      out += body[i + 1];
      i += 2;
    } else if (body.startsWith('${', i)) {
      const m = /^\$\{(\d+)(:?)/.exec(body.slice(i));
      if (!m) throw new Error(`unsupported snippet syntax at ${body.slice(i, i + 20)}`);
      const end = close(i + m[0].length);
      if (m[2]) out += expandSnippet(body.slice(i + m[0].length, end));
      i = end + 1;
    } else if (c === '$' && /\d/.test(body[i + 1] ?? '')) {
      i++;
      while (/\d/.test(body[i] ?? '')) i++;
    } else {
      out += c;
      i++;
    }
  }
  return out;
}

const API: Record<string, Api> = {
  'like-transaction': 'TransactWriteItems',
  'unlike-transaction': 'TransactWriteItems',
  'counter-add': 'UpdateItem',
  'counter-if-not-exists': 'UpdateItem',
  'conditional-update': 'UpdateItem',
  'sharded-counter-write': 'UpdateItem',
  'sharded-counter-read': 'Query',
  'put-if-absent': 'PutItem',
};

const indent = (code: string, pad: string) => code.split('\n').map((l) => (l ? pad + l : l)).join('\n');

/** The code a snippet is inserted into, by language and value style. */
function program(languageId: string, style: ValueStyle, code: string): string {
  // JSON, YAML and AppSync VTL mapping templates are whole files.
  if (languageId.startsWith('json') || languageId === 'yaml' || languageId === 'velocity') return code;
  if (languageId === 'python')
    return [
      'import random',
      'import boto3',
      '',
      'client = boto3.client("dynamodb")',
      'table = boto3.resource("dynamodb").Table("Social")',
      '',
      '',
      'def handler(post_id, user_id, video_id, id, current, next):',
      indent(code, '    '),
      '    return total if "total" in dir() else None',
      '',
    ].join('\n');
  const imports =
    style === 'low-level'
      ? "import { DynamoDBClient, QueryCommand, TransactWriteItemsCommand, UpdateItemCommand } from '@aws-sdk/client-dynamodb';\nconst client = new DynamoDBClient({});"
      : "import { DynamoDBClient } from '@aws-sdk/client-dynamodb';\nimport { DynamoDBDocumentClient, QueryCommand, TransactWriteCommand, UpdateCommand } from '@aws-sdk/lib-dynamodb';\nconst docClient = DynamoDBDocumentClient.from(new DynamoDBClient({}));";
  const params = languageId.startsWith('typescript') ? 'postId: string, userId: string, videoId: string, id: string, current: number, next: number' : 'postId, userId, videoId, id, current, next';
  return `${imports}\n\nexport async function handler(${params}) {\n${indent(code, '  ')}\n}\n`;
}

describe('snippets', () => {
  before(() => initParsers());

  it('are contributed for every supported language from files that exist', () => {
    assert.deepEqual(contributions.map((c) => c.language).sort(), ['javascript', 'javascriptreact', 'json', 'jsonc', 'python', 'typescript', 'typescriptreact', 'yaml', 'go', 'java', 'velocity'].sort());
    for (const c of contributions) assert.ok(Object.keys(JSON.parse(readFileSync(join(root, c.path), 'utf8'))).length >= 7, c.path);
  });

  it('expandSnippet: defaults, escapes and empty tab stops', () => {
    assert.equal(expandSnippet('a ${1:Social} `${2:X}#\\${${3:id}}` $0${4}'), 'a Social `X#${id}` ');
  });

  const seen = new Set<string>();
  for (const c of contributions) {
    // Go and Java snippets are read inside their own programs by test/unit/hosts/snippets.test.ts.
    if (c.language === 'go' || c.language === 'java') continue;
    if (seen.has(c.path + c.language.replace(/react$/, ''))) continue;
    seen.add(c.path + c.language.replace(/react$/, ''));
    const snippets: Record<string, Snippet> = JSON.parse(readFileSync(join(root, c.path), 'utf8'));
    for (const [name, s] of Object.entries(snippets)) {
      const slug = s.prefix.replace(/^ddb-/, '').replace(/-(doc|resource)$/, '');
      const style: ValueStyle = /-(doc|resource)$/.test(s.prefix) ? 'document' : 'low-level';
      it(`${c.language}: ${name} (${s.prefix}) is found and lints clean`, () => {
        const body = s.body.join('\n');
        for (const n of [1, 2]) assert.ok(body.includes(`\${${n}:`), `tab stop ${n} (table / partition key) missing`);
        assert.ok(/\$\{\d+:(likeTally|views|balance|playCount|play_count)\}/.test(body), 'counter attribute name is not a tab stop');
        const text = program(c.language, style, expandSnippet(body));
        const res = extract(text, c.language);
        assert.equal(res.skipped, undefined);
        assert.deepEqual(
          res.sites.map((x) => [x.api, x.style]),
          [[API[slug], style]],
          text,
        );
        const findings = runRules(text, c.language, res.sites);
        assert.deepEqual(findings.map((f) => `${f.ruleId}: ${f.message} @${text.slice(f.range.start, f.range.end)}`), [], text);
      });
    }
  }
});
