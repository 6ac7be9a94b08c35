/**
 * The Python front end of cdk.ts (tree-sitter-python): `dynamodb.Table(self, "Id", partition_key=dynamodb.Attribute(
 * name="PK", type=dynamodb.AttributeType.STRING), ...)`, `table.add_global_secondary_index(...)`,
 * `environment={"TABLE": table.table_name}`, `fn.add_environment("TABLE", table.table_name)`, and boto3
 * `create_table(TableName=..., KeySchema=[...], ...)`. Keyword arguments become a map with camelCase keys (CDK) or as
 * written (boto3's PascalCase), so cdk.ts reads both hosts alike.
 */
import type { Node } from 'web-tree-sitter';
import { CodeFacts, CdkEnvEntry, readCodeFacts } from './cdk';
import { parserFor } from './grammars';
import { FileTables, LineMap } from './model';
import { PEntry, PNode, Span } from './value';

const MAX_DEPTH = 64;
const camel = (s: string) => s.replace(/_([a-z])/g, (_, c: string) => c.toUpperCase());
const kids = (n: Node | null | undefined): Node[] => (n ? n.namedChildren.filter((c): c is Node => c !== null) : []);

export function codeTablesPython(uri: string, label: string, text: string): FileTables {
  const parser = parserFor('python');
  const empty: FileTables = { uri, tables: [], env: [], problems: [] };
  if (!parser) return empty;
  const tree = parser.parse(text);
  if (!tree) return empty;
  try {
    const facts: CodeFacts = { tables: [], indexCalls: [], env: [], createTables: [] };
    const span = (n: Node): Span => ({ start: n.startIndex, end: n.endIndex });
    // Module-level NAME = "literal" (assigned once).
    const consts = new Map<string, Node | null>();
    for (const st of kids(tree.rootNode)) {
      const a = st.type === 'expression_statement' ? kids(st)[0] : undefined;
      const left = a?.type === 'assignment' ? a.childForFieldName('left') : null;
      const right = a?.type === 'assignment' ? a.childForFieldName('right') : null;
      if (left?.type === 'identifier' && right && (right.type === 'string' || right.type === 'concatenated_string')) consts.set(left.text, consts.has(left.text) ? null : right);
    }
    const str = (n: Node): { value: string; pattern: boolean } | undefined => {
      if (n.type === 'concatenated_string') {
        const parts = kids(n).map(str);
        if (parts.some((p) => !p)) return undefined;
        return { value: parts.map((p) => p!.value).join(''), pattern: parts.some((p) => p!.pattern) };
      }
      if (n.type !== 'string') return undefined;
      let value = '';
      let pattern = false;
      for (const c of kids(n)) {
        if (c.type === 'string_content' || c.type === 'escape_sequence') value += c.text;
        else if (c.type === 'interpolation') {
          const inner = kids(c)[0];
          const known = inner?.type === 'identifier' ? consts.get(inner.text) : undefined;
          const s = known ? str(known) : undefined;
          if (s && !s.pattern) value += s.value;
          else {
            value += '*';
            pattern = true;
          }
        }
      }
      return { value: value.replace(/\*+/g, '*'), pattern };
    };
    const kwargs = (args: Node | null, depth: number, convert: boolean, splats = false): PNode => {
      // `**props` / `*args` (unless the caller reads them, as create_table does): any keyword may be in it.
      if (!splats && kids(args).some((a) => a.type === 'dictionary_splat' || a.type === 'list_splat')) return { kind: 'unknown', range: args ? span(args) : { start: 0, end: 0 } };
      const entries: PEntry[] = [];
      for (const a of kids(args)) {
        if (a.type !== 'keyword_argument') continue;
        const k = a.childForFieldName('name');
        const v = a.childForFieldName('value');
        if (k && v) entries.push({ key: convert ? camel(k.text) : k.text, keyRange: span(k), value: value(v, depth + 1) });
      }
      return { kind: 'map', entries, range: args ? span(args) : { start: 0, end: 0 } };
    };
    const value = (n: Node, depth = 0, hops = 0): PNode => {
      const range = span(n);
      if (depth > MAX_DEPTH) return { kind: 'unknown', range };
      switch (n.type) {
        case 'string':
        case 'concatenated_string': {
          const s = str(n);
          return s ? { kind: 'str', value: s.value, range, pattern: s.pattern || undefined } : { kind: 'unknown', range };
        }
        case 'integer':
        case 'float':
          return { kind: 'num', value: n.text, range };
        case 'true':
        case 'false':
          return { kind: 'bool', value: n.type === 'true', range };
        case 'parenthesized_expression':
          return kids(n)[0] ? value(kids(n)[0], depth + 1, hops) : { kind: 'unknown', range };
        case 'identifier': {
          const c = hops < 8 ? consts.get(n.text) : undefined;
          return c ? { ...value(c, depth + 1, hops + 1), range } : { kind: 'unknown', range, text: n.text };
        }
        case 'dictionary': {
          const entries: PEntry[] = [];
          for (const p of kids(n)) {
            if (p.type !== 'pair') return { kind: 'unknown', range, text: n.text.slice(0, 120) };
            const k = p.childForFieldName('key');
            const v = p.childForFieldName('value');
            const ks = k ? str(k) : undefined;
            // A key that is not a literal (a name, an f-string): any key may be there.
            if (!k || !v || !ks || ks.pattern) return { kind: 'unknown', range, text: n.text.slice(0, 120) };
            entries.push({ key: ks.value, keyRange: span(k), value: value(v, depth + 1, hops) });
          }
          return { kind: 'map', entries, range };
        }
        case 'list':
        case 'tuple':
          if (kids(n).some((c) => c.type === 'list_splat')) return { kind: 'unknown', range };
          return { kind: 'list', items: kids(n).map((c) => value(c, depth + 1, hops)), range };
        case 'call': {
          // A CDK struct built by a call (`dynamodb.Attribute(name=..., type=...)`): its keyword arguments.
          const fn = n.childForFieldName('function');
          if (fn && /^[A-Z]/.test(fn.text.replace(/^.*\./, ''))) return kwargs(n.childForFieldName('arguments'), depth, true);
          return { kind: 'unknown', range, text: n.text.slice(0, 120) };
        }
        default:
          return { kind: 'unknown', range, text: n.text.slice(0, 120) };
      }
    };
    // Every identifier of the file by name (built on the first `create_table(**name)`).
    let refs: Map<string, Node[]> | undefined;
    const scopeOf = (n: Node): number => {
      for (let p = n.parent; p; p = p.parent) if (p.type === 'function_definition' || p.type === 'lambda' || p.type === 'class_definition') return p.id;
      return -1;
    };
    /** `x["K"]` read for its value: not assigned, deleted, reached through (`x["K"].append(...)`) or called. */
    const plainRead = (sub: Node): boolean => {
      const p = sub.parent;
      if (!p) return true;
      if ((p.type === 'assignment' || p.type === 'augmented_assignment') && p.childForFieldName('left')?.id === sub.id) return false;
      if (p.type === 'delete_statement' || p.type === 'pattern_list' || p.type === 'tuple_pattern' || p.type === 'list_pattern' || p.type === 'for_statement' || p.type === 'for_in_clause') return false;
      if ((p.type === 'attribute' || p.type === 'subscript') && p.childForFieldName(p.type === 'attribute' ? 'object' : 'value')?.id === sub.id) return false;
      if (p.type === 'call' && p.childForFieldName('function')?.id === sub.id) return false;
      if (p.type === 'parenthesized_expression') return plainRead(p);
      return true;
    };
    /**
     * `params = {...}` then `client.create_table(**params)`: the dictionary the splat holds, when the name is assigned
     * once in the file (a plain `name = {...}` statement), in the call's function (or module, class body), before it,
     * and every other mention is a `**name` of a create_table call or reads a scalar entry (`params["TableName"]`).
     * A second assignment, `params["X"] = ...`, `params.update(...)`, `params["KeySchema"].append(...)`, `del`, a
     * parameter, loop target, `global` or any other use: undefined (silent, never a guess).
     */
    const heldDict = (splat: Node, call: Node): Node | undefined => {
      const id = kids(splat)[0];
      if (id?.type !== 'identifier') return undefined;
      if (!refs) {
        refs = new Map();
        const st: Node[] = [tree.rootNode];
        while (st.length) {
          const x = st.pop()!;
          if (x.type === 'identifier') {
            const list = refs.get(x.text);
            if (list) list.push(x);
            else refs.set(x.text, [x]);
          }
          for (const c of x.children) if (c) st.push(c);
        }
      }
      let assigned: Node | undefined;
      const read: string[] = [];
      for (const r of refs.get(id.text) ?? []) {
        const p = r.parent;
        if (!p) return undefined;
        // Not a mention of the variable: an attribute name (`x.params`), a keyword name (`f(params=1)`).
        if (p.type === 'attribute' && p.childForFieldName('attribute')?.id === r.id) continue;
        if (p.type === 'keyword_argument' && p.childForFieldName('name')?.id === r.id) continue;
        if (p.type === 'assignment' && p.childForFieldName('left')?.id === r.id && p.parent?.type === 'expression_statement') {
          if (assigned || p.childForFieldName('right')?.type !== 'dictionary') return undefined;
          assigned = p;
          continue;
        }
        if (p.type === 'dictionary_splat' && p.parent?.type === 'argument_list') {
          const c = p.parent.parent;
          if (c && isCreateTable(c)) continue;
        }
        const key = p.type === 'subscript' && p.childForFieldName('value')?.id === r.id ? p.childForFieldName('subscript') : null;
        const ks = key ? str(key) : undefined;
        if (!ks || ks.pattern || !plainRead(p)) return undefined;
        read.push(ks.value);
      }
      const right = assigned?.childForFieldName('right');
      if (!assigned || !right || assigned.endIndex > call.startIndex || scopeOf(assigned) !== scopeOf(call)) return undefined;
      const d = value(right);
      for (const k of read) {
        const v = d.kind === 'map' ? d.entries.find((e) => e.key === k)?.value : undefined;
        if (v && v.kind !== 'str' && v.kind !== 'num' && v.kind !== 'bool') return undefined;
      }
      return right;
    };
    // The file defines its own `create_table` (a test base class's `def create_table(self, **kwargs)` adding an index):
    // a call of that name may be it, not boto3's.
    const ownCreateTable = text.includes('create_table') && tree.rootNode.descendantsOfType('function_definition').some((f) => f?.childForFieldName('name')?.text === 'create_table');
    /** boto3's `client.create_table(...)` / `dynamodb.create_table(...)`: a method of another object than self / cls. */
    const isCreateTable = (call: Node): boolean => {
      const f = call.type === 'call' ? call.childForFieldName('function') : null;
      if (ownCreateTable || f?.type !== 'attribute' || f.childForFieldName('attribute')?.text !== 'create_table') return false;
      const recv = f.childForFieldName('object');
      return !!recv && !/^(?:self|cls|super\(\s*\))$/.test(recv.text);
    };
    const envEntry = (variable: string, v: Node, range: Span): CdkEnvEntry => {
      if (v.type === 'attribute' && v.childForFieldName('attribute')?.text === 'table_name') return { variable, tableVar: v.childForFieldName('object')?.text, range };
      const s = str(v);
      return s && !s.pattern ? { variable, literal: s.value, range } : { variable, range };
    };
    const stack: Node[] = [tree.rootNode];
    while (stack.length) {
      const n = stack.pop()!;
      if (n.type === 'call') {
        const fn = n.childForFieldName('function');
        const args = n.childForFieldName('arguments');
        const callee = fn?.text.replace(/\s+/g, '') ?? '';
        const last = callee.replace(/^.*\./, '');
        const positional = kids(args).filter((a) => a.type !== 'keyword_argument' && a.type !== 'comment');
        if ((last === 'Table' || last === 'TableV2') && positional.length >= 2 && kids(args).some((a) => a.type === 'keyword_argument' && a.childForFieldName('name')?.text === 'partition_key')) {
          const id = str(positional[1]);
          const parent = n.parent;
          const bound = parent?.type === 'assignment' && parent.childForFieldName('right')?.id === n.id ? parent.childForFieldName('left')?.text : undefined;
          facts.tables.push({ kind: last, constructId: id && !id.pattern ? id.value : undefined, props: kwargs(args, 0, true), boundTo: bound, range: span(n) });
        } else if ((last === 'add_global_secondary_index' || last === 'add_local_secondary_index') && fn?.type === 'attribute') {
          facts.indexCalls.push({ method: last === 'add_global_secondary_index' ? 'addGlobalSecondaryIndex' : 'addLocalSecondaryIndex', receiver: fn.childForFieldName('object')?.text, props: kwargs(args, 0, true), range: span(n) });
        } else if (last === 'add_environment' && positional.length >= 2) {
          const k = str(positional[0]);
          if (k && !k.pattern) facts.env.push(envEntry(k.value, positional[1], span(n)));
        } else if (last === 'create_table' && isCreateTable(n)) {
          let props = kwargs(args, 0, false, true);
          // `create_table(**params)` with `params = {...}` (see heldDict): its entries and the keywords (Python rejects a
          // key given twice). Any other splat (`**kwargs`, two splats) may hold any parameter (an index): no table.
          const splats = kids(args).filter((a) => a.type === 'dictionary_splat' || a.type === 'list_splat');
          const held = splats.length === 1 && splats[0].type === 'dictionary_splat' ? heldDict(splats[0], n) : undefined;
          const d = held ? value(held) : undefined;
          if (d?.kind === 'map' && props.kind === 'map') props = { ...props, entries: [...d.entries, ...props.entries] };
          if ((!splats.length || d?.kind === 'map') && props.kind === 'map' && props.entries.length) facts.createTables.push({ props, range: span(n) });
        }
      } else if (n.type === 'keyword_argument' && n.childForFieldName('name')?.text === 'environment' && n.childForFieldName('value')?.type === 'dictionary') {
        for (const p of kids(n.childForFieldName('value'))) {
          const k = p.type === 'pair' ? p.childForFieldName('key') : null;
          const v = p.type === 'pair' ? p.childForFieldName('value') : null;
          const ks = k ? str(k) : undefined;
          if (ks && !ks.pattern && v) facts.env.push(envEntry(ks.value, v, span(p)));
        }
      }
      const c = kids(n);
      for (let i = c.length - 1; i >= 0; i--) stack.push(c[i]);
    }
    return readCodeFacts(facts, { uri, label, lines: new LineMap(text) });
  } finally {
    tree.delete();
  }
}
