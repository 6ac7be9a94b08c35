/**
 * The host-independent model every extractor produces and every rule consumes.
 *
 * An extractor (json, typescript, python) turns a document into `RequestSite`s: one per DynamoDB request it
 * recognises. The request's parameters are a `VNode` tree that mirrors the literal the user wrote (an object literal,
 * a dict, JSON) with exact document offsets on every node. Rules and the expression validator navigate that tree by
 * field name (`UpdateExpression`, `ExpressionAttributeValues`, `TransactItems[i].Put.Item`...); they never see host
 * syntax.
 */
import type { ObjectNode, Range, StringNode, UnknownNode, ValueStyle } from '../core/values';
import { prop, str } from '../core/values';

export * from '../core/values';
export type { AttrType } from '../core/dynamodb';

export type HostLanguage = 'json' | 'typescript' | 'javascript' | 'python' | 'go' | 'java' | 'yaml';

export type Api =
  | 'PutItem'
  | 'UpdateItem'
  | 'DeleteItem'
  | 'GetItem'
  | 'Query'
  | 'Scan'
  | 'BatchWriteItem'
  | 'BatchGetItem'
  | 'TransactWriteItems'
  | 'TransactGetItems'
  | 'ExecuteStatement'
  | 'ExecuteTransaction'
  | 'BatchExecuteStatement'
  /**
   * A request by its shape alone (an object literal with a DynamoDB expression key) whose operation its keys do not
   * tell (`Key` + `ConditionExpression`: a delete, a ConditionCheck, an update being built). Only what does not depend
   * on the operation is checked on it: expression syntax, placeholders, reserved words, functions (issue 13).
   */
  | 'Unknown';

export interface RequestSite {
  api: Api;
  /** How the API was determined: named by the call/command/type, or inferred from the fields. */
  apiSource: 'call' | 'inferred';
  style: ValueStyle;
  host: HostLanguage;
  /** The whole call expression or request object. */
  range: Range;
  /** The range to hover for the operation: the command/method name, or the request object's first key in JSON. */
  nameRange: Range;
  /** The request parameters as written (`Input` of the command, the dict, the JSON object). */
  params: ObjectNode;
  /** Name of the enclosing function (for rules that compare calls in one function), if any. */
  enclosingFunction?: { name: string; range: Range };
  /** Which client/SDK produced it, for messages: 'sdk-v3', 'sdk-v3-lib', 'sdk-v2', 'sdk-v2-doc', 'boto3-client', 'boto3-resource', 'aws-cli-json'. */
  sdk: string;
  /**
   * The table the call's receiver is bound to, when the request itself names none: boto3 `ddb.Table('Social')` (also
   * through a constant, a variable or `self.table` in the same class). A string when it resolves to a literal in the
   * file (its offsets point at the characters that name it); else the argument as an unknown with its source text
   * (`ddb.Table(os.environ["TABLE"])`: the table index resolves environment reads). Read the literal through
   * `tableNameOf`, never insert a `TableName` for it.
   */
  receiverTable?: StringNode | UnknownNode;
  /**
   * Which arms of conditionals inside the enclosing function the call sits in: `/<if>:t/<if2>:e`, ids being offsets
   * of the `if` from the function's start. Two calls in different arms of one `if` never both run. See `exclusive`.
   */
  branch?: string;
  /**
   * One of several requests the call may send (data flow: a name assigned in the arms of an `if`/`switch`/ternary, a
   * conditional spread): `index` of `count` alternatives, each its own site with the same `range`. In a function, each
   * alternative also gets its own arm in `branch` (`/a<offset>:<index>`), so `exclusive` holds between them.
   */
  alternative?: { index: number; count: number };
  /**
   * A request sent through a helper of the same file: the call of the helper (`this.putFollows(follow)`), whose
   * `range`/`nameRange`/`enclosingFunction`/`branch` are the call's, with the helper's request (`from`: the range of the
   * request inside the helper; `params` is a copy of the helper site's, same ranges, so findings on it dedupe).
   * `wrapper`: the method is not in the file
   * and the request was read from its arguments by name (`this.putItem(item)`, `self.update_item(update_expression=…)`):
   * entries cannot be added to such params. `bound`: the helper was read with the call's arguments bound to its
   * parameters (Go, Java): its values are this caller's, so no fix is written into the helper shared by every caller.
   */
  forwarded?: { from?: Range; wrapper?: string; bound?: boolean };
  /**
   * Some of its expressions are made by a builder library (the Go `expression` package: `UpdateExpression:
   * expr.Update()`): their text and their names/values maps are generated, each char pointing at the builder call that
   * produced it, so no fix can be written into them; no fix is offered for the request.
   */
  built?: true;
}

/**
 * Whether two sites of one function sit in different arms of the same conditional, so one pass through that code runs
 * at most one of them (inside a loop, different iterations may each take one arm).
 */
export function exclusive(a: RequestSite, b: RequestSite): boolean {
  if (!a.branch || !b.branch) return false;
  const arms = new Map(a.branch.split('/').filter(Boolean).map((seg) => seg.split(':') as [string, string]));
  return b.branch
    .split('/')
    .filter(Boolean)
    .some((seg) => {
      const [id, arm] = seg.split(':');
      const other = arms.get(id);
      return other !== undefined && other !== arm;
    });
}

export interface ExtractResult {
  sites: RequestSite[];
  /** Why a file was skipped (too large, binary, minified), for a log line. */
  skipped?: string;
}

/**
 * The literal table a request names: `TableName` of `params` (the request, or one entry of a transaction), else, for
 * the request itself, the table its receiver is bound to (`receiverTable`). Undefined when unknown or not literal.
 */
export function tableNameOf(site: RequestSite, params: ObjectNode = site.params): string | undefined {
  const t = prop(params, 'TableName');
  if (t) return str(t);
  return params === site.params && site.receiverTable?.kind === 'string' ? site.receiverTable.value : undefined;
}
