/** Settings for the CLI: defaults, with rule severities from `.dynalintrc.json` (`--config path`, else the nearest one). */
import { existsSync, readFileSync } from 'node:fs';
import { relative, resolve } from 'node:path';
import { findConfigFile, parseConfig } from '../config';
import { DynalintSettings, resolveSettings } from '../protocol/settings';
import { allRules } from '../rules';
import { UsageError } from './command';
import { LineIndex } from './format';

export interface CliSettings {
  settings: DynalintSettings;
  /** Problems that do not stop the run (unknown rule ids), as `file:line:col: message`. */
  warnings: string[];
}

/** Read the configuration; an unreadable file or a bad value is a usage error (exit 2). */
export function loadCliSettings(cwd: string, configPath?: string): CliSettings {
  const file = configPath ? resolve(cwd, configPath) : findConfigFile(cwd);
  if (!file) return { settings: resolveSettings({}), warnings: [] };
  if (!existsSync(file)) throw new UsageError(`config file not found: ${configPath}`);
  const text = readFileSync(file, 'utf8');
  const { rules, problems } = parseConfig(text, new Set(allRules.map((r) => r.id)));
  const index = new LineIndex(text);
  const where = (offset: number) => {
    const p = index.positionAt(offset);
    return `${relative(cwd, file) || file}:${p.line + 1}:${p.character + 1}`;
  };
  const fatal = problems.find((p) => p.severity === 'error');
  if (fatal) throw new UsageError(`${where(fatal.range.start)}: ${fatal.message}`);
  return { settings: resolveSettings({ rules }), warnings: problems.map((p) => `${where(p.range.start)}: ${p.message}`) };
}
