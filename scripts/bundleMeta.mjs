// Reads what esbuild.js wrote (dist/meta.json, the host build's metafile): which files activation loads, which
// load on first use, and whether any source is in two of them. Shared by the bench and the bundle tests.
import fs from 'node:fs';
import path from 'node:path';

/** The host build's metafile of a build into `outDir`, with its output paths made relative to `outDir`. */
export function readHostMeta(outDir) {
  const meta = JSON.parse(fs.readFileSync(path.join(outDir, 'meta.json'), 'utf8'));
  const outputs = {};
  for (const [file, output] of Object.entries(meta.outputs)) {
    if (file.endsWith('.map')) continue;
    const base = path.basename(file);
    outputs[base] = {
      bytes: output.bytes,
      entryPoint: output.entryPoint,
      inputs: Object.keys(output.inputs),
      imports: output.imports
        .filter((i) => !i.external)
        .map((i) => ({ file: path.basename(i.path), kind: i.kind })),
    };
  }
  return outputs;
}

/** Every file loaded when `entry` is: it and what it imports statically, transitively. */
export function staticClosure(outputs, entry) {
  const seen = new Set();
  const todo = [entry];
  while (todo.length > 0) {
    const file = todo.pop();
    if (seen.has(file)) continue;
    seen.add(file);
    for (const i of outputs[file]?.imports ?? []) if (i.kind === 'import-statement') todo.push(i.file);
  }
  return [...seen];
}

/** The files activation loads (dist/extension.mjs and its static imports) and their bytes. */
export function activationFiles(outputs) {
  const files = staticClosure(outputs, 'extension.mjs');
  return { files, bytes: files.reduce((sum, f) => sum + outputs[f].bytes, 0) };
}

/** The chunks loaded on first use, by the source of the `import()` they stand for. */
export function lazyEntries(outputs) {
  return Object.entries(outputs)
    .filter(([file, o]) => o.entryPoint && file !== 'extension.mjs')
    .map(([file, o]) => ({ file, entryPoint: o.entryPoint, bytes: o.bytes }));
}

/** Sources bundled into more than one file (the build's promise is none). */
export function sourcesInTwoFiles(outputs) {
  const where = new Map();
  for (const [file, o] of Object.entries(outputs))
    for (const input of o.inputs) where.set(input, [...(where.get(input) ?? []), file]);
  return [...where].filter(([, files]) => files.length > 1).map(([input, files]) => ({ input, files }));
}
