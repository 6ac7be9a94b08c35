import { strict as assert } from 'node:assert';
import { mkdirSync, mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { dirname, join, relative, sep } from 'node:path';
import { collectFiles } from '../../../server/src/cli/files';

const lintable = (f: string) => /\.(json|ts|js|py)$/.test(f);

describe('cli: file collection', () => {
  let root: string;
  const write = (rel: string, text = '') => {
    const f = join(root, rel);
    mkdirSync(dirname(f), { recursive: true });
    writeFileSync(f, text);
  };
  const rels = (files: string[]) => files.map((f) => relative(root, f).split(sep).join('/'));

  before(() => {
    root = mkdtempSync(join(tmpdir(), 'dynalint-files-'));
    mkdirSync(join(root, '.git'));
    write('.gitignore', 'build/\n*.gen.ts\nlogs\n!keep.gen.ts\n/top-only.json\n');
    write('src/a.ts');
    write('src/b.py');
    write('src/c.txt');
    write('src/x.gen.ts');
    write('src/keep.gen.ts');
    write('src/top-only.json'); // anchored pattern: only the root file is ignored
    write('top-only.json');
    write('build/out.js');
    write('logs/l.json');
    write('node_modules/pkg/index.js');
    write('src/node_modules/inner.ts');
    write('.git/hooks/h.js');
    write('pkg/.gitignore', 'secret.json\n/local/\n');
    write('pkg/secret.json');
    write('pkg/local/a.ts');
    write('pkg/sub/local/b.ts'); // `/local/` is anchored to pkg/
    write('pkg/sub/secret.json'); // unanchored: ignored at any depth below pkg/
    write('pkg/ok.json');
    write('docs/readme.json');
  });
  after(() => rmSync(root, { recursive: true, force: true }));

  it('walks directories honouring .gitignore (anchored, nested, negated) and skipping node_modules', () => {
    const r = collectFiles([], root, lintable);
    assert.deepEqual(rels(r.files), ['docs/readme.json', 'pkg/ok.json', 'pkg/sub/local/b.ts', 'src/a.ts', 'src/b.py', 'src/keep.gen.ts', 'src/top-only.json']);
    assert.deepEqual(r.unmatched, []);
  });

  it('applies the repository root .gitignore when linting a subdirectory', () => {
    const r = collectFiles(['src'], root, lintable);
    assert.deepEqual(rels(r.files), ['src/a.ts', 'src/b.py', 'src/keep.gen.ts', 'src/top-only.json']);
  });

  it('takes explicitly named files even when ignored or of another type', () => {
    const r = collectFiles(['build/out.js', 'src/c.txt'], root, lintable);
    assert.deepEqual(rels(r.files), ['build/out.js', 'src/c.txt']);
  });

  it('expands globs relative to the working directory, still honouring .gitignore', () => {
    assert.deepEqual(rels(collectFiles(['src/**/*.ts'], root, lintable).files), ['src/a.ts', 'src/keep.gen.ts']);
    assert.deepEqual(rels(collectFiles(['**/*.json'], root, lintable).files), ['docs/readme.json', 'pkg/ok.json', 'src/top-only.json']);
    assert.deepEqual(rels(collectFiles(['src/*.{py,ts}'], root, lintable).files), ['src/a.ts', 'src/b.py', 'src/keep.gen.ts']);
  });

  it('reports arguments that match nothing', () => {
    const r = collectFiles(['missing.ts', 'src/**/*.rb', 'src'], root, lintable);
    assert.deepEqual(r.unmatched, ['missing.ts', 'src/**/*.rb']);
    assert.equal(r.files.length, 4);
  });
});
