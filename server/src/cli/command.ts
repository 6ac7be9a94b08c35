/** What every `dynalint <command>` receives and returns, so commands run the same in-process (tests) and from a shell. */
export interface CliIO {
  cwd: string;
  stdout: (text: string) => void;
  stderr: (text: string) => void;
}

/** Exit codes shared by the commands: 0 clean, 1 problems found, 2 bad usage or an error. */
export const EXIT = { ok: 0, problems: 1, usage: 2 } as const;

export type Command = (argv: string[], io: CliIO) => Promise<number>;

export class UsageError extends Error {}

export interface FlagSpec {
  /** Flags taking a value (`--format json` or `--format=json`). */
  values: string[];
  /** Boolean flags. */
  booleans: string[];
  /** Flags that may repeat (collected in order). */
  repeatable?: string[];
}

export interface ParsedArgs {
  positionals: string[];
  values: Map<string, string[]>;
  flags: Set<string>;
}

/** A small strict argv parser: unknown flags and missing values are usage errors; `--` ends flags. */
export function parseArgs(argv: string[], spec: FlagSpec): ParsedArgs {
  const out: ParsedArgs = { positionals: [], values: new Map(), flags: new Set() };
  for (let i = 0; i < argv.length; i++) {
    const a = argv[i];
    if (a === '--') {
      for (const x of argv.slice(i + 1)) out.positionals.push(x);
      break;
    }
    if (!a.startsWith('--') || a === '-') {
      if (a.startsWith('-') && a !== '-') throw new UsageError(`unknown option ${a}`);
      out.positionals.push(a);
      continue;
    }
    const eq = a.indexOf('=');
    const name = eq < 0 ? a.slice(2) : a.slice(2, eq);
    if (spec.booleans.includes(name)) {
      if (eq >= 0) throw new UsageError(`--${name} takes no value`);
      out.flags.add(name);
    } else if (spec.values.includes(name)) {
      const v = eq >= 0 ? a.slice(eq + 1) : argv[++i];
      if (v === undefined || (eq < 0 && v.startsWith('--'))) throw new UsageError(`--${name} needs a value`);
      const prev = out.values.get(name) ?? [];
      if (prev.length && !spec.repeatable?.includes(name)) throw new UsageError(`--${name} given twice`);
      out.values.set(name, [...prev, v]);
    } else throw new UsageError(`unknown option --${name}`);
  }
  return out;
}
