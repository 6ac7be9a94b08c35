/**
 * The YAML host (issue 15): full extraction of a large SAM template with Step Functions state machines and of an ASL
 * file, against the `yaml` package's own parse of the same text (the floor: we parse with it, then decode every
 * scalar again for offsets and walk the tree), and the work after a one-character edit inside one state machine.
 */
import { parseAllDocuments } from 'yaml';
import { createDocumentExtractor, extract } from '../../server/src/extract';
import type { BenchRow } from '../bench';
import { timeMs } from '../bench';

/** A SAM template with `machines` state machines, each with a transaction and a counter task, plus a table. */
export function samTemplate(machines: number): string {
  let text = `AWSTemplateFormatVersion: '2010-09-09'
Transform: AWS::Serverless-2016-10-31
Resources:
  LikesTable:
    Type: AWS::DynamoDB::Table
    Properties:
      KeySchema: [{AttributeName: PK, KeyType: HASH}, {AttributeName: SK, KeyType: RANGE}]
`;
  for (let i = 0; i < machines; i++)
    text += `  Machine${i}:
    Type: AWS::Serverless::StateMachine
    Properties:
      Definition:
        Comment: machine ${i}
        StartAt: Like
        States:
          Like:
            Type: Task
            Resource: arn:aws:states:::aws-sdk:dynamodb:transactWriteItems
            Parameters:
              TransactItems:
                - Put:
                    TableName: !Ref LikesTable
                    Item:
                      PK: {S.$: "States.Format('POST#{}', $.postId)"}
                      SK: {S.$: "States.Format('LIKE#{}', $.userId)"}
                    ConditionExpression: attribute_not_exists(SK)
                - Update:
                    TableName: !Ref LikesTable
                    Key: {PK: {S.$: $.postId}, SK: {S: META}}
                    UpdateExpression: >-
                      ADD likes
                      :one
                    ExpressionAttributeValues:
                      ":one": {N: "1"}
            Next: Views
          Views:
            Type: Task
            Resource: arn:aws:states:::dynamodb:updateItem
            Parameters:
              TableName: !Ref LikesTable
              Key: {PK: {S.$: $.postId}, SK: {S: META}}
              UpdateExpression: 'SET #v = if_not_exists(#v, :zero) + :one'
              ExpressionAttributeNames: {"#v": views}
              ExpressionAttributeValues: {":one": {N: "1"}, ":zero": {N: "0"}}
            End: true
`;
  return text;
}

function afterEdit(text: string, at: number): { ms: number; update: string } {
  const doc = createDocumentExtractor('yaml');
  doc.update(text);
  const edited = text.slice(0, at) + 'x' + text.slice(at);
  let flip = false;
  const ms = timeMs(() => {
    flip = !flip;
    return flip ? doc.update(edited, [{ start: at, end: at, text: 'x' }]) : doc.update(text, [{ start: at, end: at + 1, text: '' }]);
  }, 21, 4);
  const update = doc.last.update;
  doc.dispose();
  return { ms, update };
}

export async function run(): Promise<BenchRow[]> {
  const ms = (x: number) => `${x.toFixed(1)} ms`;
  const rows: BenchRow[] = [];
  for (const machines of [20, 200]) {
    const text = samTemplate(machines);
    const lines = text.split('\n').length;
    const parse = timeMs(() => parseAllDocuments(text, { uniqueKeys: false, keepSourceTokens: true }), 7, 2);
    const full = timeMs(() => extract(text, 'yaml'), 7, 2);
    const sites = extract(text, 'yaml').sites.length;
    const at = text.indexOf('Comment: machine', text.length >> 1) + 'Comment: mach'.length;
    const edit = afterEdit(text, at);
    rows.push(
      { area: 'hosts-yaml', name: `full extraction, ${lines}-line SAM template (${sites} requests)`, ours: ms(full), baseline: `yaml parse ${ms(parse)}`, ratio: full / parse, note: 'extract / bare parse' },
      { area: 'hosts-yaml', name: `after a 1-char edit in one state machine, ${lines}-line template`, ours: ms(edit.ms), baseline: `yaml parse ${ms(parse)}`, ratio: edit.ms / parse, note: `${edit.update} update / full parse` },
    );
  }
  return rows;
}
