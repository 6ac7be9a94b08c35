/**
 * A Go package `var` / a Java field that is not final is read as its initializer only while nothing in the file writes
 * it (tables resolution review, 2026-12-02). A write typed into another function, or removed from it, changes what a
 * request in a unit the edit did not touch reads: after such an edit the incremental result equals a fresh extraction.
 */
import { strict as assert } from 'node:assert';
import { createDocumentExtractor, ensureParser, extract, initParsers, type RequestSite } from '../../../server/src/extract';

const GO = (init: string) => `package main

import (
\t"os"

\t"github.com/aws/aws-sdk-go/aws"
\t"github.com/aws/aws-sdk-go/service/dynamodb"
)

var tableName = os.Getenv("TABLE")

func init() {
\t${init}
}

func get(svc *dynamodb.DynamoDB) {
\tsvc.GetItem(&dynamodb.GetItemInput{TableName: aws.String(tableName), Key: map[string]*dynamodb.AttributeValue{"pk": {N: aws.String("1")}}})
}
`;

const JAVA = (init: string) => `import software.amazon.awssdk.services.dynamodb.DynamoDbClient;
import software.amazon.awssdk.services.dynamodb.model.*;
import java.util.Map;

public class Repo {
  private static String TABLE = System.getenv("TABLE");

  void archive() {
    ${init}
  }

  void get(DynamoDbClient c) {
    c.getItem(GetItemRequest.builder().tableName(TABLE).key(Map.of("pk", AttributeValue.builder().n("1").build())).build());
  }
}
`;

/** The table name each site reads: its kind and text (a string, or unknown when the variable may be written). */
const tableNames = (sites: RequestSite[]) => sites.map((s) => JSON.stringify(s.params.properties.find((p) => p.key === 'TableName')?.value));

describe('extract: a write to a package var / field typed in another function (incremental = fresh)', () => {
  before(async () => {
    await initParsers();
    await ensureParser('go');
    await ensureParser('java');
  });

  for (const [lang, make, write] of [
    ['go', GO, 'tableName = tableName + "-archive"'],
    ['java', JAVA, 'TABLE = TABLE + "-archive";'],
  ] as const)
    it(`${lang}: adding the write, then removing it`, () => {
      const doc = createDocumentExtractor(lang);
      const without = make('');
      const withWrite = make(write);
      const fresh = (t: string) => tableNames(extract(t, lang).sites);
      // The environment read the table index links (os.Getenv / System.getenv), or the bare name when it may be written.
      assert.match(fresh(without)[0], /getenv/i);
      assert.doesNotMatch(fresh(withWrite)[0], /getenv/i);
      doc.update(without);
      assert.deepEqual(tableNames(doc.update(withWrite).sites), fresh(withWrite));
      assert.deepEqual(tableNames(doc.update(without).sites), fresh(without));
    });
});
