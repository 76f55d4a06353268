import fs from 'node:fs';
import path from 'node:path';

/** Every `.ts` file under `dir`, at any depth: what a test that reads the sources walks. */
export function tsFiles(dir: string): string[] {
  return fs
    .readdirSync(dir, { withFileTypes: true })
    .flatMap((e) =>
      e.isDirectory()
        ? tsFiles(path.join(dir, e.name))
        : e.name.endsWith('.ts')
          ? [path.join(dir, e.name)]
          : [],
    );
}
