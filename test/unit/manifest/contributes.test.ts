/**
 * The extension manifest's contributions: settings mirror `DynalintSettings` (same keys, same defaults, each
 * described), commands sit under the "Dynalint" category and match the ids the client registers, activation covers
 * the supported languages and `.dynalintrc.json`, and the JSON schema it points at exists.
 */
import assert from 'node:assert/strict';
import { existsSync, readFileSync } from 'node:fs';
import { join } from 'node:path';
import { Commands } from '../../../server/src/protocol/lsp';
import { DEFAULT_SETTINGS } from '../../../server/src/protocol/settings';
import { SEVERITY_SETTINGS } from '../../../server/src/config';

const root = join(__dirname, '..', '..', '..');
const pkg = JSON.parse(readFileSync(join(root, 'package.json'), 'utf8'));
interface Prop {
  type: string;
  default: unknown;
  description?: string;
  markdownDescription?: string;
  scope?: string;
  enum?: unknown[];
  minimum?: number;
  items?: { type: string; required?: string[]; properties?: Record<string, { type: string }> };
  additionalProperties?: { type: string; enum?: unknown[]; properties?: Record<string, { type: string }>; additionalProperties?: boolean };
}
const props: Record<string, Prop> =
  pkg.contributes.configuration.properties;

describe('manifest: contributes', () => {
  it('settings mirror DynalintSettings with its defaults, each with a description', () => {
    const expected: Record<string, unknown> = {
      'dynalint.enable': DEFAULT_SETTINGS.enable,
      'dynalint.rules': DEFAULT_SETTINGS.rules,
      'dynalint.languages': DEFAULT_SETTINGS.languages,
      'dynalint.maxFileSize': DEFAULT_SETTINGS.maxFileSize,
      'dynalint.trace.server': DEFAULT_SETTINGS.trace,
      'dynalint.cost.region': DEFAULT_SETTINGS.cost.region,
      'dynalint.cost.assumedItemSizeBytes': DEFAULT_SETTINGS.cost.assumedItemSizeBytes,
      'dynalint.cost.prices': DEFAULT_SETTINGS.cost.prices,
      'dynalint.connections': DEFAULT_SETTINGS.connections,
    };
    assert.deepEqual(Object.keys(props).sort(), Object.keys(expected).sort());
    for (const [key, value] of Object.entries(expected)) {
      assert.deepEqual(props[key].default, value, key);
      assert.ok((props[key].description ?? props[key].markdownDescription ?? '').length > 10, `${key} has no description`);
    }
    // Settings the server pulls per document are resource-scoped (multi-root workspaces).
    for (const key of ['dynalint.enable', 'dynalint.rules', 'dynalint.languages', 'dynalint.maxFileSize']) assert.equal(props[key].scope, 'resource', key);
  });

  it('settings declare the JSON type of their default, and the shapes the server accepts', () => {
    const jsonType = (v: unknown) => (Array.isArray(v) ? 'array' : typeof v === 'object' ? 'object' : typeof v);
    for (const [key, p] of Object.entries(props)) assert.equal(p.type, jsonType(p.default), key);
    assert.deepEqual(props['dynalint.trace.server'].enum, ['off', 'messages', 'verbose']);
    assert.deepEqual(props['dynalint.rules'].additionalProperties?.enum, [...SEVERITY_SETTINGS]);
    assert.equal(props['dynalint.languages'].items?.type, 'string');
    for (const key of ['dynalint.maxFileSize', 'dynalint.cost.assumedItemSizeBytes']) assert.equal(props[key].minimum, 1, key);
    // ConnectionSetting and PriceTable field by field.
    assert.deepEqual(props['dynalint.connections'].items?.required, ['name']);
    assert.deepEqual(
      Object.entries(props['dynalint.connections'].items?.properties ?? {}).map(([k, v]) => [k, v.type]),
      [['name', 'string'], ['region', 'string'], ['profile', 'string'], ['endpoint', 'string']],
    );
    const price = props['dynalint.cost.prices'].additionalProperties;
    assert.equal(price?.additionalProperties, false);
    assert.deepEqual(Object.keys(price?.properties ?? {}).sort(), ['rcuHour', 'readRequestPerMillion', 'wcuHour', 'writeRequestPerMillion']);
  });

  it('commands are the client ids, all under the Dynalint category, each with a title', () => {
    const commands: { command: string; title: string; category: string }[] = pkg.contributes.commands;
    assert.deepEqual(commands.map((c) => c.command).sort(), Object.values(Commands).sort());
    for (const c of commands) {
      assert.equal(c.category, 'Dynalint');
      assert.match(c.title, /^[A-Z][A-Za-z -]+$/, c.command);
    }
  });

  it('activates on the supported languages and on a workspace with .dynalintrc.json', () => {
    assert.deepEqual(pkg.activationEvents, [...DEFAULT_SETTINGS.languages.map((l) => `onLanguage:${l}`), 'workspaceContains:.dynalintrc.json']);
    assert.equal(pkg.main, './dist/extension.js');
  });

  it('validates .dynalintrc.json with the shipped schema', () => {
    assert.deepEqual(pkg.contributes.jsonValidation, [{ fileMatch: '.dynalintrc.json', url: './schemas/dynalintrc.schema.json' }]);
    assert.ok(existsSync(join(root, 'schemas', 'dynalintrc.schema.json')));
  });
});
