/**
 * Settings per resource: pulled with `workspace/configuration` (section `dynalint`, `scopeUri` = the document), cached
 * per document until the client says the configuration changed. Rule severities from the nearest `.dynalintrc.json`
 * sit under the editor's `dynalint.rules`, which win.
 */
import type { Connection } from 'vscode-languageserver';
import { CONFIG_SECTION } from '../protocol/lsp';
import { DynalintSettings, resolveSettings } from '../protocol/settings';
import type { SeveritySetting } from '../rules/types';

/** VS Code reports `dynalint.trace.server` as `{ trace: { server } }`; the settings type has `trace` as a string. */
function normalize(raw: unknown): unknown {
  if (!raw || typeof raw !== 'object') return raw;
  const r = raw as Record<string, unknown>;
  const trace = r.trace as { server?: unknown } | undefined;
  return trace && typeof trace === 'object' ? { ...r, trace: trace.server } : r;
}

export type FileRules = (uri: string) => Record<string, SeveritySetting> | undefined;

export class SettingsCache {
  private readonly byUri = new Map<string, Promise<DynalintSettings>>();
  /** Settings pushed with didChangeConfiguration, used when the client cannot answer workspace/configuration. */
  private pushed: unknown;
  /** Bumped on every change: part of pull-diagnostic result ids. */
  generation = 0;

  constructor(
    private readonly connection: Connection,
    private readonly canPull: boolean,
    private readonly fileRules: FileRules,
    private readonly log: (m: string) => void,
  ) {}

  get(uri: string): Promise<DynalintSettings> {
    let p = this.byUri.get(uri);
    if (!p) {
      p = this.load(uri);
      this.byUri.set(uri, p);
    }
    return p;
  }

  private async load(uri: string): Promise<DynalintSettings> {
    let raw: unknown = this.pushed;
    if (this.canPull) {
      try {
        raw = await this.connection.workspace.getConfiguration({ scopeUri: uri, section: CONFIG_SECTION });
      } catch (e) {
        this.log(`workspace/configuration failed for ${uri}: ${String(e)}`);
      }
    }
    const settings = resolveSettings(normalize(raw));
    let fromFile: Record<string, SeveritySetting> | undefined;
    try {
      fromFile = this.fileRules(uri);
    } catch (e) {
      this.log(`reading .dynalintrc.json for ${uri} failed: ${String(e)}`);
    }
    return { ...settings, rules: { ...fromFile, ...settings.rules } };
  }

  /** Documents with cached settings. */
  get size(): number {
    return this.byUri.size;
  }

  delete(uri: string): void {
    this.byUri.delete(uri);
  }

  /** didChangeConfiguration (or a changed config file): forget everything; `pushed` when the client sent settings. */
  clear(pushed?: unknown): void {
    if (pushed !== undefined) this.pushed = pushed;
    this.byUri.clear();
    this.generation++;
  }
}
