/**
 * Tables from Terraform (`resource "aws_dynamodb_table" "x" { hash_key, range_key, attribute {...},
 * global_secondary_index {...}, local_secondary_index {...} }`) and the Lambda environment variables that carry
 * their names (`environment { variables = { TABLE = aws_dynamodb_table.x.name } }`). Parsed with tree-sitter's
 * Terraform grammar (WASM, loaded on the first .tf file).
 */
import type { Node } from 'web-tree-sitter';
import { EnvBinding, FileTables, IndexDef, KeyAttr, KeyType, LineMap, NameSpec, TableDef, keyTypeOf } from './model';
import { parserFor } from './grammars';

export function mayDefineTerraformTable(text: string): boolean {
  return text.includes('aws_dynamodb_table');
}

const named = (n: Node | null | undefined): Node[] => (n ? n.namedChildren.filter((c): c is Node => c !== null) : []);

/** A block's label strings: `resource "aws_dynamodb_table" "likes"` -> ['aws_dynamodb_table', 'likes']. */
function labels(block: Node): string[] {
  return named(block)
    .filter((c) => c.type === 'string_lit' || c.type === 'identifier')
    .slice(1)
    .map((c) => (c.type === 'string_lit' ? stringOf(c) ?? '' : c.text));
}

/** A string literal or template: literal text, interpolations as `*`; undefined for anything else. */
function stringOf(n: Node | null | undefined): string | undefined {
  if (!n) return undefined;
  if (n.type === 'expression' || n.type === 'literal_value' || n.type === 'template_expr') return named(n).length === 1 ? stringOf(named(n)[0]) : undefined;
  if (n.type !== 'string_lit' && n.type !== 'quoted_template') return undefined;
  let out = '';
  for (const c of named(n)) {
    if (c.type === 'template_literal') out += c.text;
    else if (c.type === 'template_interpolation' || c.type === 'template_directive') out += '*';
  }
  return out.replace(/\*+/g, '*');
}

interface Body {
  attrs: Map<string, Node>;
  blocks: { type: string; labels: string[]; node: Node; body: Body }[];
}

function body(block: Node): Body {
  const b = named(block).find((c) => c.type === 'body');
  const out: Body = { attrs: new Map(), blocks: [] };
  for (const c of named(b)) {
    if (c.type === 'attribute') {
      const [k, v] = named(c);
      if (k && v) out.attrs.set(k.text, v);
    } else if (c.type === 'block') {
      const type = named(c)[0]?.text ?? '';
      out.blocks.push({ type, labels: labels(c), node: c, body: body(c) });
    }
  }
  return out;
}

const attrStr = (b: Body, k: string) => stringOf(b.attrs.get(k));

/** `aws_dynamodb_table.likes.name` / `.id` -> `likes`. */
function tableRef(n: Node | undefined): string | undefined {
  const m = n ? /^aws_dynamodb_table\.([A-Za-z0-9_-]+)\.(name|id)$/.exec(n.text.trim()) : undefined;
  return m?.[1];
}

