/** Reads the hand-written fixture project (test/fixtures/artifacts/project) as (path, text) pairs. */
import { readdirSync, readFileSync } from 'node:fs';
import { join, relative } from 'node:path';
import type { SourceFile } from '../../../src/core/artifacts';

export const FIXTURE_ROOT = join(import.meta.dirname, '..', '..', 'fixtures', 'artifacts', 'project');
export const SANDBOX_ARTIFACTS = join(
  import.meta.dirname,
  '..',
  '..',
  '..',
  'sandbox',
  'project',
  'artifacts',
);

export const VAULT = '29E9VSez1vizNkuXApftPc6dkT4tGrHbNKVfyHDannagG';
export const VAULT_SECOND = 'w7vg5opWnKUh2zKYFHBqyTghAJQrag6V3rzRd9PuNKF7';
export const TOKEN = '246bkA8WhUXXNqAoWp2GuqjtJtSbdnwPQQErSxZKMnhV2';
export const TOKEN_ID = '8bc81781cbfd547e1c92929f78be6a487a44d246d13a9632fc40e62511cdf001';
export const VAULT_HASH = '94d8663837f4dd9232d58dffcfd2348462dee8417c6ad7dc730dbdb8c3e0e16e';
export const VAULT_DEBUG_HASH = '7d2641152348330baa0e663007a899cad31badc275fd65df3fa24824f5d02f7e';
export const ADDR_G1 = '13U1z3ouFjHc6vUiSu4HLLgBXrrJ5dKwYRZRGKq7SAf8G';
export const ADDR_G2 = '189LE26vHRn1pfwJo9oZR2MmHS1MwZmdscHMzt2fdh6zN';

export function fixtureText(rel: string): string {
  return readFileSync(join(FIXTURE_ROOT, rel), 'utf8');
}

export function fixtureJson(rel: string): Record<string, unknown> {
  return JSON.parse(fixtureText(rel)) as Record<string, unknown>;
}

function walk(dir: string, root: string, out: SourceFile[]): SourceFile[] {
  for (const entry of readdirSync(dir, { withFileTypes: true })) {
    const full = join(dir, entry.name);
    if (entry.isDirectory()) walk(full, root, out);
    else out.push({ path: relative(root, full).split('\\').join('/'), text: readFileSync(full, 'utf8') });
  }
  return out;
}

/** Every file of the fixture project, paths relative to it (as the glue would pass workspace paths). */
export function fixtureFiles(): SourceFile[] {
  return walk(FIXTURE_ROOT, FIXTURE_ROOT, []);
}

export function sandboxArtifactFiles(): SourceFile[] {
  return walk(SANDBOX_ARTIFACTS, join(SANDBOX_ARTIFACTS, '..'), []);
}

/** A deep copy to mutate in a test. */
export function clone<T>(v: T): T {
  return JSON.parse(JSON.stringify(v)) as T;
}
