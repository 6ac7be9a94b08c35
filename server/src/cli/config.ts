/**
 * Settings for the CLI: defaults, with rule severities from `.dynalintrc.json`: the `--config` file for every linted
 * file, else the nearest one above each file, searched from the file's directory up to the repository root (a folder
 * holding `.git`) or the filesystem root, as ESLint does. Lookups and parsed files are cached per directory.
 */
import { existsSync } from 'node:fs';
import { CONFIG_FILE_MAX_BYTES, readFailure, readTextFile } from '../io/read';
import { dirname, join, relative, resolve } from 'node:path';
import { CONFIG_FILE, parseConfig } from '../config';
import { DynalintSettings, resolveSettings } from '../protocol/settings';
import { allRules } from '../rules';
import { UsageError } from './command';
import { LineIndex } from './format';

export interface CliSettings {
  settings: DynalintSettings;
  /** Problems that do not stop the run (unknown rule ids), as `file:line:col: message`. */
  warnings: string[];
}

/** Read one configuration file; an unreadable file or a bad value is a usage error (exit 2). */
function readCliSettings(cwd: string, file: string): CliSettings {
  let text: string;
  try {
    text = readTextFile(file, CONFIG_FILE_MAX_BYTES).text;
  } catch (e) {
    throw new UsageError(`cannot read ${relative(cwd, file) || file}: ${readFailure(e)}`);
  }
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

const DEFAULTS: CliSettings = { settings: resolveSettings({}), warnings: [] };

/** The settings of each linted file; warnings of a configuration file are reported once, when it is first used. */
export class CliConfig {
  private readonly byDir = new Map<string, string | undefined>();
  private readonly byFile = new Map<string, CliSettings>();
  private readonly fixed?: string;

  /** `configPath` (`--config`, relative to `cwd`) replaces the search. Throws a UsageError when it does not exist. */
  constructor(
    private readonly cwd: string,
    configPath?: string,
    private readonly warn: (message: string) => void = () => undefined,
  ) {
    if (configPath === undefined) return;
    this.fixed = resolve(cwd, configPath);
    if (!existsSync(this.fixed)) throw new UsageError(`config file not found: ${configPath}`);
    this.settingsFor(this.fixed);
  }

  /** The configuration file that applies to files in `dir`, if any. */
  fileFor(dir: string): string | undefined {
    if (this.fixed) return this.fixed;
    dir = resolve(dir);
    if (this.byDir.has(dir)) return this.byDir.get(dir);
    let found: string | undefined;
    const candidate = join(dir, CONFIG_FILE);
    if (existsSync(candidate)) found = candidate;
    else if (!existsSync(join(dir, '.git')) && dirname(dir) !== dir) found = this.fileFor(dirname(dir));
    this.byDir.set(dir, found);
    return found;
  }

  /** The settings for one linted file (absolute path). Throws a UsageError for an invalid configuration. */
  settingsFor(file: string): DynalintSettings {
    const config = this.fileFor(dirname(file));
    if (!config) return DEFAULTS.settings;
    let s = this.byFile.get(config);
    if (!s) {
      s = readCliSettings(this.cwd, config);
      this.byFile.set(config, s);
      s.warnings.forEach(this.warn);
    }
    return s.settings;
  }
}
