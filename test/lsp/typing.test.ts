/**
 * The typing test: many quick incremental versions of one document sent without waiting. Published diagnostics only
 * move forward in version, each one is exactly the lint of the text of the version it names, and the last published
 * version is the last version sent.
 */
import assert from 'node:assert/strict';
import type { Diagnostic } from 'vscode-languageserver-protocol';
import { TextDocument } from 'vscode-languageserver-textdocument';
import { initParsers } from '../../server/src/extract';
import { DEFAULT_SETTINGS } from '../../server/src/protocol/settings';
import { DynalintService } from '../../server/src/service';
import { LspClient } from '../support/lsp-client';
import { PY_UPDATE, TS_UPDATE } from './fixtures';

/** The in-process service's diagnostics for a text, as they look after JSON-RPC (undefined fields dropped). */
const expectedFor = (uri: string, languageId: string, version: number, text: string): Diagnostic[] =>
  JSON.parse(JSON.stringify(new DynalintService().diagnostics(TextDocument.create(uri, languageId, version, text), DEFAULT_SETTINGS)));

describe('lsp: typing', function () {
  let client: LspClient;
  before(async () => {
    await initParsers();
    client = await LspClient.start();
  });
  after(() => client?.stop());

  const cases = [
    { languageId: 'typescript', base: Array.from({ length: 40 }, () => TS_UPDATE).join('\n'), anchor: "total + :one'", typed: ' REMOVE #gone, old.status' },
    { languageId: 'python', base: PY_UPDATE + '\n' + PY_UPDATE.replace(/^import boto3\n/, ''), anchor: 'views + :inc"', typed: ' REMOVE status, #x' },
  ];

  for (const c of cases)
    it(`${c.languageId}: ${c.typed.length * 2} keystrokes sent back to back; every publish matches its own version, the last one the last`, async () => {
      const uri = `file:///w/typing.${c.languageId === 'python' ? 'py' : 'ts'}`;
      await client.open(uri, c.languageId, c.base);
      const texts = new Map<number, string>([[1, c.base]]);
      // Type the text one character at a time inside an expression, then delete it again backwards.
      const at = c.base.indexOf(c.anchor) + c.anchor.length - 1;
      let version = 1;
      for (let i = 0; i < c.typed.length; i++) {
        version = await client.edit(uri, at + i, at + i, c.typed[i]);
        texts.set(version, client.text(uri));
      }
      for (let i = c.typed.length; i > 0; i--) {
        version = await client.edit(uri, at + i - 1, at + i, '');
        texts.set(version, client.text(uri));
      }
      await client.diagnosticsFor(uri, version);
      const published = client.published.filter((p) => p.uri === uri);
      const versions = published.map((p) => p.version!);
      assert.deepEqual([...versions].sort((a, b) => a - b), versions, 'published versions went backwards');
      assert.equal(new Set(versions).size, versions.length, 'a version was published twice');
      assert.equal(versions[versions.length - 1], version);
      for (const p of published) assert.deepEqual(p.diagnostics, expectedFor(uri, c.languageId, p.version!, texts.get(p.version!)!), `v${p.version}`);
      // The last version is the original text again: same findings as version 1, with the new version in `data`.
      assert.deepEqual(
        published[published.length - 1].diagnostics.map((d) => [d.code, d.range]),
        expectedFor(uri, c.languageId, 1, c.base).map((d) => [d.code, d.range]),
      );
      await client.close(uri);
    });
});
