import { strict as assert } from 'node:assert';
import { spawn } from 'node:child_process';
import * as fs from 'node:fs';
import * as http from 'node:http';
import type { AddressInfo } from 'node:net';
import * as os from 'node:os';
import * as path from 'node:path';

const ROOT = path.resolve(__dirname, '../../..');
const CLI_INTERNAL = path.join(ROOT, 'node_modules/@alephium/cli/cli_internal.ts');
const SDK_NODE_VERSION = (
  JSON.parse(fs.readFileSync(path.join(ROOT, 'node_modules/@alephium/web3/package.json'), 'utf8')) as {
    config: { alephium_version: string };
  }
).config.alephium_version;

interface MatcherPattern {
  regexp: string;
  file?: number;
  line?: number;
  column?: number;
  code?: number;
  message?: number;
}

/** The problem matcher exactly as package.json contributes it. */
function contributedMatcher(): { fileLocation: [string, string]; pattern: MatcherPattern[] } {
  const pkg = JSON.parse(fs.readFileSync(path.join(ROOT, 'package.json'), 'utf8')) as {
    contributes: {
      problemMatchers: { name: string; fileLocation: [string, string]; pattern: MatcherPattern[] }[];
    };
  };
  const matcher = pkg.contributes.problemMatchers.find((m) => m.name === 'alephium-ralph');
  if (!matcher) throw new Error('package.json contributes no alephium-ralph problem matcher');
  return matcher;
}

/** Runs a multi-line matcher as VS Code does: consecutive lines, each matching its pattern in order. */
function matchProblems(output: string, patterns: MatcherPattern[]) {
  const lines = output.split(/\r?\n/);
  const found: { file: string; line: number; column: number; code: string; message: string }[] = [];
  for (let i = 0; i + patterns.length <= lines.length; i++) {
    const groups: Record<string, string> = {};
    const all = patterns.every((p, k) => {
      const m = new RegExp(p.regexp).exec(lines[i + k] ?? '');
      if (!m) return false;
      for (const key of ['file', 'line', 'column', 'code', 'message'] as const) {
        const index = p[key];
        if (index !== undefined) groups[key] = m[index] ?? '';
      }
      return true;
    });
    if (all)
      found.push({
        file: groups.file ?? '',
        line: Number(groups.line),
        column: Number(groups.column),
        code: groups.code ?? '',
        message: groups.message ?? '',
      });
  }
  return found;
}

/**
 * A full node's two answers `alephium compile` needs, on 127.0.0.1: its version, and a compile that
 * fails at the first `BROKEN` in the submitted project, in the node's own format (alephium/alephium
 * ralph/src/main/scala/org/alephium/ralph/error/CompilerErrorFormatter.scala, the FormattableError of
 * CompilerError.scala: `-- error (line:col): title`, the line, the indicator, the message, each after a
 * gutter and `|`), as a 400 with it in `detail`.
 */
async function startNode(): Promise<{ url: string; close(): Promise<void> }> {
  const server = http.createServer((req, res) => {
    const chunks: Buffer[] = [];
    req.on('data', (c: Buffer) => chunks.push(c));
    req.on('end', () => {
      const json = (status: number, body: unknown) =>
        res.writeHead(status, { 'content-type': 'application/json' }).end(JSON.stringify(body));
      if (req.url === '/infos/version') return json(200, { version: `v${SDK_NODE_VERSION}` });
      if (req.url === '/contracts/compile-project') {
        const { code } = JSON.parse(Buffer.concat(chunks).toString('utf8')) as { code: string };
        const at = code.indexOf('BROKEN');
        const before = code.slice(0, at).split('\n');
        const line = before.length;
        const column = (before.at(-1)?.length ?? 0) + 1;
        const codeLine = code.split('\n')[line - 1] ?? '';
        const gutter = ' '.repeat(String(line).length);
        const detail = [
          `-- error (${line}:${column}): Syntax error`,
          `${line} |${codeLine}`,
          `${gutter} |${' '.repeat(column - 1)}^^^^^^`,
          `${gutter} |Expected an expression`,
        ].join('\n');
        return json(400, { detail });
      }
      return json(404, { detail: `no ${req.url}` });
    });
  });
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  const { port } = server.address() as AddressInfo;
  return {
    url: `http://127.0.0.1:${port}`,
    close: () => new Promise<void>((resolve) => server.close(() => resolve())),
  };
}

/** Runs the CLI's own compile command (its TypeScript entry, as `npx @alephium/cli` does) in `cwd`. */
function runCliCompile(cwd: string): Promise<{ code: number | null; output: string }> {
  return new Promise((resolve, reject) => {
    const child = spawn(
      process.execPath,
      ['--import', require.resolve('tsx'), CLI_INTERNAL, 'compile', '-n', 'devnet'],
      {
        cwd,
        env: { ...process.env, NODE_OPTIONS: '' },
        stdio: ['ignore', 'pipe', 'pipe'],
      },
    );
    let output = '';
    child.stdout.on('data', (d: Buffer) => (output += d.toString('utf8')));
    child.stderr.on('data', (d: Buffer) => (output += d.toString('utf8')));
    child.on('error', reject);
    child.on('close', (code) => resolve({ code, output }));
  });
}

describe('the compile task: the problem matcher on the CLI’s own error output', () => {
  let node: Awaited<ReturnType<typeof startNode>>;
  let project: string;

  before(async () => {
    node = await startNode();
    project = fs.mkdtempSync(path.join(os.tmpdir(), 'alephium-cli-'));
    fs.mkdirSync(path.join(project, 'contracts', 'sub'), { recursive: true });
    const network = { nodeUrl: node.url, networkId: 4, privateKeys: [] };
    fs.writeFileSync(
      path.join(project, 'alephium.config.js'),
      `module.exports = { default: ${JSON.stringify({ networks: { devnet: network, testnet: network, mainnet: network } })} }\n`,
    );
    // Two files: the node numbers lines in the project's concatenated source, the CLI maps them back.
    fs.writeFileSync(
      path.join(project, 'contracts', 'a.ral'),
      'Contract A() {\n  pub fn one() -> U256 {\n    return 1\n  }\n}\n',
    );
    fs.writeFileSync(
      path.join(project, 'contracts', 'sub', 'broken.ral'),
      'Contract Broken() {\n  pub fn f() -> U256 {\n    let x = BROKEN\n    return x\n  }\n}\n',
    );
  });

  after(async () => {
    await node.close();
    fs.rmSync(project, { recursive: true, force: true });
  });

  it('puts a real CLI compile error at its .ral file and line', async function () {
    this.timeout(180_000);
    const { code, output } = await runCliCompile(project);
    assert.notEqual(code, 0, output);
    const matcher = contributedMatcher();
    const problems = matchProblems(output, matcher.pattern);
    assert.equal(problems.length, 1, output);
    const [problem] = problems;
    assert.deepEqual(matcher.fileLocation, ['relative', '${cwd}/contracts']);
    // The task runs in the project's folder: `${cwd}/contracts` + the file the CLI names.
    const file = path.join(project, 'contracts', problem!.file);
    assert.equal(file, path.join(project, 'contracts', 'sub', 'broken.ral'), output);
    assert.equal(problem!.line, 3, output);
    assert.equal(problem!.column, 13, output);
    assert.equal(problem!.code, 'Syntax error');
    assert.equal(problem!.message, 'Expected an expression');
  });
});