/** Tables and Lambda environment bindings of one .tf file (needs `ensureTerraformParser()` first). */
export function terraformTables(uri: string, label: string, text: string): FileTables {
  const out: FileTables = { uri, tables: [], env: [], problems: [] };
  const parser = parserFor('terraform');
  if (!parser) return out;
  const lines = new LineMap(text);
  const tree = parser.parse(text);
  if (!tree) return out;
  try {
    const root = named(tree.rootNode).find((c) => c.type === 'body');
    const resources = named(root).filter((c) => c.type === 'block' && named(c)[0]?.text === 'resource');
    for (const res of resources) {
      const [type, name] = labels(res);
      if (type !== 'aws_dynamodb_table' || !name) continue;
      const b = body(res);
      const location = lines.location(uri, label, res.startIndex, named(res).find((c) => c.type === 'block_start')?.startIndex ?? res.endIndex);
      if (res.hasError) {
        out.problems.push({ message: `aws_dynamodb_table.${name}: syntax error in the block; requests against it are linted without its key schema.`, location });
        continue;
      }
      const hash = attrStr(b, 'hash_key');
      if (!hash || hash.includes('*')) {
        out.problems.push({ message: `aws_dynamodb_table.${name}: hash_key is not a literal; requests against it are linted without its key schema.`, location });
        continue;
      }
      const types = new Map<string, KeyType>();
      for (const a of b.blocks.filter((x) => x.type === 'attribute')) {
        const n = attrStr(a.body, 'name');
        const t = keyTypeOf(attrStr(a.body, 'type'));
        if (n && t) types.set(n, t);
      }
      const attr = (n: string): KeyAttr => (types.has(n) ? { name: n, type: types.get(n) } : { name: n });
      const range = attrStr(b, 'range_key');
      const rawName = attrStr(b, 'name');
      const spec: NameSpec = rawName === undefined ? undefined : rawName.includes('*') ? { pattern: rawName } : { literal: rawName };
      const def: TableDef = { id: `${uri}#aws_dynamodb_table.${name}`, logicalId: `aws_dynamodb_table.${name}`, name: spec, source: 'terraform', partition: attr(hash), indexes: [], indexesKnown: true, location };
      if (range && !range.includes('*')) def.sort = attr(range);
      const billing = attrStr(b, 'billing_mode');
      def.billing = billing ?? 'PROVISIONED';
      for (const ix of b.blocks) {
        if (ix.type === 'dynamic') {
          if (/secondary_index/.test(ix.labels[0] ?? '')) def.indexesKnown = false;
          continue;
        }
        if (ix.type !== 'global_secondary_index' && ix.type !== 'local_secondary_index') continue;
        const ixName = attrStr(ix.body, 'name');
        const global = ix.type === 'global_secondary_index';
        const ixHash = global ? attrStr(ix.body, 'hash_key') : hash;
        if (!ixName || !ixHash || ixName.includes('*') || ixHash.includes('*')) {
          def.indexesKnown = false;
          continue;
        }
        const proj = attrStr(ix.body, 'projection_type');
        const nka = ix.body.attrs.get('non_key_attributes');
        const attributes = nka ? (nka.descendantsOfType('string_lit').filter((c): c is Node => c !== null).map((c) => stringOf(c)).filter((s): s is string => !!s && !s.includes('*'))) : undefined;
        const idx: IndexDef = { name: ixName, kind: global ? 'global' : 'local', partition: attr(ixHash), location: lines.location(uri, label, ix.node.startIndex, ix.node.endIndex) };
        const ixRange = attrStr(ix.body, 'range_key');
        if (ixRange && !ixRange.includes('*')) idx.sort = attr(ixRange);
        if (proj) idx.projection = attributes ? { type: proj, attributes } : { type: proj };
        def.indexes.push(idx);
      }
      out.tables.push(def);
    }
    // Lambda functions: environment { variables = { TABLE = aws_dynamodb_table.likes.name } }
    const defined = new Set(out.tables.map((t) => t.logicalId));
    for (const res of resources) {
      const [type] = labels(res);
      if (type !== 'aws_lambda_function') continue;
      for (const envBlock of body(res).blocks.filter((x) => x.type === 'environment')) {
        const vars = envBlock.body.attrs.get('variables');
        for (const elem of vars ? vars.descendantsOfType('object_elem').filter((c): c is Node => c !== null) : []) {
          const k = elem.childForFieldName('key');
          const v = elem.childForFieldName('val');
          const key = k ? (stringOf(k) ?? k.text.trim()) : undefined;
          if (!key || !v) continue;
          const location = lines.location(uri, label, elem.startIndex, elem.endIndex);
          const ref = tableRef(v);
          const binding: EnvBinding | undefined = ref
            ? defined.has(`aws_dynamodb_table.${ref}`)
              ? { variable: key, tableId: `${uri}#aws_dynamodb_table.${ref}`, location }
              : undefined
            : stringOf(v) !== undefined
              ? { variable: key, name: stringOf(v)!.includes('*') ? { pattern: stringOf(v)! } : { literal: stringOf(v)! }, location }
              : undefined;
          if (binding) out.env.push(binding);
        }
      }
    }
  } finally {
    tree.delete();
  }
  return out;
}
